/** The inbox API's routes, served on the Unix socket and again under /api/inbox (surfaces.ts mounts them). */
export * from './agents.js';
export * from './aggregation.js';
export * from './deliveries.js';
export * from './delivery.js';
export * from './entries.js';
export * from './follow.js';
export * from './meta.js';
export * from './sources.js';
export * from './streams.js';
export * from './subscriptions.js';
