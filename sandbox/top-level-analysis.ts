import type { Node, Program } from "acorn";
import { analyze } from "eslint-scope";
import { walk } from "estree-walker";

/** What one block does with its top-level names, as far as the REPL rewrite needs to know. */
export interface TopLevelAnalysis {
  /** Top-level names that functions and classes of this block refer to: they must stay on the global object, where the function will find them later. */
  readonly captured: ReadonlySet<string>;
  /** Top-level names that functions and classes of this block assign. */
  readonly writtenInFunctions: ReadonlySet<string>;
  /** For each top-level statement (same order as `program.body`), the top-level names it assigns outside functions. */
  readonly writes: readonly ReadonlySet<string>[];
  /** Indexes of the top-level statements that hold a loop outside functions: only there does a local pay off. */
  readonly loops: ReadonlySet<number>;
  /** Names declared by `var` or `function` below the top level: they are hoisted into the block's own function, as in any function. */
  readonly nestedVarNames: ReadonlySet<string>;
  /** Names the block passes to `FINAL_VAR` as string literals outside functions. */
  readonly finalVarNames: ReadonlySet<string>;
  /** The block reaches its variables by name at run time (`eval`, `with`, `FINAL_VAR` with a computed name) outside functions. */
  readonly dynamicHere: boolean;
  /** A function of the block does: it can do so whenever it is called, in any later block. */
  readonly dynamicInFunctions: boolean;
}

type AnyNode = Node & Record<string, any>;

const CLOSURES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression", "ClassDeclaration", "ClassExpression"]);
const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);

/**
 * Finds, for one parsed block, which top-level names its functions refer to and
 * which names each top-level statement assigns. Names are resolved with
 * eslint-scope, so a parameter or an inner declaration that shadows a top-level
 * name is not taken for it. The program must have been parsed with `ranges: true`.
 */
export function analyzeTopLevel(program: Program): TopLevelAnalysis {
  // Ranges of the outermost functions and classes: code in them may run after the block.
  const closures: [number, number][] = [];
  const captured = new Set<string>();
  const writtenInFunctions = new Set<string>();
  const finalVarNames = new Set<string>();
  let dynamicHere = false;
  let dynamicInFunctions = false;
  let depth = 0;
  let statement = -1;
  const loops = new Set<number>();
  const dynamic = (): void => {
    if (depth > 0) dynamicInFunctions = true;
    else dynamicHere = true;
  };
  walk(program as any, {
    enter(node: any, parent: any, key, index) {
      const current = node as AnyNode;
      if (parent?.type === "Program") statement = index ?? -1;
      if (LOOPS.has(current.type) && depth === 0) loops.add(statement);
      if (CLOSURES.has(current.type)) {
        if (depth++ === 0) closures.push([current.start, current.end]);
      } else if (current.type === "WithStatement") {
        dynamic();
      } else if (current.type === "Identifier" && current.name === "eval") {
        dynamic();
      } else if (current.type === "Identifier" && current.name === "FINAL_VAR") {
        const argument = parent?.type === "CallExpression" && key === "callee" ? (parent.arguments[0] as AnyNode | undefined) : undefined;
        if (argument?.type === "Literal" && typeof argument.value === "string") (depth > 0 ? captured : finalVarNames).add(argument.value);
        else dynamic();
      }
    },
    leave(node: any) {
      if (CLOSURES.has(node.type)) depth--;
    },
  });

  const statements = program.body as AnyNode[];
  const writes = statements.map(() => new Set<string>());
  const manager = analyze(program as any, { ecmaVersion: 2022, sourceType: "script" });
  const global = manager.globalScope!;
  for (const scope of manager.scopes) {
    for (const reference of scope.references) {
      // Resolved to a parameter, a block-scoped name or a function's own variable: not top-level.
      if (reference.resolved && reference.resolved.scope !== global) continue;
      const identifier = reference.identifier as unknown as AnyNode;
      if (within(closures, identifier.start)) {
        captured.add(identifier.name);
        if (reference.isWrite()) writtenInFunctions.add(identifier.name);
      } else if (reference.isWrite()) writes[indexOf(statements, identifier.start)]?.add(identifier.name);
    }
  }

  const topLevel = new Set<unknown>(statements);
  const nestedVarNames = new Set<string>();
  for (const variable of global.variables) {
    for (const definition of variable.defs) {
      const declaration = definition.type === "Variable" ? definition.parent : definition.node;
      if ((definition.type === "Variable" || definition.type === "FunctionName") && !topLevel.has(declaration)) nestedVarNames.add(variable.name);
    }
  }
  return { captured, writtenInFunctions, writes, loops, nestedVarNames, finalVarNames, dynamicHere, dynamicInFunctions };
}

/** True when `offset` falls inside one of the sorted, disjoint ranges. */
function within(ranges: readonly [number, number][], offset: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = ranges[middle]!;
    if (offset < start) high = middle - 1;
    else if (offset >= end) low = middle + 1;
    else return true;
  }
  return false;
}

/** Index of the statement that contains `offset`, or -1. */
function indexOf(statements: readonly AnyNode[], offset: number): number {
  let low = 0;
  let high = statements.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const statement = statements[middle]!;
    if (offset < statement.start) high = middle - 1;
    else if (offset >= statement.end) low = middle + 1;
    else return middle;
  }
  return -1;
}
