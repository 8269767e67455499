import { DEFAULT_MAX_OUTPUT_CHARS } from "../../sandbox/index.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { PromptSetup } from "../engine/protocol.ts";
import type { ModelClient } from "../model/model-client.ts";
import { navRepoSummary, type NavTools } from "../nav/index.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { CallTree } from "../subcalls/call-tree.ts";
import { renderSubcallSection } from "../subcalls/subcall-prompt.ts";
import type { Tool } from "../tools/tool.ts";

/** What a session's protocol is told to write its system prompt: the tools, the input, and the nav and sub-call sections rendered. */
export async function promptSetup({ tools, navToolNames, contextDescription, context, nav, subcalls, subModel, tree, depth, maxOutputChars, template, finalAnswerTool }: {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly navToolNames: ReadonlySet<string>;
  readonly contextDescription: string;
  readonly context: JsonValue | undefined;
  readonly nav: NavTools | undefined;
  readonly subcalls: boolean;
  readonly subModel: ModelClient;
  readonly tree: CallTree;
  readonly depth: number;
  readonly maxOutputChars: number | undefined;
  readonly template: string | undefined;
  readonly finalAnswerTool: string | undefined;
}): Promise<PromptSetup> {
  const navSection = nav ? renderPrompt(loadPrompt("nav-tools"), { repo_summary: navRepoSummary(await nav.info()) }) : "";
  const subcallSection = subcalls
    ? renderSubcallSection({ subModel: subModel.modelId, ...(subModel.contextWindow !== undefined ? { contextWindow: subModel.contextWindow } : {}), concurrency: tree.limiter.limit, depth, maxDepth: tree.tracker.maxDepth, input: context !== undefined ? "context" : nav ? "repo" : "none", hasTools: tools.size > 0 })
    : "";
  return {
    tools: [...tools.values()],
    navToolNames,
    contextDescription,
    hasContext: context !== undefined,
    hasRepo: nav !== undefined,
    sections: [navSection, subcallSection].filter(Boolean).join("\n"),
    maxOutputChars: maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
    ...(template !== undefined ? { template } : {}),
    ...(finalAnswerTool !== undefined ? { finalAnswerTool } : {}),
  };
}
