/**
 * The runtime's shared parts: what every resource service is built from (deps.ts) and the
 * background jobs (jobs.ts). Each folder below has its own index.ts; code outside the runtime
 * imports that folder's index, never a file inside it.
 */
export type { Lifecycle, ResourceService, RuntimeDeps } from './deps.js';
export { JobStore, jobView } from './jobs.js';
