/**
 * A protocol for tests of the turn engine: the model writes `CALL name {json}` on a
 * line of its own to call a tool; a reply without a call is the answer (unless the
 * session has a `finalAnswerTool`, then it is nudged). Results come back as one user
 * message with a `Tool Result (name):` line per call. Built on the public API only,
 * as a user's own protocol would be.
 */
import { splitReasoning, type Action, type ActionOutcome, type Protocol } from "../../src/index.ts";

const CALL = /^CALL ([A-Za-z_][\w]*) (.*)$/;

/** Makes the `CALL name {json}` test protocol. */
export function callLineProtocol(): Protocol {
  return {
    name: "call-line",
    systemPrompt: (setup) =>
      [
        "Call a tool by writing `CALL name {json arguments}` on a line of its own.",
        ...setup.tools.map((tool) => `- ${tool.name}: ${tool.description} Arguments: ${JSON.stringify(tool.parameters)}`),
        setup.sections,
      ].join("\n"),
    readReply: ({ response, keepReasoning, toolNames, finalAnswerTool }) => {
      const split = splitReasoning(response.text);
      const reasoning = [response.reasoning, split.reasoning].filter(Boolean).join("\n\n") || undefined;
      const actions: Action[] = [];
      const words: string[] = [];
      for (const line of split.text.split("\n")) {
        const match = CALL.exec(line.trim());
        if (!match || !toolNames.has(match[1]!)) {
          words.push(line);
          continue;
        }
        const [, name, raw] = match as unknown as [string, string, string];
        const base = { index: actions.length, id: `call_${actions.length}`, raw: line.trim() };
        try {
          actions.push({ kind: "tool_call", ...base, name, arguments: JSON.parse(raw) });
        } catch (error) {
          actions.push({ kind: "invalid_tool_call", ...base, name, error: `the arguments of ${name} are not JSON: ${(error as Error).message}` });
        }
      }
      const text = words.join("\n").trim();
      const history = { role: "assistant" as const, content: keepReasoning && reasoning ? `<think>${reasoning}</think>\n${split.text}` : split.text };
      const base = { ...(reasoning ? { reasoning } : {}), words: text, actions, history, notes: [] };
      if (actions.length > 0) return base;
      if (finalAnswerTool === undefined) return { ...base, withoutActions: { answer: text } };
      const nudge = { kind: "no-call", found: "it called no tool", text: `Call a tool; answer with CALL ${finalAnswerTool} {...}.` };
      return { ...base, withoutActions: { text: nudge.text, why: "no call", nudge } };
    },
    renderResults: (outcomes: readonly ActionOutcome[], notes: readonly string[]) => [
      {
        role: "user",
        content: [
          ...outcomes.map((outcome) => {
            if ("report" in outcome) return `Block ${outcome.report.index + 1}: ${outcome.report.result?.output ?? outcome.report.toolError ?? "not run"}`;
            const name = outcome.action.name ?? "unknown";
            return outcome.ok ? `Tool Result (${name}): ${JSON.stringify(outcome.value)}` : `Tool Error (${name}): ${outcome.error}`;
          }),
          ...notes,
        ].join("\n"),
      },
    ],
  };
}
