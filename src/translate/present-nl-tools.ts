import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { Tool } from "../tools/tool.ts";
import { nlTool, type TranslationRequest } from "./nl-tool.ts";
import type { TranslateResult } from "./translate-tool-call.ts";

/**
 * The tools a session shows, with the ones offered by description replaced by
 * {@link nlTool}: every tool when `nlTools` is `true`, the tools it names when it is
 * an array, and otherwise (unless it is `false`) the caller's tools defined with
 * `nl`. A name no tool has is an `InvalidOptionsError`.
 */
export function presentNlTools(tools: readonly Tool[], { nlTools, translate, optIn = new Set(), strict = true }: { readonly nlTools: boolean | readonly string[] | undefined; /** Refuse names no tool has (the root session; a child, which inherits the option, may lack some). */ readonly strict?: boolean; readonly translate: (request: TranslationRequest) => Promise<TranslateResult>; /** Tools that carry translator examples but are offered by description only when `nlTools` asks (the built-in ones). */ readonly optIn?: ReadonlySet<string> }): Tool[] {
  const named = new Set(Array.isArray(nlTools) ? nlTools : []);
  if (nlTools !== undefined && typeof nlTools !== "boolean" && !Array.isArray(nlTools)) {
    throw new InvalidOptionsError({ option: "nlTools", message: "runSession: nlTools must be true, false or an array of tool names." });
  }
  if (Array.isArray(nlTools) && strict) {
    const known = new Set(tools.map((tool) => tool.name));
    for (const name of named) {
      if (!known.has(name)) throw new InvalidOptionsError({ option: "nlTools", message: `runSession: nlTools names '${name}', which is not one of the session's tools (${[...known].join(", ") || "none"}).` });
    }
  }
  return tools.map((tool) => ((nlTools === true && (!optIn.has(tool.name) || tool.nl !== undefined)) || named.has(tool.name) || (nlTools !== false && !optIn.has(tool.name) && tool.nl !== undefined && tool.nl !== false) ? nlTool(tool, { translate }) : tool));
}
