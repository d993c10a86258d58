/** Logs, metrics, traces with their OTLP export, and the stored diagnostics of failed turns. */
export * from './diagnostics.js';
export * from './logger.js';
export * from './metrics.js';
export * from './otlp.js';
export * from './tracing.js';
