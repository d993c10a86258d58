/** The configuration: schema and defaults, loading with precedence, the runtime config surface. */
export * from './context.js';
export * from './load.js';
export * from './mcp.js';
export * from './policy.js';
export * from './runtime-config.js';
export * from './schema.js';
export * from './tools.js';
