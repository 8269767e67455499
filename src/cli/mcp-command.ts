import type { Command } from "commander";
import type { CliIo } from "./cli-io.ts";
import { EXIT_OK } from "./exit-codes.ts";
import { addModelOptions, configFromOptions } from "./model-options.ts";
import { closeNavTools, openNav } from "./nav-tools.ts";
import { resolveRepository } from "./repository.ts";

/** How long the server may spend closing (cancelling queries, saving index caches) once stdin has closed. */
export const MCP_SHUTDOWN_MS = 500;

/**
 * Registers `rlmkit mcp`: an MCP server on stdio. It serves until the client
 * closes stdin, then cancels queries still running, saves the index caches
 * (for at most {@link MCP_SHUTDOWN_MS}) and finishes with exit code 0; stdout
 * carries only the protocol, diagnostics go to stderr.
 */
export function registerMcpCommand(program: Command, io: CliIo, version: string, done: (code: number) => void): void {
  const command = program
    .command("mcp")
    .description("serve rlm_query and the six nav tools over MCP on stdio")
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
      openRepository: (directory, options) => openNav(directory, config.secretFiles, options.repositoryRoot),
      createModel: () => buildModel(config),
      ...(config.subModel !== undefined ? { createSubModel: () => buildModel(config, "subModel") } : {}),
      defaults: {
        maxIterations: config.maxIterations,
        sandbox: config.sandbox,
        protocol: config.protocol,
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
        maxModelCalls: config.maxModelCalls,
        ...(config.budgetUsd !== undefined ? { budgetUsd: config.budgetUsd } : {}),
        ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
      },
    });
    const stdinClosed = new Promise<void>((resolve) => {
      io.stdin.once("end", resolve);
      io.stdin.once("close", resolve);
    });
    const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
    await server.connect(transport);
    io.stderr.write(`rlmkit mcp: serving ${repo} on stdio\n`);
    await stdinClosed;
    // Closing the server aborts the queries still running; then the index caches are saved.
    const shutdown = server.close().then(closeNavTools);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([shutdown.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, MCP_SHUTDOWN_MS)))]);
    clearTimeout(timer);
    done(EXIT_OK);
  });
}
