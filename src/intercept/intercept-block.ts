import type { CallExpression, Node, Program, Statement } from "acorn";
import { generate } from "astring";
import { walk } from "estree-walker";
import { RESERVED_PREFIX, SourceSplice, parseGuest, GuestSyntaxError } from "../../sandbox/index.ts";
import { literalValue } from "./literal-value.ts";
import { clip } from "../util/clip.ts";

/** One accepted tool call, in source order. */
export interface InterceptedCall {
  /** The tool's name. */
  readonly tool: string;
  /** Positional arguments, evaluated from literals. */
  readonly args: readonly unknown[];
  /** The variable the result is assigned to. */
  readonly target: string;
  /** 1-based line and column of the call in the block. */
  readonly line: number;
  readonly column: number;
  /** The call as written, for previews. */
  readonly source: string;
  /** Offsets of the expression (the call, with its `await` if any) that the injected name replaces. */
  readonly start: number;
  readonly end: number;
}

/** A reason the block was refused, located in the model's own code. */
export interface InterceptProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The outcome of checking one block. */
export type InterceptResult =
  | { readonly ok: true; readonly calls: readonly InterceptedCall[] }
  | { readonly ok: false; readonly problems: readonly InterceptProblem[] };

/** The one sentence every rejection ends with. */
export const ACCEPTED_FORM =
  "Call tools only as a top-level statement of their own, assigning the result to a variable, with literal arguments: `const result = tool_name(\"literal\", {option: 1})` (or `result = await tool_name(...)`).";

type AnyNode = Node & Record<string, any>;

const SCOPES: Record<string, string> = {
  FunctionDeclaration: "a function",
  FunctionExpression: "a function",
  ArrowFunctionExpression: "an arrow function",
  ClassDeclaration: "a class",
  ClassExpression: "a class",
  ForStatement: "a loop",
  ForInStatement: "a loop",
  ForOfStatement: "a loop",
  WhileStatement: "a loop",
  DoWhileStatement: "a loop",
  IfStatement: "an if statement",
  ConditionalExpression: "a conditional expression",
  TryStatement: "a try statement",
  SwitchStatement: "a switch statement",
  BlockStatement: "a block",
  LabeledStatement: "a labelled statement",
  WithStatement: "a with statement",
  LogicalExpression: "a logical expression (&&, ||, ??)",
};

/**
 * Checks a block against the intercepted call form and collects its tool calls.
 * Accepted, at the top level only: `const|let|var NAME = [await] TOOL(ARGS)` with one
 * declarator, or `NAME = [await] TOOL(ARGS)`, where ARGS are literals. Every other
 * reference to a tool name, and any use of the reserved prefix, is a problem; all
 * problems of the block are reported at once, and then nothing may run.
 *
 * @param parsed the block's tree from `parseGuest(code)`, when the caller has it already (it is not parsed again).
 */
export function interceptBlock(code: string, toolNames: ReadonlySet<string>, parsed?: Program): InterceptResult {
  let program: Program;
  try {
    program = parsed ?? parseGuest(code);
  } catch (error) {
    if (error instanceof GuestSyntaxError) {
      return { ok: false, problems: [{ line: error.line, column: error.column, message: `SyntaxError: ${error.message}` }] };
    }
    throw error;
  }

  const problems: InterceptProblem[] = [];
  const calls: InterceptedCall[] = [];
  const accepted = new Set<Node>();

  for (const statement of program.body as Statement[]) {
    const site = matchSite(statement, toolNames);
    if (!site) continue;
    accepted.add(site.call.callee);
    const args: unknown[] = [];
    let argsOk = true;
    for (const argument of site.call.arguments as AnyNode[]) {
      if (argument.type === "SpreadElement") {
        problems.push(problem(argument, `${site.tool}(...): spread arguments are not allowed. ${ACCEPTED_FORM}`));
        argsOk = false;
        continue;
      }
      const literal = literalValue(argument);
      if (!literal.ok) {
        problems.push(problem(literal.node, `${site.tool}(...): argument ${args.length + 1} is not a literal — ${literal.reason}. ${ACCEPTED_FORM}`));
        argsOk = false;
        continue;
      }
      args.push(literal.value);
    }
    if (toolNames.has(site.target)) {
      problems.push(problem(statement, `'${site.target}' is a tool; assign the result to another name. ${ACCEPTED_FORM}`));
      argsOk = false;
    }
    if (argsOk) {
      calls.push({
        tool: site.tool,
        args,
        target: site.target,
        line: site.call.loc!.start.line,
        column: site.call.loc!.start.column + 1,
        source: code.slice(site.call.start, site.call.end),
        start: site.replace.start,
        end: site.replace.end,
      });
    }
  }

  const ancestors: AnyNode[] = [];
  walk(program as any, {
    enter(node: any, parent: any, key: string | number | symbol | null | undefined) {
      ancestors.push(node);
      if (node.type === "Identifier" && !isPropertyName(node, parent, key)) {
        if (node.name.startsWith(RESERVED_PREFIX)) {
          problems.push(problem(node, `the name '${node.name}' uses the reserved prefix '${RESERVED_PREFIX}'; choose another name.`));
        } else if (toolNames.has(node.name) && !accepted.has(node)) {
          problems.push(problem(node, misuse(node, ancestors.slice(0, -1), code)));
        }
      } else if (node.type === "Literal" && typeof node.value === "string" && node.value.includes(RESERVED_PREFIX)) {
        problems.push(problem(node, `the string ${JSON.stringify(node.value.slice(0, 40))} names the reserved prefix '${RESERVED_PREFIX}'; it is not available to your code.`));
      } else if (node.type === "TemplateElement" && String(node.value.cooked ?? node.value.raw).includes(RESERVED_PREFIX)) {
        problems.push(problem(node, `a template string names the reserved prefix '${RESERVED_PREFIX}'; it is not available to your code.`));
      }
    },
    leave() {
      ancestors.pop();
    },
  });

  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line || a.column - b.column);
    return { ok: false, problems };
  }
  return { ok: true, calls };
}

