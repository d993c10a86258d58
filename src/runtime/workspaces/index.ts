/**
 * Agent workspaces and what lives in them: file references and their guards, git worktrees,
 * plan artifacts.
 */
export { AGENT_HOME_ID, isWithin, MAX_REFERENCES, type ConnectionFacts, type ExecutionRoot } from './file-references.js';
export {
  PLAN_MAX_BYTES,
  PLAN_PREVIEW_BYTES,
  PLAN_TEXT_MAX_BYTES,
  PlanRefresher,
  capturePlan,
  capturedArtifact,
  parseStoredPlan,
  writePlanText,
  type PlanArtifact,
  type PlanLocation,
  type PlanRoots,
  type StoredPlan,
} from './plan-artifacts.js';
export { WorkspaceService, type WorkspaceEntry } from './workspaces.js';
export { git } from './worktrees.js';
