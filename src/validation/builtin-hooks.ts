import { loadPrompt } from "../prompts/prompts.ts";
import type { HookDefinition } from "./hook-definition.ts";

/** What a hook needs in a round's input before it is considered. */
export type HookRequirement = "reply" | "answer" | "objective" | "toolCall" | "toolResult" | "repo";

/** A built-in hook: a definition plus what it needs; its correction is `prompts/validation/<name>.md`. */
export type BuiltinHook = Omit<HookDefinition, "correctionTemplate"> & { readonly requires: readonly HookRequirement[] };

const BOTH = ["main", "sub_session"] as const;
const confirm = { type: "programmatic", check: "confirm" } as const;
const off = { haltInference: false, killOnDetect: false } as const;

/** The built-in hooks, in the order their corrections are listed. */
export const BUILTIN_HOOKS: readonly BuiltinHook[] = [
  { name: "tool_schema_validation", phase: "pre_execution", scope: BOTH, detector: "tool_schema_validation", deterministicOnly: true, validator: confirm, alwaysOn: true, enabled: true, requires: ["toolCall"], haltInference: true, killOnDetect: false },
  {
    name: "phantom_tool_result", phase: "post_inference", scope: BOTH, detector: "phantom_tool_result", validator: { type: "programmatic", check: "phantom_tool_result" }, enabled: true, requires: ["reply"], ...off,
    detectionPrompt: "the reply presents specific data (file contents, search results, command or code output, listings) as already obtained, though no tool call or code run this turn produced it and it is not in the output shown",
  },
  {
    name: "fabricated_output", phase: "post_inference", scope: BOTH, detector: "fabricated_output", validator: { type: "programmatic", check: "fabricated_output" }, enabled: true, requires: ["reply"], haltInference: true, killOnDetect: false,
    detectionPrompt: "the reply writes code or a tool call and then states what it outputs or returns, or gives a final answer, before that output could have come back",
  },
  {
    name: "empty_promise", phase: "post_inference", scope: BOTH, detector: "empty_promise", validator: { type: "programmatic", check: "empty_promise" }, enabled: true, requires: ["reply"], ...off,
    detectionPrompt: "the reply commits to doing something now or next (\"I'll check\", \"let me look\") but contains no code or tool call that does it, and does not end by asking a question",
  },
  {
    name: "workflow_spawn", phase: "post_inference", scope: BOTH, detector: "workflow_spawn", validator: { type: "programmatic", check: "workflow_spawn" }, enabled: true, requires: ["reply"], ...off,
    detectionPrompt: "the reply claims a sub-call, sub-agent, child session or background task was started, though none was started this turn",
  },
  {
    name: "final_after_failure", phase: "post_inference", scope: BOTH, detector: "final_after_failure", validator: { type: "programmatic", check: "final_after_failure" }, enabled: true, requires: ["answer"], ...off,
    detectionPrompt: "the reply gives a final answer although a tool call or sub-call failed or a budget refused something this turn, without saying so",
  },
  {
    name: "objective_completion", phase: "post_inference", scope: ["sub_session"], validator: { type: "model" }, enabled: true, requires: ["answer", "objective"], ...off,
    detectionPrompt: "the reply gives a final answer that does not fully achieve the objective stated below",
  },
  { name: "repetition_loop", phase: "post_inference", scope: BOTH, detector: "repetition_loop", deterministicOnly: true, validator: confirm, enabled: true, requires: ["reply"], ...off },
  { name: "ungrounded_citation", phase: "post_inference", scope: BOTH, detector: "ungrounded_citation", deterministicOnly: true, validator: confirm, enabled: true, requires: ["repo"], ...off },
  { name: "credential_redaction", phase: "post_execution", scope: BOTH, detector: "credential_redaction", deterministicOnly: true, validator: confirm, enabled: true, requires: ["toolResult"], ...off },
];

/** The names of the built-in hooks. */
export const BUILTIN_HOOK_NAMES: readonly string[] = BUILTIN_HOOKS.map((hook) => hook.name);

/** The built-in hooks with their correction templates loaded from `prompts/validation/`. */
export function builtinHookDefinitions(): (HookDefinition & { readonly requires: readonly HookRequirement[] })[] {
  return BUILTIN_HOOKS.map((hook) => ({ ...hook, correctionTemplate: loadPrompt(`validation/${hook.name}`).trim() }));
}
