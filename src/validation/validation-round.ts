import type { NavTools } from "../nav/create-nav-tools.ts";
import type { ModelClient } from "../model/model-client.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { Tool } from "../tools/tool.ts";
import { DETECTORS, type Detection, type DetectorContext } from "./detectors/index.ts";
import type { HookRequirement } from "./builtin-hooks.ts";
import type { InteractionLogRow } from "./interaction-log.ts";
import { answers, LEDGER_CHECKS } from "./ledger-checks.ts";
import { replyParts } from "./reply-parts.ts";
import type { ResolvedHook } from "./resolve-hooks.ts";
import type { SuppressedViolation, ValidationInput, ValidationResult, Violation } from "./validation-types.ts";
import { detectWithModel, verifyWithModel } from "./validator-model.ts";

/** What a round runs with besides its input. */
export interface RoundEnvironment {
  readonly hooks: readonly ResolvedHook[];
  readonly model?: ModelClient;
  readonly tools: readonly Tool[];
  readonly repo?: NavTools;
  /** Hooks that already corrected this turn: a repeat is let through. */
  readonly alreadyFired: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

/** A round's result and the rows it adds to the interaction log. */
export interface RoundOutcome {
  readonly result: ValidationResult;
  readonly rows: readonly Omit<InteractionLogRow, "round" | "sessionId" | "turnId" | "phase" | "scope">[];
}

interface Found {
  readonly hook: ResolvedHook;
  readonly detection: Detection;
  readonly detectedBy: "deterministic" | "model";
}

/** Runs the three stages of one validation round: detection, validation, correction. */
export async function runRound(input: ValidationInput, environment: RoundEnvironment): Promise<RoundOutcome> {
  const parts = replyParts(input.reply ?? "");
  const answerText = input.answer === undefined ? (input.reply === undefined ? undefined : parts.prose) : typeof input.answer === "string" ? input.answer : JSON.stringify(input.answer);
  const context: DetectorContext = { input, parts, tools: [...environment.tools, ...(input.tools ?? [])], ...(environment.repo ? { repo: environment.repo } : {}), ...(answerText !== undefined ? { answerText } : {}) };
  const notes: string[] = [];
  const rows: RoundOutcome["rows"][number][] = [];
  const active = environment.hooks.filter(
    (hook) => (hook.enabled || hook.alwaysOn) && (input.only === undefined || input.only.includes(hook.name)) && hook.phase === input.phase && hook.scope.includes(input.scope) && hook.requires.every((need) => satisfied(need, context)),
  );

  // Stage 1: detection.
  const { model } = environment;
  const byModel = model ? active.filter((hook) => hook.detectionPrompt !== undefined && !hook.deterministicOnly) : [];
  let deterministic = active.filter((hook) => !byModel.includes(hook));
  const found: Found[] = [];
  if (model && byModel.length > 0) {
    const answer = await detectWithModel(model, byModel, input, environment.signal);
    if (answer.ok) {
      for (const hook of byModel) {
        const detection = answer.value.get(hook.name);
        if (detection) found.push({ hook, detection, detectedBy: "model" });
      }
      rows.push({ stage: 1, input: JSON.stringify({ hooks: byModel.map((hook) => hook.name), by: "model" }), rawOutput: answer.raw, outcome: answer.value.size > 0 ? "violation_detected" : "ok" });
    } else {
      notes.push(`${answer.error}; detection fell back to the deterministic detectors`);
      rows.push({ stage: 1, input: JSON.stringify({ hooks: byModel.map((hook) => hook.name), by: "model" }), rawOutput: answer.raw, outcome: "degraded" });
      deterministic = [...deterministic, ...byModel];
    }
  }
  const detected: Record<string, string> = {};
  for (const hook of deterministic) {
    const detector = hook.detector === undefined ? undefined : DETECTORS[hook.detector];
    if (!detector) {
      notes.push(`${hook.name} skipped: it is detected only by a validator model, and there is none`);
      continue;
    }
    const detection = await detector(context);
    if (detection) {
      found.push({ hook, detection, detectedBy: "deterministic" });
      detected[hook.name] = detection.reason;
    }
  }
  if (deterministic.length > 0) {
    rows.push({ stage: 1, input: JSON.stringify({ hooks: deterministic.map((hook) => hook.name), by: "deterministic", reply: input.reply, answer: input.answer, toolCall: input.toolCall }), rawOutput: JSON.stringify(detected), outcome: Object.keys(detected).length > 0 ? "violation_detected" : "ok" });
  }

  // Stage 2: validation, one detection at a time.
  const violations: Violation[] = [];
  const confirmed: { hook: ResolvedHook; detection: Detection; slots: Record<string, string> }[] = [];
  const suppressed: SuppressedViolation[] = [];
  let toolResult: JsonValue | undefined;
  for (const { hook, detection, detectedBy } of found) {
    const verdict = await validate(hook, detection, context, environment, notes);
    rows.push({ stage: 2, hook: hook.name, input: JSON.stringify(detection), rawOutput: verdict.raw, outcome: verdict.confirmed ? "confirmed" : "suppressed" });
    if (!verdict.confirmed) {
      suppressed.push({ hook: hook.name, reason: verdict.reason });
      continue;
    }
    if (detection.redacted !== undefined) toolResult = detection.redacted;
    if (environment.alreadyFired.has(hook.name) && detection.redacted === undefined) {
      suppressed.push({ hook: hook.name, reason: `already corrected once this turn; let through: ${detection.reason}` });
      notes.push(`${hook.name} fired again after its correction this turn; the reply was let through`);
      continue;
    }
    violations.push({ hook: hook.name, reason: detection.reason, detectedBy, haltInference: hook.haltInference, killOnDetect: hook.killOnDetect });
    confirmed.push({ hook, detection, slots: { ...detection.slots, ...verdict.slots } });
  }

  // Stage 3: one correction for everything confirmed.
  const items = confirmed
    .filter(({ hook }) => hook.correctionTemplate.trim() !== "")
    .map(({ hook, detection, slots }) => fill(hook.correctionTemplate, { reason: detection.reason, objective: input.objective ?? "", tool_name: input.toolCall?.name ?? "", tool_schema: "", errors: "", failures: "", citations: "", ...slots }));
  const correction = items.length > 0 ? renderPrompt(loadPrompt("validation/correction"), { items: items.join("\n") }).trim() : undefined;
  if (found.length > 0 || correction) rows.push({ stage: 3, input: JSON.stringify(violations), rawOutput: correction ?? "", outcome: correction ? "corrected" : "ok" });
  return {
    result: {
      phase: input.phase,
      scope: input.scope,
      checked: active.map((hook) => hook.name),
      violations,
      suppressed,
      ...(correction ? { correction } : {}),
      halt: violations.some((violation) => violation.haltInference),
      discard: violations.some((violation) => violation.killOnDetect),
      ...(toolResult !== undefined ? { toolResult } : {}),
      notes,
    },
    rows,
  };
}

async function validate(hook: ResolvedHook, detection: Detection, context: DetectorContext, environment: RoundEnvironment, notes: string[]): Promise<{ confirmed: true; slots?: Readonly<Record<string, string>>; raw: string } | { confirmed: false; reason: string; raw: string }> {
  if (hook.validator.type === "programmatic") {
    const verdict = LEDGER_CHECKS[hook.validator.check](detection, context);
    return { ...verdict, raw: `ledger check ${hook.validator.check}` };
  }
  if (!environment.model) return { confirmed: false, reason: "needs a validator model to confirm, and there is none", raw: "" };
  const answer = await verifyWithModel(environment.model, hook, detection, context.input, environment.signal);
  if (!answer.ok) {
    notes.push(`${answer.error}; ${hook.name} was let through unconfirmed`);
    return { confirmed: false, reason: `the validator model's verdict could not be read; let through`, raw: answer.raw };
  }
  if (!answer.value.violation) return { confirmed: false, reason: answer.value.reason ?? "the validator model found no violation", raw: answer.raw };
  return { confirmed: true, raw: answer.raw, ...(answer.value.reason ? { slots: { reason: answer.value.reason } } : {}) };
}

function satisfied(need: HookRequirement, context: DetectorContext): boolean {
  const { input } = context;
  switch (need) {
    case "reply":
      return input.reply !== undefined;
    case "answer":
      return answers(context);
    case "objective":
      return input.objective !== undefined && input.objective !== "";
    case "toolCall":
      return input.toolCall !== undefined;
    case "toolResult":
      return input.toolResult !== undefined;
    case "repo":
      return context.repo !== undefined;
  }
}

function fill(template: string, slots: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/gu, (whole, slot: string) => slots[slot] ?? whole);
}