/**
 * Replaces each intercepted call (with its `await`) by the name its result was
 * injected under. Only those ranges change, so lines and columns elsewhere stay put.
 */
export function rewriteBlock(code: string, calls: readonly InterceptedCall[], names: readonly string[]): string {
  return rewriteBlockMapped(code, calls, names).code;
}

/** A rewritten block, and the way back from a position in it to the block as the model wrote it. */
export interface RewrittenBlock {
  readonly code: string;
  /**
   * Maps a 1-based line and column of `code` to the block as written. A position
   * inside an injected name maps to the start of the call it replaced.
   */
  toOriginal(line: number, column: number): { line: number; column: number };
}

/**
 * {@link rewriteBlock}, also returning the position map: an injected name is
 * rarely as long as the call it replaces, so columns after it on the same line move.
 */
export function rewriteBlockMapped(code: string, calls: readonly InterceptedCall[], names: readonly string[]): RewrittenBlock {
  const splice = new SourceSplice(code);
  // A call written over several lines leaves its line breaks behind, so later lines keep their numbers.
  calls.forEach((call, index) => splice.replace(call.start, call.end, names[index] + "\n".repeat(lineBreaks(code.slice(call.start, call.end)))));
  // The sandbox parses the rewritten code again (its REPL rewrite), which is where it re-parses.
  const rewritten = splice.toString();
  const rewrittenLines = lineStarts(rewritten);
  const originalLines = lineStarts(code);
  return {
    code: rewritten,
    toOriginal(line, column) {
      const lineStart = rewrittenLines[Math.min(Math.max(line, 1), rewrittenLines.length) - 1]!;
      const offset = Math.min(lineStart + Math.max(column, 1) - 1, rewritten.length);
      const original = splice.originalOffset(offset);
      let index = originalLines.length - 1;
      while (index > 0 && originalLines[index]! > original) index--;
      return { line: index + 1, column: original - originalLines[index]! + 1 };
    },
  };
}

/** Offsets at which each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) starts.push(index + 1);
  return starts;
}

interface Site {
  readonly tool: string;
  readonly target: string;
  readonly call: CallExpression & AnyNode;
  readonly replace: Node;
}

function matchSite(statement: Statement, toolNames: ReadonlySet<string>): Site | undefined {
  let target: AnyNode | undefined;
  let value: AnyNode | undefined;
  if (statement.type === "VariableDeclaration" && statement.declarations.length === 1) {
    target = statement.declarations[0].id as AnyNode;
    value = (statement.declarations[0].init ?? undefined) as AnyNode | undefined;
  } else if (statement.type === "ExpressionStatement") {
    const expression = statement.expression as AnyNode;
    if (expression.type === "AssignmentExpression" && expression.operator === "=") {
      target = expression.left;
      value = expression.right;
    }
  }
  if (!target || !value || target.type !== "Identifier") return undefined;
  const call = (value.type === "AwaitExpression" ? value.argument : value) as AnyNode;
  if (call.type !== "CallExpression" || call.optional || call.callee.type !== "Identifier" || !toolNames.has(call.callee.name)) return undefined;
  return { tool: call.callee.name, target: target.name, call: call as CallExpression & AnyNode, replace: value };
}

/** Names that are not references: `a.name`, `{ name: 1 }`, class members, labels. */
function isPropertyName(node: AnyNode, parent: AnyNode | null, key: unknown): boolean {
  if (!parent) return false;
  if (parent.type === "MemberExpression" && key === "property" && !parent.computed) return true;
  if ((parent.type === "Property" || parent.type === "MethodDefinition" || parent.type === "PropertyDefinition") && key === "key" && !parent.computed) {
    return !(parent.type === "Property" && parent.shorthand);
  }
  if ((parent.type === "LabeledStatement" || parent.type === "BreakStatement" || parent.type === "ContinueStatement") && key === "label") return true;
  return false;
}

