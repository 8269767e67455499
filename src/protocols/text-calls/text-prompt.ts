import type { PromptSetup } from "../../engine/protocol.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";
import type { Tool } from "../../tools/tool.ts";
import { answerRule } from "../native/native-prompt.ts";
import { describeParameters } from "./describe-parameters.ts";
import { exampleArguments } from "./example-arguments.ts";

/** How one protocol writes a tool's contract and its example call. */
export interface TextPromptStyle {
  /** The frame, `prompts/<name>.md`. */
  readonly system: string;
  /** One tool's contract, `prompts/<name>.md`, with the slots `name`, `description`, `parameters`, `arguments` and `call`. */
  readonly tool: string;
  /** A call of `tool` with `args`, as the model should write it. */
  call(tool: Tool, args: Record<string, unknown>): string;
  /** Further slots of the frame. */
  readonly slots?: Record<string, string>;
}

/**
 * The system prompt of a text-protocol session: the frame (`setup.template` replaces
 * it) with the slots `call_example` (a call of the first tool with a required argument), `tool_list` (every tool's
 * contract, rendered from its JSON Schema), `answer_rule`, `context_description` and
 * `repository` (the nav conventions, when the session has a repository).
 */
export function textSystemPrompt(setup: PromptSetup, style: TextPromptStyle): string {
  const template = loadPrompt(style.tool);
  const contracts = setup.tools.map((tool) => {
    const args = exampleArguments(tool);
    return renderPrompt(template, {
      name: tool.name,
      description: tool.description,
      parameters: describeParameters(tool),
      arguments: JSON.stringify(args, null, 2),
      call: style.call(tool, args),
    }).trimEnd();
  });
  // The frame's example: the first tool that takes a required argument (a call without one shows little).
  const first = setup.tools.find((tool) => (tool.parameters.required ?? []).length > 0) ?? setup.tools[0];
  return renderPrompt(setup.template ?? loadPrompt(style.system), {
    ...style.slots,
    call_example: first ? style.call(first, exampleArguments(first)) : style.call({ name: "tool_name" } as Tool, { argument: "value" }),
    tool_list: contracts.length > 0 ? contracts.join("\n\n") : "(none)",
    answer_rule: answerRule(setup.finalAnswerTool),
    context_description: setup.contextDescription,
    repository: setup.hasRepo ? loadPrompt("native-repository") : "",
  });
}
