/** What an event is on the wire: its envelope, the kinds svc emits with their levels, and Holon's kinds. */
export type { EventEnvelope } from './envelope.js';
export * from './holon-kinds.js';
export * from './levels.js';
