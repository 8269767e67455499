import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import { builtinHookDefinitions, type HookRequirement } from "./builtin-hooks.ts";
import { loadCustomHooks, type CustomHookSpec } from "./custom-hooks.ts";
import type { HookDefinition, HookSettings } from "./hook-definition.ts";
import { VALIDATION_SCOPES, type ValidationScope } from "./validation-types.ts";

/** A hook as a validator runs it. */
export type ResolvedHook = HookDefinition & { readonly requires: readonly HookRequirement[] };

/**
 * The hooks of a validator: the built-ins, replaced by name by custom hooks
 * (a malformed source is reported in `problems` and ignored), then the
 * per-hook settings applied. An unknown name in `settings` throws.
 */
export function resolveHooks(settings: Readonly<Record<string, boolean | HookSettings>> = {}, customHooks?: string | readonly CustomHookSpec[] | readonly unknown[]): { hooks: ResolvedHook[]; problems: readonly string[] } {
  const hooks: ResolvedHook[] = builtinHookDefinitions();
  const loaded = customHooks === undefined ? { hooks: [], problems: [] } : loadCustomHooks(customHooks);
  for (const custom of loaded.hooks) {
    const index = hooks.findIndex((hook) => hook.name === custom.name);
    if (index === -1) hooks.push(custom);
    else hooks[index] = custom;
  }
  for (const [name, setting] of Object.entries(settings)) {
    const index = hooks.findIndex((hook) => hook.name === name);
    if (index === -1) {
      throw new InvalidOptionsError({ option: `validation.hooks.${name}`, message: `there is no validation hook named '${name}'; the hooks are ${hooks.map((hook) => hook.name).join(", ")}` });
    }
    const values: HookSettings = typeof setting === "boolean" ? { enabled: setting } : setting;
    const scope = values.scope === undefined ? undefined : typeof values.scope === "string" ? [values.scope] : values.scope;
    if (scope && (scope.length === 0 || scope.some((item) => !VALIDATION_SCOPES.includes(item as ValidationScope)))) {
      throw new InvalidOptionsError({ option: `validation.hooks.${name}.scope`, message: `scope must be "main", "sub_session" or both, got ${JSON.stringify(values.scope)}` });
    }
    hooks[index] = {
      ...hooks[index],
      ...(values.enabled !== undefined ? { enabled: values.enabled } : {}),
      ...(scope ? { scope } : {}),
      ...(values.haltInference !== undefined ? { haltInference: values.haltInference } : {}),
      ...(values.killOnDetect !== undefined ? { killOnDetect: values.killOnDetect } : {}),
    };
  }
  return { hooks, problems: loaded.problems };
}
