import { parse, type Node, type Options, type Pattern, type Program, type Statement, type VariableDeclaration } from "acorn";
import { SourceSplice } from "./splice.ts";
import { analyzeTopLevel } from "./top-level-analysis.ts";

import { RESERVED_PREFIX } from "./reserved-prefix.ts";

export { RESERVED_PREFIX };

/**
 * Parameter of the wrapper function through which a block publishes its top-level
 * functions and classes. The host passes the context's global object; guest code
 * never receives a reference to the runtime itself.
 */
export const GLOBAL_PARAM = `${RESERVED_PREFIX}_g`;

/**
 * Prefix of the hoisted function that makes a block's top-level function. Declared under its
 * own name inside the wrapper, a function would be a local of the block's function, and the
 * functions of that block would keep calling it after a later block declared or assigned
 * another function of that name. So `function f() {…}` becomes
 * `function __rlm_fn$f() { function f() {…} return f }`, published as `f = __rlm_fn$f()`: the
 * function keeps its name and its source text, and every reference to `f` outside it is to the
 * global. Inside it, `f` is its own binding: a function whose name its block assigns (to wrap it,
 * or one that replaces itself) is declared in place instead, so that its calls go through the name.
 */
const FUNCTION_PREFIX = `${RESERVED_PREFIX}_fn$`;

/**
 * Name of the local through which a block reaches the global object (the wrapper's
 * parameter): values kept in locals while the block runs are stored through it.
 */
const GLOBAL = GLOBAL_PARAM;

/** Globals the guest runtime defines; a block may shadow them in name only, never in a local. */
const RUNTIME_GLOBALS = ["print", "console", "FINAL", "FINAL_VAR"];

/** Built-in globals that cannot be assigned: a function of that name can only be its block's own. */
const READ_ONLY_BUILT_INS = ["undefined", "NaN", "Infinity"];

/**
 * What the rewrite knows of the blocks that ran before in the same isolate (see
 * {@link ReplState}); a block with no earlier blocks gets an empty one.
 */
export interface ReplScope {
  /** Top-level names that earlier blocks declared. */
  readonly declared: ReadonlySet<string>;
  /** Top-level names that functions made by earlier blocks refer to. */
  readonly captured: ReadonlySet<string>;
  /** True once a function of an earlier block used `eval`, `with` or `FINAL_VAR` with a computed name. */
  readonly dynamic: boolean;
}

/** Options of {@link toReplProgram}. */
export interface ReplOptions {
  /** What earlier blocks left. Default: nothing (a first block). */
  readonly scope?: ReplScope;
  /** Names the host defines (stubs, host functions, persistent globals): never kept in a local. */
  readonly reserved?: Iterable<string>;
}

/**
 * A block rewritten so that it runs as one REPL entry. Running `code` as a script
 * declares the block's global names and evaluates to an async function; the host
 * calls that function with the global object.
 */
