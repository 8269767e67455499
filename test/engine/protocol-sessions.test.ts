/**
 * A session in each protocol, chosen by name, answers a question about the fixture
 * repository: the model searches with `nav_search` in its protocol's own way and
 * answers from the result it was given.
 */
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { runSession, ScriptedModel, type ProtocolName, type ScriptedReply, type SessionEvent } from "../../src/index.ts";
import { js } from "../support/scripted-replies.ts";

const REPO = fileURLToPath(new URL("../fixtures/nav-repo/", import.meta.url));
const SEARCH = { query: "def label", options: { glob: "*.py" } };

/** Answers with the path of the first match the model was shown, or says it saw none. */
const answerFromResult = (answer: (path: string) => string): ScriptedReply => (request) => {
  const shown = request.messages.at(-1)!.content;
  const path = /py\/models\.py/.exec(shown)?.[0];
  return path ? answer(path) : "I did not see a result.";
};

test.each<{ protocol: ProtocolName; first: ScriptedReply | { text: string; toolCalls: { id: string; name: string; arguments: string }[] }; answer: (path: string) => string }>([
  { protocol: "code", first: js(`const hits = nav_search(${JSON.stringify(SEARCH.query)}, ${JSON.stringify(SEARCH.options)})\nprint(hits.matches[0].path)`), answer: (path) => js(`FINAL(${JSON.stringify(`It is defined in ${path}.`)})`) },
  { protocol: "json", first: `I will search.\n${JSON.stringify({ tool: "nav_search", arguments: SEARCH })}`, answer: (path) => `It is defined in ${path}.` },
  { protocol: "tagged", first: `I will search. <nav_search>${JSON.stringify(SEARCH)}</nav_search>`, answer: (path) => `It is defined in ${path}.` },
  { protocol: "native", first: { text: "", toolCalls: [{ id: "call_1", name: "nav_search", arguments: JSON.stringify(SEARCH) }] }, answer: (path) => `It is defined in ${path}.` },
])("$protocol: a nav question answered from a nav_search result", async ({ protocol, first, answer }) => {
  const model = new ScriptedModel([first as ScriptedReply, answerFromResult(answer)]);
  const events: SessionEvent[] = [];
  const result = await runSession({ question: "Where is label defined in Python?", model, repo: REPO, navOptions: { cacheDir: false }, protocol, subcalls: false, sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });
  expect(result).toMatchObject({ status: "final", answer: "It is defined in py/models.py.", iterations: 2 });
  expect(events.filter((event) => event.type === "tool_call").map((event) => event.type === "tool_call" && event.tool)).toEqual(["nav_search"]);
});
