import { parse, type Node, type Pattern, type Program, type Statement, type VariableDeclaration } from "acorn";
import { SourceSplice } from "./splice.ts";

/**
 * Guest code may not use names that start with this prefix: injected values and the
 * rewrite's own parameter live there. The interceptor rejects blocks that use it.
 */
export const RESERVED_PREFIX = "__rlm";

/**
 * Parameter of the wrapper function through which a block publishes its top-level
 * functions and classes. The host passes the context's global object; guest code
 * never receives a reference to the runtime itself.
 */
export const GLOBAL_PARAM = `${RESERVED_PREFIX}_g`;

/**
 * A block rewritten so that it runs as one REPL entry. Running `code` as a script
 * declares the block's top-level names as globals and evaluates to an async
 * function; the host calls that function with the global object.
 */
export interface ReplProgram {
  /** The script to compile: same line structure as the input; line 1 carries a prefix. */
  readonly code: string;
  /** Characters added before column 1 of line 1 (subtract from columns reported on line 1). */
  readonly prefixLength: number;
  /** Top-level names the block declares (they become globals that later blocks can see and re-declare). */
  readonly declared: readonly string[];
  /**
   * Maps a 1-based line and column in `code` to the same place in the block as given;
   * undefined for positions in the wrapper's closing line.
   */
  readonly toOriginal: (line: number, column: number) => { line: number; column: number } | undefined;
}

/** A parse error located in the caller's own code (1-based line and column). */
export class GuestSyntaxError extends Error {
  override readonly name = "SyntaxError";
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

/** Parses guest code the way rlmkit does everywhere: latest syntax, script goal, top-level await. */
export function parseGuest(code: string): Program {
  try {
    return parse(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowAwaitOutsideFunction: true,
      allowHashBang: false,
      locations: true,
    });
  } catch (error) {
    const err = error as SyntaxError & { loc?: { line: number; column: number } };
    if (err.loc) {
      const message = err.message.replace(/\s*\(\d+:\d+\)$/, "");
      throw new GuestSyntaxError(message, err.loc.line, err.loc.column + 1);
    }
    throw error;
  }
}

/**
 * Rewrites a block so that it behaves like one entry of a browser console:
 * top-level `var`/`let`/`const` become assignments to globals (so a later block
 * can re-declare them), top-level functions and classes are published as globals,
 * and the body becomes an async function so that top-level `await` works.
 * Edits are spliced into the original text so line numbers do not move.
 *
 * @example
 * toReplProgram("const x = await f();\nprint(x)").code;
 * // 'var x;(async (__rlm_g) => {;(x = await f());\nprint(x)\n})'
 *
 * @throws GuestSyntaxError when the code does not parse.
 */
export function toReplProgram(code: string): ReplProgram {
  const program = parseGuest(code);
  const splice = new SourceSplice(code);
  const declared = new Set<string>();
  const published: string[] = [];

  for (const statement of program.body as Statement[]) {
    if (statement.type === "VariableDeclaration") {
      rewriteDeclaration(statement, splice, declared);
    } else if (statement.type === "FunctionDeclaration" && statement.id) {
      declared.add(statement.id.name);
      published.push(statement.id.name);
    } else if (statement.type === "ClassDeclaration" && statement.id) {
      declared.add(statement.id.name);
      // Publish right after the class body, on the same line as its closing brace.
      splice.insert(statement.end, `;${GLOBAL_PARAM}[${JSON.stringify(statement.id.name)}] = ${statement.id.name};`);
    }
  }

  const names = [...declared];
  const publish = published.map((name) => `${GLOBAL_PARAM}[${JSON.stringify(name)}] = ${name};`).join("");
  const prefix = `${names.length ? `var ${names.join(", ")};` : ""}(async (${GLOBAL_PARAM}) => {${publish}`;
  const body = splice.toString();
  const generated = `${prefix}${body}\n})`;
  // Line tables are needed only to place an error, so they are built on the first call.
  let generatedLineStarts: number[] | undefined;
  let originalLineStarts: number[] | undefined;
  const toOriginal = (line: number, column: number): { line: number; column: number } | undefined => {
    generatedLineStarts ??= lineStarts(generated);
    originalLineStarts ??= lineStarts(code);
    if (line < 1 || line > generatedLineStarts.length) return undefined;
    const bodyOffset = generatedLineStarts[line - 1] + column - 1 - prefix.length;
    if (bodyOffset > body.length) return undefined;
    const offset = splice.originalOffset(Math.max(0, bodyOffset));
    let index = originalLineStarts.length - 1;
    while (index > 0 && originalLineStarts[index] > offset) index--;
    return { line: index + 1, column: offset - originalLineStarts[index] + 1 };
  };
  return { code: generated, prefixLength: prefix.length, declared: names, toOriginal };
}

/** Offsets at which each line starts (line breaks as JavaScript counts them). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n?|[\n\u2028\u2029]/g)) starts.push(match.index + match[0].length);
  return starts;
}

function rewriteDeclaration(node: VariableDeclaration, splice: SourceSplice, declared: Set<string>): void {
  // `const a = 1, {b} = o;` becomes `;(a = 1, {b} = o);` — commas, comments and
  // line breaks between declarators stay where they were.
  splice.replace(node.start, node.declarations[0].start, ";(");
  for (const declarator of node.declarations) {
    for (const name of boundNames(declarator.id)) declared.add(name);
    if (declarator.init) continue;
    // `var x;` keeps x's value (as JavaScript does); `let x;` resets it.
    if (node.kind === "var") splice.replace(declarator.start, declarator.end, "void 0");
    else splice.insert(declarator.end, " = void 0");
  }
  splice.insert(node.declarations[node.declarations.length - 1].end, ")");
}

/** Every identifier a binding pattern introduces. */
export function boundNames(pattern: Pattern | Node): string[] {
  const node = pattern as Pattern;
  switch (node.type) {
    case "Identifier":
      return [node.name];
    case "ObjectPattern":
      return node.properties.flatMap((property) =>
        property.type === "RestElement" ? boundNames(property.argument) : boundNames(property.value),
      );
    case "ArrayPattern":
      return node.elements.flatMap((element) => (element ? boundNames(element) : []));
    case "RestElement":
      return boundNames(node.argument);
    case "AssignmentPattern":
      return boundNames(node.left);
    default:
      return [];
  }
}
