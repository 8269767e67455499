import { z } from "zod";
import { splitReasoning } from "../model/split-reasoning.ts";
import type { ModelClient } from "../model/model-client.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { HookDefinition } from "./hook-definition.ts";
import type { Detection } from "./detectors/detector.ts";
import { turnFailures } from "./ledger-checks.ts";
import type { ValidationInput } from "./validation-types.ts";

const MAX_TOKENS = 800;
const CLIP = 4_000;

const DetectionReply = z.object({ violations: z.array(z.object({ hook: z.string(), reason: z.string() })) });
const VerdictReply = z.object({ violation: z.boolean(), reason: z.string().optional() });

/** What the validator model answered: parsed, or unreadable with why. Its raw text is kept for the log. */
export type ModelAnswer<T> = { readonly ok: true; readonly value: T; readonly raw: string } | { readonly ok: false; readonly error: string; readonly raw: string };

/** Stage 1 by the validator model: one call covering every hook given. */
export async function detectWithModel(model: ModelClient, hooks: readonly HookDefinition[], input: ValidationInput, signal?: AbortSignal): Promise<ModelAnswer<Map<string, Detection>>> {
  const prompt = renderPrompt(loadPrompt("validation/detect"), {
    hooks: hooks.map((hook) => `- ${hook.name}: ${hook.detectionPrompt}`).join("\n"),
    context: renderContext(input),
  });
  const answer = await ask(model, prompt, DetectionReply, signal);
  if (!answer.ok) return answer;
  const names = new Set(hooks.map((hook) => hook.name));
  const detections = new Map<string, Detection>();
  for (const violation of answer.value.violations) {
    if (names.has(violation.hook) && !detections.has(violation.hook)) detections.set(violation.hook, { reason: violation.reason, evidence: violation.reason });
  }
  return { ok: true, value: detections, raw: answer.raw };
}

/** Stage 2 by the validator model: one call confirming or rejecting one detection. */
export async function verifyWithModel(model: ModelClient, hook: HookDefinition, detection: Detection, input: ValidationInput, signal?: AbortSignal): Promise<ModelAnswer<{ violation: boolean; reason?: string }>> {
  const prompt = renderPrompt(loadPrompt("validation/verify"), {
    hook: hook.name,
    description: hook.detectionPrompt ?? hook.name,
    reason: detection.reason,
    context: renderContext(input),
  });
  return ask(model, prompt, VerdictReply, signal);
}

async function ask<T>(model: ModelClient, prompt: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<ModelAnswer<T>> {
  let raw: string;
  try {
    const response = await model.complete({ messages: [{ role: "user", content: prompt }], maxTokens: MAX_TOKENS, temperature: 0, ...(signal ? { signal } : {}) });
    raw = response.text;
  } catch (error) {
    return { ok: false, error: `the validator model call failed: ${error instanceof Error ? error.message : String(error)}`, raw: "" };
  }
  const json = firstJsonObject(splitReasoning(raw).text);
  if (json === undefined) return { ok: false, error: "the validator model's reply held no JSON object", raw };
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `the validator model's reply did not have the asked shape (${parsed.error.issues[0]?.message ?? "invalid"})`, raw };
  return { ok: true, value: parsed.data, raw };
}

/** The first balanced `{…}` of a text that parses as JSON (fences and prose around it ignored). */
export function firstJsonObject(text: string): unknown {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let index = start; index < text.length; index++) {
      const char = text[index];
      if (inString) {
        if (char === "\\") index++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === "{") depth++;
      else if (char === "}" && --depth === 0) {
        try {
          return JSON.parse(text.slice(start, index + 1));
        } catch {
          break;
        }
      }
    }
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > CLIP ? `${text.slice(0, CLIP)}\n[… ${text.length - CLIP} more characters]` : text;
}

/** The round's input as the validator model reads it. */
export function renderContext(input: ValidationInput): string {
  const { turn } = input;
  const ran = [
    `tool calls: ${turn.toolCalls.length === 0 ? "none" : turn.toolCalls.map((call) => `${call.name} (${call.ok ? "ok" : `failed: ${call.error ?? "error"}`})`).join(", ")}`,
    `code blocks run: ${turn.blocksRun}`,
    `sub-calls started: ${turn.subcallsStarted ?? 0}, child sessions started: ${turn.childSessionsStarted ?? 0}`,
    ...turnFailures(turn).map((failure) => `failure: ${failure}`),
  ];
  const sections = [`Phase: ${input.phase}; session: ${input.scope === "main" ? "the main session" : "a child session"}.`];
  if (input.objective !== undefined) sections.push(`Objective:\n${clip(input.objective)}`);
  sections.push(`What ran this turn:\n${ran.join("\n")}`);
  sections.push(`Output the model has seen:\n${turn.outputSeen.length === 0 ? "(none)" : clip(turn.outputSeen.join("\n---\n"))}`);
  if (input.reply !== undefined) sections.push(`The reply:\n<<<\n${clip(input.reply)}\n>>>`);
  if (input.answer !== undefined) sections.push(`Its answer:\n${clip(typeof input.answer === "string" ? input.answer : JSON.stringify(input.answer))}`);
  if (input.toolCall) sections.push(`The tool call: ${input.toolCall.name}(${clip(JSON.stringify(input.toolCall.arguments) ?? "")})`);
  return sections.join("\n\n");
}
