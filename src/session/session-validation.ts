import type { SessionEventInput } from "../core/events.ts";
import type { SessionHook } from "../engine/hooks.ts";
import type { ModelClient } from "../model/model-client.ts";
import { createValidator, type Validator, type ValidatorOptions } from "../validation/create-validator.ts";
import { validationHooks } from "../validation/validation-hooks.ts";

/** `runSession({ validation })`: the validator's options, its model falling back to the session's `subModel`. */
export type SessionValidationOptions = Pick<ValidatorOptions, "model" | "hooks" | "customHooks" | "logDatabase">;

/** A session's validator, before its hooks are tied to the session's events. */
export interface SessionValidation {
  readonly validator: Validator;
  /** The validator as session hooks whose rounds become `validation` events. */
  hooks(emit: (event: SessionEventInput) => void): SessionHook[];
  /** Reports a custom-hook source that was not used (a `validation` event with notes), once, after `session_start`. */
  reportProblems(emit: (event: SessionEventInput) => void): void;
  close(): Promise<void>;
}

/**
 * Builds the validator of a session (throws `InvalidOptionsError` for an unknown
 * hook name, before the session starts). The validator model is `options.model`,
 * else the session's `subModel` when one was given, else none.
 */
export function sessionValidation(options: SessionValidationOptions | undefined, subModel: ModelClient | undefined): SessionValidation | undefined {
  if (options === undefined) return undefined;
  const model = options.model ?? subModel;
  const validator = createValidator({ ...options, ...(model ? { model } : {}) });
  return {
    validator,
    reportProblems: (emit) => {
      if (validator.problems.length > 0) emit({ type: "validation", violations: [], suppressed: [], notes: validator.problems });
    },
    hooks: (emit) =>
      validationHooks(validator, {
        onRound: ({ iteration, point, phase, result }) =>
          emit({
            type: "validation",
            iteration,
            point,
            phase,
            checked: result.checked,
            violations: result.violations.map(({ hook, reason }) => ({ hook, reason })),
            suppressed: result.suppressed,
            notes: result.notes,
            ...(result.correction ? { correction: result.correction } : {}),
          }),
      }),
    close: () => validator.close(),
  };
}
