import { readFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ModelClient } from "../model/model-client.ts";
import type { NavTools } from "../nav/index.ts";
import { runSession } from "../session/run-session.ts";
import { defineTool } from "../tools/define-tool.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { Tool } from "../tools/tool.ts";
import { checkToolArguments } from "../tools/tool-arguments.ts";
import { resolveQueryPath } from "./resolve-query-path.ts";
import { DEFAULT_MAX_ITERATIONS } from "../session/session-defaults.ts";
import { displayValue } from "../util/display-value.ts";
import type { SandboxBackend } from "../../sandbox/sandbox.ts";
import type { ProtocolName } from "../protocols/resolve-protocol.ts";

/** Files larger than this are refused as `rlm_query` context: 50 MB. */
export const MAX_CONTEXT_FILE_BYTES = 50 * 1024 * 1024;
/** Highest `maxIterations` a client may ask for. */
export const MAX_QUERY_ITERATIONS = 100;

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The repository the nav tools read and `path` arguments are resolved in. */
  readonly repo: string;
  /**
   * Opens a directory for navigation, e.g. with `createNavTools` (called lazily, once per directory; kept open).
   * A folder of the repository (an `rlm_query` `path`) comes with `repositoryRoot`, the repository's root: pass
   * it on to `createNavTools`, so that the `.gitignore` files above the folder apply too.
   */
  readonly openRepository: (directory: string, options: { readonly repositoryRoot?: string }) => Promise<NavTools>;
  /** Builds the model for `rlm_query`; may throw (e.g. no model configured), which becomes a tool error. */
  readonly createModel: () => ModelClient;
  /** Builds the sub-call model, when one is configured. */
  readonly createSubModel?: () => ModelClient;
  /** Defaults for `rlm_query` limits (and where its code runs: `sandbox`, and how the model calls tools: `protocol`; the session defaults when absent); a client's own values win. */
  readonly defaults?: { readonly maxIterations?: number; readonly timeoutMs?: number; readonly budgetUsd?: number; readonly maxModelCalls?: number; readonly maxTokens?: number; readonly sandbox?: SandboxBackend; readonly protocol?: ProtocolName };
  /** Server name and version reported to clients. */
  readonly version?: string;
}

/** Arguments of the `rlm_query` tool. */
interface QueryArguments {
  question: string;
  path?: string;
  context?: string;
  maxIterations?: number;
  timeoutMs?: number;
  budgetUsd?: number;
}

