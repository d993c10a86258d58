/** The inbox API's zod schemas, one file per group of routes. */
export * from './agents.js';
export * from './aggregation.js';
export * from './deliveries.js';
export * from './delivery.js';
export * from './entries.js';
export * from './follow.js';
export * from './sources.js';
export * from './streams.js';
export * from './subscriptions.js';
