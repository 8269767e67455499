import { describe } from "vitest";
import { OpenAICompatibleModel } from "../../src/index.ts";
import { startOpenAIServer, type OpenAITestServer, type ScriptedCompletion } from "../support/openai-server.ts";
import { modelClientContract, type ContractReply } from "./model-client.contract.ts";

/** The reply as the loopback server sends it: content, reasoning, tool_calls; streamed in the script's chunks. */
function completionOf(reply: ContractReply): ScriptedCompletion {
  return {
    text: reply.text,
    ...(reply.chunks ? { chunks: reply.chunks } : {}),
    ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
    ...(reply.toolCalls ? { toolCalls: reply.toolCalls.map(({ id, name, arguments: text, chunks }) => ({ id, name, arguments: text, ...(chunks ? { chunks } : {}) })) } : {}),
  };
}

describe.for([
  { mode: "plain JSON replies", stream: false },
  { mode: "streamed replies (SSE)", stream: true },
])("ModelClient contract: OpenAICompatibleModel against the loopback server, $mode", ({ stream }) => {
  const servers: OpenAITestServer[] = [];
  modelClientContract({
    async create(replies) {
      const server = await startOpenAIServer(replies.map(completionOf));
      servers.push(server);
      return new OpenAICompatibleModel({ baseURL: server.url, model: "contract-model", maxRetries: 0, stream });
    },
    async cleanup() {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    },
  });
});
