export { createMcpServer, MAX_CONTEXT_FILE_BYTES, MAX_QUERY_ITERATIONS, type McpServerOptions } from "./create-mcp-server.ts";
export { resolveQueryPath, type QueryTarget } from "./resolve-query-path.ts";
