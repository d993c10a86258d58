/** The commands over the control plane's API: agents and everything they own, the runtime, events and the tui. */
export * from './agents.js';
export * from './approvals.js';
export * from './credentials.js';
export * from './events.js';
export * from './mcp.js';
export * from './messages.js';
export * from './models.js';
export * from './run.js';
export * from './runtime.js';
export * from './skills.js';
export * from './tasks.js';
export * from './timers.js';
export * from './triggers.js';
export * from './tui.js';
export * from './tui-render.js';
export * from './work.js';
export * from './workspaces.js';
