/**
 * A protocol that cannot be served (say, a server that refuses `tools`) hands the
 * session over to another through `Protocol.degradeOn`: the engine emits
 * `protocol_degraded`, writes the system prompt and request fields anew, and sends
 * the same turn again.
 */
import { expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, type Protocol, type SessionEvent } from "../../src/index.ts";
import { callLineProtocol } from "../support/call-line-protocol.ts";

class Refused extends Error {
  override readonly name = "Refused";
}

const lookup = defineTool({
  name: "lookup",
  description: "Looks a key up.",
  parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  handler: ({ key }) => `value of ${key}`,
});

function pickyProtocol(): Protocol {
  return { ...callLineProtocol(), name: "picky", systemPrompt: () => "PICKY PROMPT", requestFields: () => ({ stop: ["</picky>"] }), degradeOn: (error) => (error instanceof Refused ? callLineProtocol() : undefined) };
}

test("a failure the protocol degrades on switches the protocol and sends the turn again", async () => {
  const model = new ScriptedModel([
    () => {
      throw new Refused("tools are not supported by this server");
    },
    'CALL lookup {"key": "a"}',
    "It is value of a.",
  ]);
  const events: SessionEvent[] = [];
  const result = await runSession({ question: "q", model, tools: [lookup], protocol: pickyProtocol(), subcalls: false, onEvent: (event) => events.push(event) });
  expect(result).toMatchObject({ status: "final", answer: "It is value of a.", iterations: 2 });
  expect(events.find((event) => event.type === "protocol_degraded")).toMatchObject({ iteration: 1, from: "picky", to: "call-line", reason: "tools are not supported by this server" });
  expect(model.requests[0]).toMatchObject({ stop: ["</picky>"] });
  expect(model.requests[0]!.messages[0]!.content).toBe("PICKY PROMPT");
  expect(model.requests[1]!.stop).toBeUndefined();
  expect(model.requests[1]!.messages[0]!.content).toContain("CALL name {json arguments}");
  expect(model.requests[2]!.messages[0]!.content).toContain("CALL name {json arguments}");
});

test("a failure the protocol does not degrade on ends the session with status error", async () => {
  const model = new ScriptedModel([
    () => {
      throw new Error("server on fire");
    },
  ]);
  const result = await runSession({ question: "q", model, protocol: pickyProtocol(), subcalls: false });
  expect(result).toMatchObject({ status: "error", error: "model call failed: server on fire" });
  expect(model.requests).toHaveLength(1);
});