/**
 * Creates an MCP server (official SDK, low-level `Server`) exposing `rlm_query`
 * and the six nav tools with their JSON Schemas. Arguments are validated before
 * any work; a bad argument, a failing tool or a session without an answer comes
 * back as a tool result with `isError: true`, an unknown tool as an
 * `InvalidParams` protocol error. Nothing a client sends can stop the server.
 *
 * @example
 * const server = createMcpServer({ repo, openRepository: (dir, options) => createNavTools(dir, options), createModel: () => new OpenAICompatibleModel() });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer({ repo, openRepository, createModel, createSubModel, defaults = {}, version = "0.0.0" }: McpServerOptions): Server {
  const navCache = new Map<string, Promise<NavTools>>();
  const openNav = (directory: string): Promise<NavTools> => {
    let nav = navCache.get(directory);
    if (!nav) {
      // A folder of the repository is read under the repository's ignore files too.
      nav = openRepository(directory, directory === repo ? {} : { repositoryRoot: repo });
      nav.catch(() => navCache.delete(directory));
      navCache.set(directory, nav);
    }
    return nav;
  };
  const navTools = async (directory: string): Promise<readonly Tool[]> => (await openNav(directory)).tools;

  const query = defineTool<Record<string, unknown>>({
    name: "rlm_query",
    description:
      "Answers a question about the repository (or a file or folder in it, or an inline text) by letting a model write JavaScript that navigates and reads the code in a sandbox. Slower than a single read, but it can work through far more text than fits in a prompt.",
    parameters: {
      type: "object",
      properties: {
        question: { type: "string", minLength: 1, description: "what to answer" },
        path: { type: "string", minLength: 1, description: "a file (its text becomes `context`) or a folder (the nav tools are rooted there) inside the repository" },
        context: { type: "string", description: "inline text exposed to the model as `context` (instead of a file)" },
        maxIterations: { type: "integer", minimum: 1, maximum: MAX_QUERY_ITERATIONS, description: "model turns before giving up (default 20)" },
        timeoutMs: { type: "integer", minimum: 1000, description: "wall-clock limit for the session" },
        budgetUsd: { type: "number", exclusiveMinimum: 0, description: "spending cap in US dollars for the whole call tree" },
      },
      required: ["question"],
      additionalProperties: false,
    },
    handler: async () => null,
  });

  const server = new Server({ name: "rlmkit", version }, { capabilities: { tools: {} }, instructions: "rlm_query answers questions about large inputs and repositories; the nav_* tools read the repository directly." });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = [query, ...(await navTools(repo))];
    return { tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters as { type: "object"; [key: string]: unknown } })) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tools = name === "rlm_query" ? [query] : await navTools(repo).catch((error: unknown) => {
      throw new McpError(ErrorCode.InternalError, `the navigation tools could not start: ${(error as Error).message}`);
    });
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${name}'; the tools are rlm_query, ${(await navTools(repo).catch(() => [] as Tool[])).map((candidate) => candidate.name).join(", ")}`);
    const properties = Object.keys(tool.parameters.properties);
    const unknown = Object.keys(args).filter((key) => !properties.includes(key));
    if (unknown.length > 0) return toolError(`${name}: unknown argument${unknown.length === 1 ? "" : "s"} ${unknown.map((key) => `'${key}'`).join(", ")}; expected ${properties.join(", ")}`);
    const checked = checkToolArguments(tool, properties.map((key) => args[key]));
    if (!checked.ok) return toolError(checked.message);
    try {
      if (name === "rlm_query") return await runQuery(checked.args as unknown as QueryArguments, extra.signal, async (progress, message) => {
        const token = request.params._meta?.progressToken;
        if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message } }).catch(() => {});
      });
      const result = await tool.handler(checked.args, { sessionId: "mcp", signal: extra.signal });
      if (typeof result === "object" && result !== null && !Array.isArray(result) && typeof result.error === "string") return toolError(JSON.stringify(result, null, 2));
      return { content: [{ type: "text", text: displayValue(result) }] };
    } catch (error) {
      return toolError(`${name} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  });

  async function runQuery(args: QueryArguments, signal: AbortSignal, report: (progress: number, message: string) => Promise<void>): Promise<CallToolResult> {
    if (args.path !== undefined && args.context !== undefined) return toolError("rlm_query: give either path or context, not both");
    let directory = repo;
    let context: string | undefined = args.context;
    if (args.path !== undefined) {
      const target = resolveQueryPath(repo, args.path);
      // The same rule as the nav tools': no .git/, no ignored files, no secrets.
      const { readRule } = await openNav(repo);
      const refusal = readRule.refusal(relative(readRule.root, target.absolute).split(sep).join("/"));
      if (refusal) return toolError(`rlm_query: ${refusal.message}`);
      if (target.kind === "directory") directory = target.absolute;
      else {
        const text = readFileSync(target.absolute);
        if (text.length > MAX_CONTEXT_FILE_BYTES) return toolError(`rlm_query: ${args.path} is ${text.length} bytes; the limit for a context file is ${MAX_CONTEXT_FILE_BYTES}`);
        context = text.toString("utf8");
      }
    }
    const model = createModel();
    const nav = await openNav(directory);
    const budgetUsd = args.budgetUsd ?? defaults.budgetUsd;
    const timeoutMs = args.timeoutMs ?? defaults.timeoutMs;
    let steps = 0;
    const result = await runSession({
      question: args.question,
      model,
      repo: nav,
      maxIterations: args.maxIterations ?? defaults.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      ...(defaults.sandbox !== undefined ? { sandbox: { backend: defaults.sandbox } } : {}),
      ...(defaults.protocol !== undefined ? { protocol: defaults.protocol } : {}),
      signal,
      ...(context !== undefined ? { context } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(createSubModel ? { subModel: createSubModel() } : {}),
      budget: { ...(defaults.maxModelCalls !== undefined ? { maxModelCalls: defaults.maxModelCalls } : {}), ...(budgetUsd !== undefined ? { maxCostUsd: budgetUsd } : {}) },
      ...(defaults.maxTokens !== undefined ? { maxTokens: defaults.maxTokens } : {}),
      onEvent: (event) => {
        if (event.type === "model_call" && event.depth === 0) void report(++steps, `turn ${event.iteration}`);
      },
    });
    const details = { status: result.status, iterations: result.iterations, usage: result.usage, sessionId: result.sessionId, durationMs: Math.round(result.durationMs) };
    if (result.status !== "final") return { ...toolError(`rlm_query: no answer (${result.status}): ${result.error ?? "the session stopped"}`), structuredContent: details };
    const answer = result.answer as JsonValue;
    return { content: [{ type: "text", text: displayValue(answer) }], structuredContent: { ...details, answer } };
  }

  return server;
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
