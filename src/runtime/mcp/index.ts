/**
 * MCP servers as tools (docs/tools.md#mcp-servers): the service the composition root builds (a
 * tool source for the run loop, a lifecycle, the routes' and CLI's reads), and the shapes of its views.
 */
export { assigned, McpService, type McpDeps } from './mcp-service.js';
export { backoffDelay, BACKOFF_BASE_MS, BACKOFF_MAX_MS } from './server-connection.js';
export { MAX_DESCRIPTION_CHARS, MAX_SCHEMA_BYTES, MAX_TOOLS_PER_SERVER, objectSchema, resultText } from './tool-adapter.js';
export { MCP_STATES, type McpAgentServer, type McpServerView, type McpState, type McpToolView } from './types.js';
