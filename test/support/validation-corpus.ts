/**
 * The labelled validation corpus (test/fixtures/validation/*.json) and its
 * scoring: per hook, precision and recall of the deterministic detectors.
 * Used by test/validation/corpus.test.ts and `npm run bench -- validation`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createNavTools, createValidator, defineTool, type NavTools, type ValidationInput, type Tool } from "../../src/index.ts";

/** One labelled case: the round's input, the hook it is about, and whether that hook should fire. */
export interface CorpusCase {
  readonly id: string;
  readonly hook: string;
  readonly language: "en" | "de" | "fr" | "es";
  readonly violation: boolean;
  /** Other hooks that should fire on this case too. */
  readonly also?: readonly string[];
  readonly note: string;
  /** Where the reply comes from, when it is taken from a real model transcript. */
  readonly source?: string;
  readonly input: Omit<ValidationInput, "repo" | "tools"> & { readonly repo?: boolean; readonly tools?: readonly { name: string; description: string; parameters: Tool["parameters"] }[] };
}

/** A hook's scores over the whole corpus. */
export interface HookScore {
  readonly hook: string;
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly precision: number;
  readonly recall: number;
  /** The ids of the cases it got wrong. */
  readonly misses: readonly string[];
}

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "validation");

/** Every case of the corpus, file by file. */
export function loadCorpus(): CorpusCase[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .flatMap((name) => JSON.parse(readFileSync(join(CORPUS_DIR, name), "utf8")) as CorpusCase[]);
}

/** Runs every case through a validator without a model and scores each hook against the labels. */
export async function scoreCorpus(cases: readonly CorpusCase[]): Promise<HookScore[]> {
  const validator = createValidator();
  const repo: NavTools = await createNavTools(join(CORPUS_DIR, "repo"), { cacheDir: false });
  const fired = new Map<string, Set<string>>();
  try {
    for (const item of cases) {
      const tools = (item.input.tools ?? []).map((spec) => defineTool({ ...spec, handler: () => null }));
      const { repo: wantsRepo, tools: _specs, ...rest } = item.input;
      const result = await validator.check({ ...rest, tools, ...(wantsRepo ? { repo } : {}) });
      fired.set(item.id, new Set(result.violations.map((violation) => violation.hook)));
    }
  } finally {
    await validator.close();
    await repo.close();
  }
  const hooks = [...new Set(cases.map((item) => item.hook))].sort();
  return hooks.map((hook) => {
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    const misses: string[] = [];
    for (const item of cases) {
      const expected = (item.hook === hook && item.violation) || (item.also ?? []).includes(hook);
      const got = fired.get(item.id)!.has(hook);
      if (got && expected) truePositives++;
      else if (got) (falsePositives++, misses.push(`${item.id} (false positive)`));
      else if (expected) (falseNegatives++, misses.push(`${item.id} (missed)`));
    }
    const precision = truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives);
    const recall = truePositives + falseNegatives === 0 ? 1 : truePositives / (truePositives + falseNegatives);
    return { hook, truePositives, falsePositives, falseNegatives, precision, recall, misses };
  });
}

/** The scores as a Markdown table. */
export function formatScores(scores: readonly HookScore[], cases: readonly CorpusCase[]): string {
  const rows = scores.map((score) => {
    const own = cases.filter((item) => item.hook === score.hook);
    const languages = [...new Set(own.map((item) => item.language))].join(", ");
    return `| ${score.hook} | ${own.length} (${own.filter((item) => item.violation).length} violations) | ${languages} | ${score.precision.toFixed(2)} | ${score.recall.toFixed(2)} |`;
  });
  return ["| hook | cases | languages | precision | recall |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}