/** Explains what is wrong with one reference to a tool name. */
function misuse(node: AnyNode, ancestors: AnyNode[], code: string): string {
  const name = node.name as string;
  const parent = ancestors[ancestors.length - 1];
  const isCallee = parent && (parent.type === "CallExpression" || parent.type === "NewExpression") && parent.callee === node;
  const scope = ancestors.map((ancestor) => SCOPES[ancestor.type]).filter(Boolean)[0];

  if (parent?.type === "NewExpression" && isCallee) return `\`new ${name}(...)\`: tools are not constructors. ${ACCEPTED_FORM}`;
  if (parent?.type === "TaggedTemplateExpression") return `\`${name}\`...\`\`: tools cannot be used as template tags. ${ACCEPTED_FORM}`;
  if (parent?.type === "CallExpression" && isCallee && parent.optional) return `\`${name}?.(...)\`: optional calls are not intercepted. ${ACCEPTED_FORM}`;
  if (isCallee) {
    const call = code.slice(parent.start, parent.end);
    if (scope) return `\`${preview(call)}\` is inside ${scope}; tool calls run before the block, so they cannot depend on control flow. Call it at the top level first (${suggestion(parent, name)}), then use the variable inside. ${ACCEPTED_FORM}`;
    const grand = ancestors[ancestors.length - 2];
    const outer = grand?.type === "AwaitExpression" ? ancestors[ancestors.length - 3] : grand;
    if (outer?.type === "ExpressionStatement") return `\`${preview(call)}\` is a bare call: its result would be lost. Write ${suggestion(parent, name)}. ${ACCEPTED_FORM}`;
    if (outer?.type === "AssignmentExpression" && outer.operator !== "=") return `\`${preview(code.slice(outer.start, outer.end))}\`: compound or logical assignment (${outer.operator}) of a tool call is not intercepted. Write ${suggestion(parent, name)} first. ${ACCEPTED_FORM}`;
    if (outer?.type === "AssignmentExpression" && outer.left.type !== "Identifier") return `\`${preview(code.slice(outer.start, outer.end))}\`: the result must go to a plain variable, not a property or a destructuring pattern. Write ${suggestion(parent, name)}. ${ACCEPTED_FORM}`;
    if (outer?.type === "AssignmentExpression") return `\`${preview(code.slice(outer.start, outer.end))}\`: chained assignment of a tool call is not intercepted. Write ${suggestion(parent, name)}. ${ACCEPTED_FORM}`;
    if (outer?.type === "VariableDeclarator") {
      const declaration = ancestors[ancestors.length - (grand?.type === "AwaitExpression" ? 4 : 3)];
      if (outer.id.type !== "Identifier") return `\`${preview(code.slice(outer.start, outer.end))}\`: destructuring a tool result is not intercepted. Write ${suggestion(parent, name)}, then destructure the variable. ${ACCEPTED_FORM}`;
      if (declaration?.declarations?.length > 1) return `\`${preview(code.slice(declaration.start, declaration.end))}\`: declare one variable per tool call. ${ACCEPTED_FORM}`;
    }
    return `\`${preview(call)}\` is nested inside another expression. Write ${suggestion(parent, name)} as its own statement, then use the variable. ${ACCEPTED_FORM}`;
  }
  if (parent?.type === "VariableDeclarator" && parent.id === node) return `'${name}' is a tool; it cannot be re-declared. Pick another variable name.`;
  if ((parent?.type === "FunctionDeclaration" || parent?.type === "ClassDeclaration") && parent.id === node) return `'${name}' is a tool; it cannot be re-declared. Pick another name.`;
  if (parent?.type === "AssignmentExpression" && parent.left === node) return `'${name}' is a tool; it cannot be re-assigned. Pick another variable name.`;
  if (parent?.type === "UpdateExpression") return `'${name}' is a tool; it cannot be re-assigned.`;
  return `'${name}' may only be called, not referred to (aliasing, passing or inspecting a tool does not work). ${ACCEPTED_FORM}`;
}

function suggestion(call: AnyNode, name: string): string {
  const variable = name.replace(/^nav_/, "").replace(/^[a-z]+_/, "") || "result";
  return `\`const ${variable === name ? "result" : variable} = ${preview(generate(call as any))}\``;
}

function lineBreaks(text: string): number {
  return text.split("\n").length - 1;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return clip(flat, 80);
}

function problem(node: Node, message: string): InterceptProblem {
  return { line: node.loc!.start.line, column: node.loc!.start.column + 1, message };
}
