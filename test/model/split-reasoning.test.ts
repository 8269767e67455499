import { describe, expect, test } from "vitest";
import { splitReasoning } from "../../src/index.ts";

const block = "```js\nFINAL(2)\n```";

describe("splitReasoning", () => {
  test.each([
    { label: "no tags: the reply is returned unchanged, untrimmed", reply: "  prose\n" + block, text: "  prose\n" + block, reasoning: undefined },
    { label: "a <think> block before the code", reply: `<think>draft FINAL(1)</think>\n${block}`, text: block, reasoning: "draft FINAL(1)" },
    // DeepSeek-R1 and Qwen3 chat templates put <think> in the prompt, so the reply starts inside reasoning.
    { label: "no opening tag: everything up to the first </think> is reasoning", reply: `Okay, maybe \`\`\`js\nFINAL(1)\n\`\`\`\n</think>\n\n${block}`, text: block, reasoning: "Okay, maybe ```js\nFINAL(1)\n```" },
    { label: "an opening tag never closed (a cut reply): the rest is reasoning", reply: `Let me look.\n<think>I could write ${block}`, text: "Let me look.", reasoning: `I could write ${block}` },
    { label: "<thinking> and <reasoning>, any case, several blocks", reply: `<Thinking>a</Thinking>x <REASONING>b</REASONING> y`, text: "x  y", reasoning: "a\n\nb" },
    { label: "tags with spaces before >", reply: "<think >a</think >b", text: "b", reasoning: "a" },
    { label: "an empty think block", reply: `<think>\n\n</think>\n\n${block}`, text: block, reasoning: undefined },
    { label: "only reasoning", reply: "<think>FINAL(1)</think>", text: "", reasoning: "FINAL(1)" },
    { label: "a lone closing tag after a pair stays text", reply: "<think>a</think>b</think>c", text: "b</think>c", reasoning: "a" },
    { label: "a closing tag of another name does not close", reply: "<think>a</thinking>b", text: "", reasoning: "a</thinking>b" },
    { label: "not a tag: <thinker> and <think-aloud>", reply: "<thinker> <think-aloud>", text: "<thinker> <think-aloud>", reasoning: undefined },
    // Code that handles tags as strings is code: a tag inside a fence counts only at the start of a line.
    { label: "a tag in a string inside a js block is code", reply: 'Split it:\n```js\nconst parts = reply.split("</think>");\nprint(parts.length)\n```', text: 'Split it:\n```js\nconst parts = reply.split("</think>");\nprint(parts.length)\n```', reasoning: undefined },
    { label: "an opening tag in a string inside a block is code, after real reasoning", reply: '<think>plan</think>\n```js\nconst open = "<think>";\n```', text: '```js\nconst open = "<think>";\n```', reasoning: "plan" },
    { label: "a draft block left open in reasoning: </think> on its own line still ends it", reply: `Draft:\n\`\`\`js\nFINAL(1)\n</think>\n${block}`, text: block, reasoning: "Draft:\n```js\nFINAL(1)" },
  ])("$label", ({ reply, text, reasoning }) => {
    const split = splitReasoning(reply);
    expect(split.text).toBe(text);
    expect(split.reasoning).toBe(reasoning);
  });
});
