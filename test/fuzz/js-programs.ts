import fc from "fast-check";

/** The tools the generated programs may call. */
export const FUZZ_TOOLS = ["tool_a", "tool_b"] as const;

/** A call the interceptor must accept, as the generator wrote it. */
export interface ExpectedCall {
  readonly tool: string;
  readonly args: readonly unknown[];
  readonly target: string;
}

/** One generated statement and what the interceptor must make of it. */
export interface Statement {
  readonly code: string;
  /** Accepted calls it holds (at most one). */
  readonly calls: readonly ExpectedCall[];
  /** True when the statement must make the block be refused. */
  readonly rejected: boolean;
  /** A marker identifier whose position must map back exactly, if any. */
  readonly marker?: string;
  /** True for a line comment: whatever follows must start on a new line. */
  readonly endsLine?: boolean;
}

/** A generated block. */
export interface Program {
  readonly code: string;
  readonly calls: readonly ExpectedCall[];
  readonly rejected: boolean;
  readonly markers: readonly string[];
}

/** JSON literals without the reserved prefix or a `__proto__` key (both are refused on purpose; the prefix has its own statement). */
const literal = fc
  .jsonValue({ maxDepth: 2 })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown)
  .filter((value) => !JSON.stringify(value).includes("__rlm") && !JSON.stringify(value).includes('"__proto__"'));

const tool = fc.constantFrom(...FUZZ_TOOLS);
const declaration = fc.constantFrom("const ", "let ", "var ", "");
const maybeAwait = fc.constantFrom("", "await ");
const space = fc.constantFrom("", " ", "  ", "\t");

/** A statement whose shape depends on `id` (a unique number) so names never collide. */
function statement(id: number): fc.Arbitrary<Statement> {
  const target = `v${id}`;
  const marker = `mark${id}`;
  const accepted = fc.record({ kind: declaration, wait: maybeAwait, tool, args: fc.array(literal, { maxLength: 3 }), gap: space }).map(({ kind, wait, tool, args, gap }) => ({
    code: `${kind}${target} =${gap}${wait}${tool}(${args.map((arg) => JSON.stringify(arg)).join(`,${gap}`)})`,
    calls: [{ tool, args, target }],
    rejected: false,
  }));
  const plain = fc.constantFrom<Statement>(
    { code: `const ${marker} = ${id}`, calls: [], rejected: false, marker },
    { code: `let ${marker} = "tool_a(1) in a string"`, calls: [], rejected: false, marker },
    { code: `const ${marker} = { tool_a: 1 }.tool_a`, calls: [], rejected: false, marker },
    { code: `print(${id})`, calls: [], rejected: false },
    { code: `// tool_b("commented out") ${id}`, calls: [], rejected: false, endsLine: true },
    { code: `/* tool_a(${id}) */ void 0`, calls: [], rejected: false },
  );
  const refused = fc
    .record({ tool, arg: literal })
    .chain(({ tool, arg }) =>
      fc.constantFrom(
        `if (true) { const r${id} = ${tool}(${JSON.stringify(arg)}) }`,
        `${tool}(${JSON.stringify(arg)})`,
        `const f${id} = ${tool}`,
        `const r${id} = ${tool}(x${id})`,
        `const [r${id}] = ${tool}(${JSON.stringify(arg)})`,
        `o${id}.p = ${tool}(${JSON.stringify(arg)})`,
        `const r${id} = 1 + ${tool}(${JSON.stringify(arg)})`,
        `let __rlm_${id} = 1`,
        `const s${id} = "__rlm_x"`,
        `function g${id}() { return ${tool}(${JSON.stringify(arg)}) }`,
        `r${id} += ${tool}(${JSON.stringify(arg)})`,
        `const r${id} = ${tool}?.(${JSON.stringify(arg)})`,
        `const r${id} = ${tool}(...[${JSON.stringify(arg)}])`,
        `for (const i of [1]) { const r${id} = await ${tool}(${JSON.stringify(arg)}) }`,
        `const r${id} = ${tool}(${JSON.stringify(arg)}), q${id} = 1`,
        `const r${id} = \`\${${tool}(1)}\``,
      ),
    )
    .map((code) => ({ code, calls: [], rejected: true }));
  return fc.oneof({ arbitrary: accepted, weight: 3 }, { arbitrary: plain, weight: 3 }, { arbitrary: refused, weight: 1 });
}

/** A block of 1–8 statements, joined on one line or several. */
export const program: fc.Arbitrary<Program> = fc
  .array(fc.constantFrom("\n", "; ", ";", ";\n\n"), { minLength: 8, maxLength: 8 })
  .chain((separators) =>
    fc.tuple(...Array.from({ length: 8 }, (_, id) => statement(id))).chain((statements) =>
      fc.integer({ min: 1, max: 8 }).map((count) => {
        const chosen = statements.slice(0, count);
        let code = "";
        chosen.forEach((item, index) => {
          code += item.code;
          if (index < chosen.length - 1) code += item.endsLine ? "\n" : separators[index]!;
        });
        return {
          code,
          calls: chosen.flatMap((item) => item.calls),
          rejected: chosen.some((item) => item.rejected),
          markers: chosen.flatMap((item) => (item.marker ? [item.marker] : [])),
        };
      }),
    ),
  );

/** Fragments that break code in interesting ways. */
const FRAGMENTS = ["(", ")", "{", "}", "[", "]", "`", "'", '"', "/", "\\", "await ", "tool_a", "tool_b(1)", "__rlm", "\n", ";", "=", ",", "...", "${", "*/", "/*", "<!--", "-->", "#", "\u2028", "\0", "const ", "=>", "?.", "\uD800", "0x", "1n"];

/** A generated block with up to five random edits: deletions, insertions of fragments, duplications. */
export const mutatedProgram: fc.Arbitrary<string> = fc
  .tuple(
    program,
    fc.array(fc.record({ kind: fc.constantFrom("delete", "insert", "duplicate"), at: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.integer({ min: 1, max: 12 }), fragment: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })) }), { minLength: 1, maxLength: 5 }),
  )
  .map(([{ code }, edits]) => {
    let text = code;
    for (const edit of edits) {
      const at = Math.floor(edit.at * text.length);
      if (edit.kind === "delete") text = text.slice(0, at) + text.slice(at + edit.length);
      else if (edit.kind === "insert") text = text.slice(0, at) + edit.fragment + text.slice(at);
      else text = text.slice(0, at) + text.slice(at, at + edit.length) + text.slice(at);
    }
    return text;
  });

/** 1-based line and column of `offset` in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
