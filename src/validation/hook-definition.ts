import type { ValidationPhase, ValidationScope } from "./validation-types.ts";

/**
 * One validation hook: when it runs, how its violations are detected and
 * confirmed, and what the model is told. The built-ins are in
 * `builtin-hooks.ts`; custom hooks (JSON) have the same fields.
 */
export interface HookDefinition {
  /** Unique name; a custom hook of a built-in's name replaces it. */
  readonly name: string;
  readonly phase: ValidationPhase;
  readonly scope: readonly ValidationScope[];
  /** What the hook looks for, one line: a bullet of the validator model's detection prompt. Absent: the model never detects it. */
  readonly detectionPrompt?: string;
  /** The deterministic detector used without a validator model (or always, for `deterministicOnly` hooks). */
  readonly detector?: string;
  /** True when the detector runs even with a validator model (checks that need no judgement). */
  readonly deterministicOnly?: boolean;
  /** Stage 2: a named programmatic check against the ledger, or a dedicated validator-model call. */
  readonly validator: { readonly type: "programmatic"; readonly check: string } | { readonly type: "model" };
  /** The correction text with `{{slots}}` (`reason`, `tool_name`, `tool_schema`, `errors`, `objective`); `""` adds nothing to the correction. */
  readonly correctionTemplate: string;
  /** Runs whatever the settings say (`tool_schema_validation`). */
  readonly alwaysOn?: boolean;
  readonly enabled: boolean;
  /** Hold the reply: none of its actions run before the model has answered the correction. */
  readonly haltInference: boolean;
  /** Drop the reply from the history; the correction takes its place. */
  readonly killOnDetect: boolean;
}

/** Per-hook settings of `createValidator({ hooks })`: `false` turns a hook off, `true` on. */
export interface HookSettings {
  readonly enabled?: boolean;
  readonly scope?: ValidationScope | readonly ValidationScope[];
  readonly haltInference?: boolean;
  readonly killOnDetect?: boolean;
}
