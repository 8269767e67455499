import { expect, test } from "vitest";
import { InvalidOptionsError, PROTOCOL_NAMES, resolveProtocol, runSession, ScriptedModel, type Protocol, type SessionEvent } from "../../src/index.ts";
import { callLineProtocol } from "../support/call-line-protocol.ts";

test("'code' and no protocol at all both give the code protocol", () => {
  expect(resolveProtocol("code").name).toBe("code");
  expect(resolveProtocol().name).toBe("code");
  expect(PROTOCOL_NAMES).toContain("code");
});

test("a Protocol object is used as it is", () => {
  const protocol = callLineProtocol();
  expect(resolveProtocol(protocol)).toBe(protocol);
});

test.each([
  ["an unknown name", "xml", /unknown protocol 'xml'; the protocols are 'code'/],
  ["a name from the prototype", "toString", /unknown protocol 'toString'/],
  ["an object without readReply", { name: "half", systemPrompt: () => "", renderResults: () => [] }, /a Protocol object with a name and readReply/],
  ["null", null, /protocol must be one of 'code'/],
])("%s is refused with InvalidOptionsError naming the valid protocols, before any event", async (_label, protocol, message) => {
  expect(() => resolveProtocol(protocol as unknown as Protocol)).toThrow(InvalidOptionsError);
  expect(() => resolveProtocol(protocol as unknown as Protocol)).toThrow(message);
  const events: SessionEvent[] = [];
  const model = new ScriptedModel(["x"]);
  await expect(runSession({ question: "q", model, protocol: protocol as unknown as Protocol, onEvent: (event) => events.push(event) })).rejects.toMatchObject({ name: "InvalidOptionsError", option: "protocol" });
  expect(events).toEqual([]);
  expect(model.requests).toHaveLength(0);
});
