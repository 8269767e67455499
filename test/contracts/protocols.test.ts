import { describe } from "vitest";
import { resolveProtocol } from "../../src/index.ts";
import { callLineProtocol } from "../support/call-line-protocol.ts";
import { js } from "../support/scripted-replies.ts";
import { protocolContract } from "./protocol.contract.ts";

const jsonCall = (key: string) => `{"tool": "lookup", "arguments": {"key": "${key}"}}`;
const nativeCall = (id: string, key: string) => ({ id, name: "lookup", arguments: JSON.stringify({ key }) });

// One line per protocol: its factory and three replies written its way.
describe("code", () => protocolContract(() => resolveProtocol("code"), { oneCall: js('const hit = lookup("alpha")\nprint(hit)'), twoCalls: js('const a = lookup("alpha")') + "\n" + js('const b = lookup("beta")'), noCall: "The answer is probably 42." }));
describe("json", () => protocolContract(() => resolveProtocol("json"), { oneCall: 'Looking it up.\n```json\n{"tool": "lookup", "arguments": {"key": "alpha"}}\n```', twoCalls: '{"tool": "lookup", "arguments": {"key": "alpha"}}\n{"tool": "lookup", "arguments": {"key": "beta"}}', noCall: "The answer is probably 42." }));
describe("tagged", () => protocolContract(() => resolveProtocol("tagged"), { oneCall: 'Looking it up.\n<lookup>{"key": "alpha"}</lookup>', twoCalls: '<lookup>{"key": "alpha"}</lookup>\n<lookup>\n```json\n{"key": "beta"}\n```\n</lookup>', noCall: "The answer is probably 42." }));
describe("native", () => protocolContract(() => resolveProtocol("native"), { oneCall: { text: "", toolCalls: [nativeCall("c1", "alpha")] }, twoCalls: { text: "Two lookups.", toolCalls: [nativeCall("c1", "alpha"), nativeCall("c2", "beta")] }, noCall: "The answer is probably 42.", callAsText: jsonCall("alpha") }));
describe("call-line (test protocol)", () => protocolContract(callLineProtocol, { oneCall: 'CALL lookup {"key": "alpha"}', twoCalls: 'CALL lookup {"key": "alpha"}\nCALL lookup {"key": "beta"}', noCall: "The answer is probably 42." }));
