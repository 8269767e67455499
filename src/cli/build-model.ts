import type { EffectiveConfig } from "../config/resolve-config.ts";
import { OpenAICompatibleModel } from "../model/openai-compatible-model.ts";
import { CliError } from "./cli-error.ts";

/**
 * Builds the model client from the effective configuration. Throws a
 * {@link CliError} saying where to set the model name when none is configured.
 */
export function buildModel(config: EffectiveConfig, which: "model" | "subModel" | "validatorModel" | "translatorModel" = "model"): OpenAICompatibleModel {
  const name = which === "subModel" ? (config.subModel ?? config.model) : which === "validatorModel" ? config.validatorModel : which === "translatorModel" ? config.translatorModel : config.model;
  if (!name) throw new CliError("no model configured: pass --model NAME, set RLMKIT_MODEL, or add \"model\" to rlmkit.config.json.");
  return new OpenAICompatibleModel({
    model: name,
    baseURL: config.baseUrl,
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(config.requestTimeoutMs !== undefined ? { timeoutMs: config.requestTimeoutMs } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
    ...(config.contextWindow !== undefined ? { contextWindow: config.contextWindow } : {}),
    stream: config.stream,
  });
}
