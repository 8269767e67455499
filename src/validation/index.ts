export { createValidator, type Validator, type ValidatorOptions } from "./create-validator.ts";
export type { ResolvedHook } from "./resolve-hooks.ts";
export { validationHooks, type ValidationHooksOptions, type ValidationRoundReport } from "./validation-hooks.ts";
export { BUILTIN_HOOK_NAMES, type HookRequirement } from "./builtin-hooks.ts";
export { CORRECTION_SLOTS, loadCustomHooks, type CustomHookSpec, type LoadedCustomHooks } from "./custom-hooks.ts";
export type { HookDefinition, HookSettings } from "./hook-definition.ts";
export { REPETITION_SIMILARITY, REPETITION_WINDOW } from "./detectors/repetition-loop.ts";
export { maskSecrets } from "./detectors/credential-redaction.ts";
export { findCitations, type Citation } from "./detectors/ungrounded-citation.ts";
export {
  VALIDATION_PHASES,
  VALIDATION_SCOPES,
  type SuppressedViolation,
  type ValidationInput,
  type ValidationPhase,
  type ValidationResult,
  type ValidationScope,
  type ValidationTurn,
  type Violation,
} from "./validation-types.ts";
