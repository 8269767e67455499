import type { Node } from "web-tree-sitter";
import type { NavSymbol, SymbolKind } from "./symbol.ts";

const SIGNATURE_MAX = 200;

/** What a language extractor says about one declaration. */
export interface Declaration {
  /** The node whose range is the declaration (e.g. an `export` statement around a class). */
  readonly node: Node;
  /** The symbol's own name (not qualified). */
  readonly name: string;
  /** The node that spells the name, for its line and column; found in the source text when absent. */
  readonly nameNode?: Node | null;
  readonly kind: SymbolKind;
  /** The enclosing symbol's qualified name, if any. */
  readonly container?: string;
  /** Where the signature stops; defaults to the end of `node`. */
  readonly body?: Node | null;
  /** A doc string found inside the declaration (Python docstrings). */
  readonly doc?: string;
}

/** Per-language rules for what may precede a declaration and still belong to it. */
export interface LeadingRules {
  /** Node types that decorate the next declaration (decorators, attributes, annotations). */
  readonly decorations: ReadonlySet<string>;
  /** Whether a comment's text is a doc comment for the next declaration. */
  readonly isDocComment: (text: string) => boolean;
  /**
   * False when nothing before a declaration ever belongs to it (its decorations are its own children and no
   * comment is a doc comment), so its previous siblings need not be asked.
   */
  readonly siblingsLead?: boolean;
}

/** Collects symbols of one file in document order. */
export class SymbolCollector {
  readonly symbols: NavSymbol[] = [];
  readonly #source: string;
  readonly #rules: LeadingRules;

  constructor(source: string, rules: LeadingRules) {
    this.#source = source;
    this.#rules = rules;
  }

  /** The text being collected from (what the nodes' indexes point into). */
  get source(): string {
    return this.#source;
  }

  /** Records a declaration and returns its qualified name, for use as the container of its members. */
  add(declaration: Declaration): string {
    const { node, kind, body } = declaration;
    const name = declaration.name.replace(/::/g, ".");
    const container = declaration.container?.replace(/::/g, ".");
    const qualified = container ? `${container}.${name}` : name;
    const leading = this.#leading(node);
    const signatureStart = firstNonDecoration(node, this.#rules.decorations);
    const signatureEnd = body ? body.startIndex : node.endIndex;
    const doc = declaration.doc ?? leading.doc;
    const at = this.#namePosition(declaration, signatureStart, Math.max(signatureStart, signatureEnd));
    const symbol: NavSymbol = {
      name: qualified,
      kind,
      startLine: leading.startRow + 1,
      endLine: lastRow(node) + 1,
      line: at.line,
      column: at.column,
      signature: cleanSignature(this.#source.slice(signatureStart, Math.max(signatureStart, signatureEnd))),
      ...(doc ? { doc } : {}),
      ...(container ? { container } : {}),
    };
    this.symbols.push(symbol);
    return qualified;
  }

  // Where the name is written: its node, else the name as a whole word in the signature, else the declaration's start.
  #namePosition(declaration: Declaration, from: number, to: number): { line: number; column: number } {
    const { node, nameNode, name } = declaration;
    let index = node.startIndex;
    let row = node.startPosition.row;
    if (nameNode) {
      index = nameNode.startIndex;
      row = nameNode.startPosition.row;
    } else {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s*");
      const found = new RegExp(`(?<![\\w$#])${escaped}(?![\\w$])`).exec(this.#source.slice(from, to));
      if (found) {
        for (let newline = this.#source.indexOf("\n", index); newline !== -1 && newline < from + found.index; newline = this.#source.indexOf("\n", newline + 1)) row++;
        index = from + found.index;
      }
    }
    return { line: row + 1, column: index - (this.#source.lastIndexOf("\n", index - 1) + 1) + 1 };
  }

  #leading(node: Node): { startRow: number; doc?: string } {
    let startRow = node.startPosition.row;
    if (this.#rules.siblingsLead === false) return { startRow };
    let docNode: Node | undefined;
    for (let sibling = node.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
      const isDecoration = this.#rules.decorations.has(sibling.type);
      const isDoc = !isDecoration && isComment(sibling) && this.#rules.isDocComment(sibling.text);
      // What it is first, then whether it ends on the line before (its end is one more call into the parser).
      if ((!isDecoration && !isDoc) || lastRow(sibling) < startRow - 1) break;
      if (isDoc) docNode = sibling;
      startRow = sibling.startPosition.row;
    }
    const doc = docNode ? firstDocLine(collectDocText(docNode, node, this.#rules)) : undefined;
    return doc ? { startRow, doc } : { startRow };
  }
}

/** The first meaningful line of a comment or docstring, markers removed. */
export function firstDocLine(text: string): string | undefined {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw
      .trim()
      .replace(/^(\/\*\*?|\/\/[\/!]?|#|\*+(?!\/))/, "")
      .replace(/\*+\/$/, "")
      .replace(/^("""|''')/, "")
      .replace(/("""|''')$/, "")
      .trim();
    if (line) return line.length > SIGNATURE_MAX ? `${line.slice(0, SIGNATURE_MAX)}…` : line;
  }
  return undefined;
}

/** The last row a node covers, not counting a trailing newline it swallowed. */
export function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

function collectDocText(first: Node, declaration: Node, rules: LeadingRules): string {
  const parts: string[] = [];
  for (let sibling: Node | null = first; sibling && sibling.id !== declaration.id; sibling = sibling.nextNamedSibling) {
    if (isComment(sibling) && rules.isDocComment(sibling.text)) parts.push(sibling.text);
  }
  return parts.join("\n");
}

function isComment(node: Node): boolean {
  return node.type === "comment" || node.type === "line_comment" || node.type === "block_comment";
}

function firstNonDecoration(node: Node, decorations: ReadonlySet<string>): number {
  // Most declarations start with their signature: the children before the first named one are keywords,
  // so it starts where the node does (asked of one child, not of every child of the node).
  const first = node.firstNamedChild;
  if (first && !decorations.has(first.type) && !isComment(first)) return node.startIndex;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (decorations.has(child.type) || isComment(child)) continue;
    return child.startIndex === node.startIndex ? node.startIndex : Math.min(child.startIndex, startOfUnnamedPrefix(node, child));
  }
  return node.startIndex;
}

// Keywords such as `export`, `def` or `class` are unnamed children that come before the first named one.
function startOfUnnamedPrefix(node: Node, firstNamed: Node): number {
  let start = firstNamed.startIndex;
  for (let index = node.childCount - 1; index >= 0; index--) {
    const child = node.child(index);
    if (!child || child.startIndex >= firstNamed.startIndex) continue;
    if (child.isNamed) break;
    start = child.startIndex;
  }
  return start;
}

// Whitespace other than lone spaces: a signature without any has nothing to collapse (most are one line).
const LOOSE_SPACE = /\s\s|[^\S ]/;

// The signature on one line, without the `{`, `:` or `;` it ends with.
function cleanSignature(text: string): string {
  let collapsed = (LOOSE_SPACE.test(text) ? text.replace(/\s+/g, " ") : text).trim();
  const last = collapsed.charCodeAt(collapsed.length - 1);
  if (last === 0x7b || last === 0x3a || last === 0x3b) collapsed = collapsed.slice(0, -1).trimEnd();
  return collapsed.length > SIGNATURE_MAX ? `${collapsed.slice(0, SIGNATURE_MAX)}…` : collapsed;
}
