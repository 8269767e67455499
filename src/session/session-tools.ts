import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { NavTools } from "../nav/index.ts";
import { SUBCALL_FUNCTION_NAMES } from "../subcalls/subcall-functions.ts";
import type { Tool } from "../tools/tool.ts";

/**
 * Every tool of a session by name, nav tools first. Two tools of one name, a tool
 * named like a sub-call function while sub-calls are on, or a `finalAnswerTool` the
 * session does not have reject with `InvalidOptionsError`.
 */
export function sessionTools({ nav, tools, subcalls, finalAnswerTool }: { readonly nav: NavTools | undefined; readonly tools: readonly Tool[]; readonly subcalls: boolean; readonly finalAnswerTool: string | undefined }): Map<string, Tool> {
  const toolMap = new Map<string, Tool>();
  for (const tool of [...(nav?.tools ?? []), ...tools]) {
    if (toolMap.has(tool.name)) throw new InvalidOptionsError({ option: "tools", message: `runSession: two tools are named '${tool.name}'.` });
    toolMap.set(tool.name, tool);
  }
  if (subcalls) {
    for (const name of SUBCALL_FUNCTION_NAMES) if (toolMap.has(name)) throw new InvalidOptionsError({ option: "tools", message: `runSession: a tool is named '${name}', which sub-calls use; rename the tool or pass subcalls: false.` });
  }
  if (finalAnswerTool !== undefined && !toolMap.has(finalAnswerTool)) {
    throw new InvalidOptionsError({ option: "finalAnswerTool", message: `runSession: finalAnswerTool '${String(finalAnswerTool)}' is not one of the session's tools (${[...toolMap.keys()].join(", ") || "none"}); pass it in tools.` });
  }
  return toolMap;
}
