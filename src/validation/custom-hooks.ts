import { readFileSync } from "node:fs";
import { z } from "zod";
import { loadPrompt } from "../prompts/prompts.ts";
import { BUILTIN_HOOKS, type HookRequirement } from "./builtin-hooks.ts";
import { DETECTORS } from "./detectors/index.ts";
import type { HookDefinition } from "./hook-definition.ts";
import { LEDGER_CHECKS } from "./ledger-checks.ts";

/** The slots a correction template may use. */
export const CORRECTION_SLOTS: readonly string[] = ["reason", "tool_name", "tool_schema", "errors", "objective", "failures", "citations"];

/**
 * A custom hook as written in JSON. Keys are camelCase; the reference design's
 * snake_case names (`detection_prompt`, `validator_type`, `validator_fn_name`,
 * `correction_template`, `halt_inference`, `kill_on_detect`) are accepted too,
 * as are its values `"llm"` (for `"model"`) and `validate_<name>`.
 */
export interface CustomHookSpec {
  readonly name: string;
  readonly phase: "post_inference" | "pre_execution" | "post_execution";
  readonly scope: "main" | "sub_session" | readonly ("main" | "sub_session")[];
  /** A bullet of the validator model's detection prompt. */
  readonly detectionPrompt?: string;
  /** A built-in deterministic detector to reuse when there is no validator model. */
  readonly detector?: string;
  /** Stage 2: `"programmatic"` (a ledger check named by `validatorFn`; default `confirm`) or `"model"`. */
  readonly validatorType?: "programmatic" | "model" | "llm";
  readonly validatorFn?: string;
  /** The correction, with `{{reason}}` and the other {@link CORRECTION_SLOTS}; an entry replacing a built-in may leave it out and keep the built-in's. */
  readonly correctionTemplate?: string;
  readonly enabled?: boolean;
  readonly haltInference?: boolean;
  readonly killOnDetect?: boolean;
  readonly requires?: readonly HookRequirement[];
}

const ALIASES: Readonly<Record<string, string>> = {
  detection_prompt: "detectionPrompt",
  validator_type: "validatorType",
  validator_fn_name: "validatorFn",
  correction_template: "correctionTemplate",
  halt_inference: "haltInference",
  kill_on_detect: "killOnDetect",
};

const Scope = z.enum(["main", "sub_session"]);
const Spec = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][\w-]*$/u, "a name of letters, digits, _ and -"),
  phase: z.enum(["post_inference", "pre_execution", "post_execution"]),
  scope: z.union([Scope, z.array(Scope).min(1)]),
  detectionPrompt: z.string().min(1).optional(),
  detector: z.string().optional(),
  validatorType: z.enum(["programmatic", "model", "llm"]).optional(),
  validatorFn: z.string().optional(),
  correctionTemplate: z.string().optional(),
  enabled: z.boolean().optional(),
  haltInference: z.boolean().optional(),
  killOnDetect: z.boolean().optional(),
  requires: z.array(z.enum(["reply", "answer", "objective", "toolCall", "toolResult", "repo"])).optional(),
});

/** What loading custom hooks gave: the hooks, or nothing and the problems found (then the built-ins are used alone). */
export interface LoadedCustomHooks {
  readonly hooks: readonly (HookDefinition & { readonly requires: readonly HookRequirement[] })[];
  readonly problems: readonly string[];
}

/**
 * Reads custom hooks from a JSON file (an array of {@link CustomHookSpec}) or
 * takes them as an array. A file that cannot be read or parsed, or any entry
 * that is invalid, is reported in `problems` and no custom hook is used.
 */
