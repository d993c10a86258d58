/**
 * Read projections of agents for the API and the Holon web GUI: list entry, summary, detail,
 * tree and state page, facets and posture, observer-sync reads, runtime identity.
 */
export { deletionIdentity } from './agent-facets.js';
export { agentDetail, agentListEntry, agentState, agentSummary, agentTree, sandboxView, type TreeNode } from './agent-views.js';
export { BATCH_GET_MAX_IDS, ObserverReads } from './observer-reads.js';
export { loadRuntimeIdentity, type RuntimeIdentity } from './runtime-identity.js';
