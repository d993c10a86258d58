/** The rules and primitives every folder shares (see README.md). */
export * from './bounded-body.js';
export * from './clock.js';
export * from './error-text.js';
export * from './errors.js';
export * from './event-stream.js';
export * from './failure.js';
export * from './ids.js';
export * from './json-guard.js';
export * from './log-limiter.js';
export * from './origins.js';
export * from './peer-user.js';
export * from './private-file.js';
export * from './provenance.js';
export * from './redact.js';
export * from './serial.js';
export * from './tool-policy.js';