export function loadCustomHooks(source: string | readonly unknown[]): LoadedCustomHooks {
  const where = typeof source === "string" ? `custom hooks file ${source}` : "custom hooks";
  let entries: unknown;
  if (typeof source === "string") {
    try {
      entries = JSON.parse(readFileSync(source, "utf8"));
    } catch (error) {
      return { hooks: [], problems: [`${where}: ${error instanceof Error ? error.message : String(error)}; using the built-in hooks`] };
    }
  } else entries = source;
  if (!Array.isArray(entries)) return { hooks: [], problems: [`${where}: expected a JSON array of hooks; using the built-in hooks`] };
  const hooks: (HookDefinition & { requires: readonly HookRequirement[] })[] = [];
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    const parsed = Spec.safeParse(renameAliases(entry));
    if (!parsed.success) {
      problems.push(`${where}, entry ${index}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "entry"}: ${issue.message}`).join("; ")}`);
      return;
    }
    const result = toDefinition(parsed.data);
    if (typeof result === "string") problems.push(`${where}, entry ${index} (${parsed.data.name}): ${result}`);
    else hooks.push(result);
  });
  if (problems.length > 0) return { hooks: [], problems: [...problems, `${where}: not used; using the built-in hooks`] };
  return { hooks, problems: [] };
}

function renameAliases(entry: unknown): unknown {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return entry;
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [ALIASES[key] ?? key, value]));
}

function toDefinition(spec: z.infer<typeof Spec>): (HookDefinition & { requires: readonly HookRequirement[] }) | string {
  const builtin = BUILTIN_HOOKS.find((hook) => hook.name === spec.name);
  const detector = spec.detector ?? (builtin?.detector);
  if (detector !== undefined && !(detector in DETECTORS)) return `unknown detector '${detector}'; the detectors are ${Object.keys(DETECTORS).join(", ")}`;
  const detectionPrompt = spec.detectionPrompt ?? builtin?.detectionPrompt;
  if (detector === undefined && detectionPrompt === undefined) return "it needs a detectionPrompt (for the validator model) or a detector";
  const type = spec.validatorType === "llm" ? "model" : spec.validatorType;
  let validator: HookDefinition["validator"];
  if (type === "model") validator = { type: "model" };
  else if (type === undefined && spec.validatorFn === undefined && builtin) validator = builtin.validator;
  else {
    const check = (spec.validatorFn ?? "confirm").replace(/^validate_/u, "");
    if (!(check in LEDGER_CHECKS)) return `unknown validatorFn '${spec.validatorFn}'; the checks are ${Object.keys(LEDGER_CHECKS).join(", ")}`;
    validator = { type: "programmatic", check };
  }
  const correctionTemplate = spec.correctionTemplate ?? (builtin ? loadPrompt(`validation/${builtin.name}`).trim() : undefined);
  if (correctionTemplate === undefined) return "it needs a correctionTemplate (only an entry replacing a built-in hook may leave it out)";
  const unknownSlot = [...correctionTemplate.matchAll(/\{\{(\w+)\}\}/gu)].map((match) => match[1]).find((slot) => !CORRECTION_SLOTS.includes(slot));
  if (unknownSlot) return `correctionTemplate uses {{${unknownSlot}}}; the slots are ${CORRECTION_SLOTS.map((slot) => `{{${slot}}}`).join(", ")}`;
  return {
    name: spec.name,
    phase: spec.phase,
    scope: typeof spec.scope === "string" ? [spec.scope] : spec.scope,
    ...(detectionPrompt !== undefined ? { detectionPrompt } : {}),
    ...(detector !== undefined ? { detector } : {}),
    ...(builtin?.deterministicOnly && spec.detector === undefined ? { deterministicOnly: true } : {}),
    ...(builtin?.alwaysOn ? { alwaysOn: true } : {}),
    validator,
    correctionTemplate,
    enabled: spec.enabled ?? true,
    haltInference: spec.haltInference ?? false,
    killOnDetect: spec.killOnDetect ?? false,
    requires: spec.requires ?? builtin?.requires ?? (spec.phase === "post_inference" ? ["reply"] : spec.phase === "pre_execution" ? ["toolCall"] : ["toolResult"]),
  };
}
