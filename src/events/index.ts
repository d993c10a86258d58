/** The per-agent event log, its live fan-out and SSE delivery, its retention, and the wire vocabulary. */
export * from './broadcaster.js';
export * from './event-log.js';
export * from './retention.js';
export * from './sse.js';
export * from './wire/index.js';
