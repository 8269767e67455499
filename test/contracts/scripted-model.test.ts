import { describe } from "vitest";
import { ScriptedModel } from "../../src/index.ts";
import { modelClientContract } from "./model-client.contract.ts";

describe("ModelClient contract: ScriptedModel", () => {
  modelClientContract({
    async create(replies) {
      return new ScriptedModel(
        replies.map(({ text, reasoning, toolCalls, chunks }) => ({
          text,
          ...(reasoning !== undefined ? { reasoning } : {}),
          ...(chunks ? { chunks } : {}),
          ...(toolCalls ? { toolCalls } : {}),
        })),
      );
    },
  });
});
