import type { Command } from "commander";
import type { CliIo } from "./cli-io.ts";
import { addModelOptions, configFromOptions } from "./model-options.ts";
import { openNav } from "./nav-tools.ts";
import { resolveRepository } from "./repository.ts";

/**
 * Registers `rlmkit mcp`: an MCP server on stdio. It keeps running until the
 * client closes stdin; stdout carries only the protocol, diagnostics go to stderr.
 */
export function registerMcpCommand(program: Command, io: CliIo, version: string): void {
  const command = program
    .command("mcp")
    .description("serve rlm_query and the five nav tools over MCP on stdio")
    .option("--repo <dir>", "repository the tools read", ".");
  addModelOptions(command);
  command.action(async (options: Record<string, unknown>) => {
    const repo = resolveRepository(String(options.repo), io.cwd);
    const { values: config } = configFromOptions(options, io, repo);
    process.on("uncaughtException", (error) => io.stderr.write(`rlmkit mcp: unexpected error (still serving): ${error?.message ?? error}\n`));
    process.on("unhandledRejection", (error) => io.stderr.write(`rlmkit mcp: unexpected rejection (still serving): ${(error as Error)?.message ?? error}\n`));
    // The MCP SDK, the session and the model client load only when the server starts.
    const [{ StdioServerTransport }, { createMcpServer }, { buildModel }] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/stdio.js"),
      import("../mcp/create-mcp-server.ts"),
      import("./build-model.ts"),
    ]);
    const server = createMcpServer({
      repo,
      version,
      openRepository: openNav,
      createModel: () => buildModel(config),
      ...(config.subModel !== undefined ? { createSubModel: () => buildModel(config, "subModel") } : {}),
      defaults: {
        maxIterations: config.maxIterations,
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
        ...(config.budgetUsd !== undefined ? { budgetUsd: config.budgetUsd } : {}),
      },
    });
    const transport = new StdioServerTransport();
    await server.connect(transport);
    io.stderr.write(`rlmkit mcp: serving ${repo} on stdio\n`);
  });
}
