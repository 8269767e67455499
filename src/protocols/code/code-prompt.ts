import type { PromptSetup } from "../../engine/protocol.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";
import type { Tool } from "../../tools/tool.ts";
import { toolSignature } from "../../tools/tool-arguments.ts";

/**
 * The `code` protocol's system prompt: `prompts/system.md` (or the caller's
 * template) with the extra tools listed as JavaScript signatures
 * (`prompts/tools.md`, one `prompts/code-tool-line.md` each), the nav and
 * sub-call sections, and the worked example that fits the input.
 */
export function renderCodeSystemPrompt(setup: PromptSetup): string {
  const tools = setup.tools.filter((tool) => !setup.navToolNames.has(tool.name));
  return renderPrompt(setup.template ?? loadPrompt("system"), {
    max_output_chars: setup.maxOutputChars.toLocaleString("en-US"),
    context_description: setup.contextDescription,
    tools_section: tools.length === 0 ? "" : renderToolsSection(tools),
    extra_sections: setup.sections,
    // The worked example fits the input: a context to look at, a repository to navigate, or neither.
    example: loadPrompt(setup.hasContext ? "example-context" : setup.hasRepo ? "example-repo" : "example-plain").trimEnd(),
  });
}

function renderToolsSection(tools: readonly Tool[]): string {
  return renderPrompt(loadPrompt("tools"), {
    tool_list: tools.map(renderToolLine).join("\n"),
    // The form is shown with a tool this session has: the first one's own example, or its name with literal arguments.
    call_example: tools.find((tool) => tool.example)?.example ?? renderPrompt(loadPrompt("code-call-example"), { name: tools[0]!.name }).trimEnd(),
  });
}

function renderToolLine(tool: Tool): string {
  const line = renderPrompt(loadPrompt("code-tool-line"), { signature: toolSignature(tool), description: tool.description }).trimEnd();
  return tool.example ? `${line}\n${renderPrompt(loadPrompt("code-tool-example"), { example: tool.example }).trimEnd()}` : line;
}