export interface ReplProgram {
  /** The script to compile: same line structure as the input plus one closing line; line 1 carries a prefix. */
  readonly code: string;
  /** Characters of the wrapper before the block's own text on line 1. */
  readonly prefixLength: number;
  /** Top-level names the block declares (they become globals that later blocks can see and re-declare). */
  readonly declared: readonly string[];
  /** Top-level names kept in locals of the block's function while it runs, and stored on the global object as it goes. */
  readonly locals: readonly string[];
  /** Top-level names that the block's functions refer to (see {@link ReplScope.captured}). */
  readonly captured: readonly string[];
  /** True when a function of this block may reach variables by name at run time (see {@link ReplScope.dynamic}). */
  readonly dynamic: boolean;
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
export function parseGuest(code: string, extra: Pick<Options, "ranges" | "onComment"> = {}): Program {
  try {
    return parse(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowAwaitOutsideFunction: true,
      allowHashBang: false,
      locations: true,
      ...extra,
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
 * Rewrites a block so that it behaves like one entry of a browser console, and so
 * that its top-level code runs as fast as code in a function:
 *
 * - The body becomes an async function, so top-level `await` works.
 * - A top-level variable that a top-level loop assigns and no function refers to
 *   (in this block or an earlier one) is a local of that function while the block
 *   runs: it starts with the value the global of that name holds, and is stored back to the global after
 *   each top-level statement that assigns it and when the block ends, also when
 *   it throws. The engine optimises loops over locals; it cannot over globals.
 * - Every other top-level `var`/`let`/`const` becomes an assignment to a global
 *   (so a later block can re-declare it and every function sees the same value);
 *   top-level functions and classes are published as globals.
 *
 * Edits are spliced into the original text so line numbers do not move.
 *
 * @example
 * toReplProgram("const x = await f();\nprint(x)").code;
 * // 'var x;(async (__rlm_g) => {;(x = await f());\nprint(x)\n})'
 * toReplProgram("let n = 0\nwhile (n < 9) n++").code;
 * // '(async (__rlm_g) => {var n = __rlm_g.n;try {;(n = 0);__rlm_g.n = n;\nwhile (n < 9) n++;__rlm_g.n = n;\n} finally {__rlm_g.n = n;}})'
 *
 * @throws GuestSyntaxError when the code does not parse.
 */
export function toReplProgram(code: string, { scope = EMPTY_SCOPE, reserved = [] }: ReplOptions = {}): ReplProgram {
  const splice = new SourceSplice(code);
  const program = parseGuest(code, {
    ranges: true,
    // `-->` opens a comment only at the start of a line; the wrapper's prefix would make line 1's an operator.
    onComment: (block, _text, start) => {
      if (!block && code.startsWith("-->", start) && !/[\n\r\u2028\u2029]/.test(code.slice(0, start))) splice.replace(start, start + 3, "//>");
    },
  });
  const analysis = analyzeTopLevel(program);
  const statements = program.body as Statement[];
  const declared = new Set<string>();
  const functions = new Set<string>();
  let functionCount = 0;
  for (const statement of statements) {
    if (statement.type === "VariableDeclaration") {
      for (const declarator of statement.declarations) for (const name of boundNames(declarator.id)) declared.add(name);
    } else if ((statement.type === "FunctionDeclaration" || statement.type === "ClassDeclaration") && statement.id) {
      declared.add(statement.id.name);
      functions.add(statement.id.name);
      functionCount++;
    }
  }

  const locals = new Set<string>();
  // Locals put the body in a try block, where a function declaration is block-scoped: a `var`
  // of the same name below the top level, or a second declaration of it, would no longer compile.
  const movable = functionCount === functions.size && ![...functions].some((name) => analysis.nestedVarNames.has(name));
  if (!analysis.dynamicHere && !scope.dynamic && movable) {
    const excluded = new Set([...RUNTIME_GLOBALS, ...reserved, ...functions, ...analysis.nestedVarNames, ...analysis.finalVarNames, "__proto__"]);
    // Names a loop assigns: elsewhere a global costs next to nothing, and a local costs a load and stores.
    const candidates = new Set<string>();
    for (const index of analysis.loops) for (const name of analysis.writes[index] ?? []) if (declared.has(name) || scope.declared.has(name)) candidates.add(name);
    for (const name of candidates) {
      if (!excluded.has(name) && !analysis.captured.has(name) && !scope.captured.has(name)) locals.add(name);
    }
  }

  // Top-level functions made by a hoisted function of a reserved name (see FUNCTION_PREFIX). Not one whose name
  // the block assigns (`fib = memo(fib)`, a function that replaces itself): declared in place, its own calls
  // go through the name the block assigned. Not one that a `var` below the top level also declares, which shares
  // its binding in the block's function; nor one named like a runtime or host global, which the block could not
  // publish (those are read-only) and so keeps as its own local, as before.
  const assigned = new Set([...analysis.writtenInFunctions, ...analysis.writes.flatMap((names) => [...names])]);
  const unpublishable = new Set([...RUNTIME_GLOBALS, ...reserved, ...READ_ONLY_BUILT_INS]);
  const classAt = new Map<string, number>();
  statements.forEach((statement, index) => {
    if (statement.type === "ClassDeclaration" && statement.id && !classAt.has(statement.id.name)) classAt.set(statement.id.name, index);
  });
  const made = new Set([...functions].filter((name) => !analysis.nestedVarNames.has(name) && !assigned.has(name) && !unpublishable.has(name)));
  const store = (names: Iterable<string>): string => [...names].map((name) => `${GLOBAL}.${name} = ${name};`).join("");
  let lastDirective = -1;
  while (lastDirective + 1 < statements.length && (statements[lastDirective + 1] as { directive?: string }).directive !== undefined) lastDirective++;
  // A function named like a runtime or built-in global is not published: those are read-only (in strict code,
  // trying throws). One named like a host name is, as before: a persistent global can be replaced.
  const readOnly = new Set([...RUNTIME_GLOBALS, ...READ_ONLY_BUILT_INS]);
  const publish = statements
    .filter((statement) => statement.type === "FunctionDeclaration" && statement.id && !readOnly.has(statement.id.name))
    .map((statement) => {
      const name = (statement as { id: { name: string } }).id.name;
      const value = made.has(name) ? `${FUNCTION_PREFIX}${name}()` : name;
      return `${GLOBAL}[${JSON.stringify(name)}] = ${value};`;
    })
    .join("");
  const load = locals.size > 0 ? `var ${[...locals].map((name) => `${name} = ${GLOBAL}.${name}`).join(", ")};try {` : "";
  // Functions are published inside the try block, where their declarations now live (and are hoisted to).
  // All of it goes after the directive prologue ("use strict"), so that it stays one; it is spliced in before
  // the statements' edits, so that it comes first where the next statement starts right after the prologue.
  const prologue = `${load}${publish}`;
  if (prologue && lastDirective >= 0) splice.insert(statements[lastDirective]!.end, `;${prologue}`);
  for (const [index, statement] of statements.entries()) {
    const stored = new Set<string>();
    if (statement.type === "VariableDeclaration") {
      rewriteDeclaration(statement, splice);
      for (const declarator of statement.declarations) for (const name of boundNames(declarator.id)) if (locals.has(name)) stored.add(name);
    } else if (statement.type === "FunctionDeclaration" && statement.id && made.has(statement.id.name)) {
      splice.insert(statement.start, `function ${FUNCTION_PREFIX}${statement.id.name}() { `);
      splice.insert(statement.end, ` return ${statement.id.name} }`);
    } else if (statement.type === "ClassDeclaration" && statement.id) {
      // Publish right after the class body, on the same line as its closing brace.
      splice.insert(statement.end, `;${GLOBAL}[${JSON.stringify(statement.id.name)}] = ${statement.id.name};`);
    }
    // A class's name is stored only from its declaration on: before it, reading it throws (an assignment there that
    // did not run, or was caught, must not make the store throw).
    for (const name of analysis.writes[index] ?? []) {
      if (locals.has(name) || (functions.has(name) && !made.has(name) && !unpublishable.has(name) && !((classAt.get(name) ?? -1) > index))) stored.add(name);
    }
    if (stored.size > 0) splice.insert(statement.end, `${code[statement.end - 1] === ";" ? "" : ";"}${store(stored)}`);
  }

  const globals = [...declared].filter((name) => !locals.has(name));
  const prefix = `${globals.length ? `var ${globals.join(", ")};` : ""}(async (${GLOBAL_PARAM}) => {${lastDirective >= 0 ? "" : prologue}`;
  const body = splice.toString();
  // The closing line: it ends the try block whose finally stores the locals, then the function.
  const generated = `${prefix}${body}\n}${locals.size > 0 ? ` finally {${store(locals)}}}` : ""})`;
  // Line tables are needed only to place an error, so they are built on the first call.
  let generatedLineStarts: number[] | undefined;
  let originalLineStarts: number[] | undefined;
  const toOriginal = (line: number, column: number): { line: number; column: number } | undefined => {
    generatedLineStarts ??= lineStarts(generated);
    originalLineStarts ??= lineStarts(code);
    if (line < 1 || line > generatedLineStarts.length) return undefined;
    const bodyOffset = generatedLineStarts[line - 1]! + column - 1 - prefix.length;
    if (bodyOffset > body.length) return undefined;
    const offset = splice.originalOffset(Math.max(0, bodyOffset));
    let index = originalLineStarts.length - 1;
    while (index > 0 && originalLineStarts[index]! > offset) index--;
    return { line: index + 1, column: offset - originalLineStarts[index]! + 1 };
  };
  return {
    code: generated,
    prefixLength: prefix.length,
    declared: [...declared],
    locals: [...locals],
    captured: [...analysis.captured],
    dynamic: analysis.dynamicInFunctions,
    toOriginal,
  };
}

const EMPTY_SCOPE: ReplScope = { declared: new Set(), captured: new Set(), dynamic: false };

/** Offsets at which each line starts (line breaks as JavaScript counts them). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n?|[\n\u2028\u2029]/g)) starts.push(match.index + match[0].length);
  return starts;
}

function rewriteDeclaration(node: VariableDeclaration, splice: SourceSplice): void {
  // `const a = 1, {b} = o;` becomes `;(a = 1, {b} = o);` — commas, comments and
  // line breaks between declarators stay where they were.
  splice.replace(node.start, node.declarations[0].start, ";(");
  for (const declarator of node.declarations) {
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
