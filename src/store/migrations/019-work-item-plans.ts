import type { Migration } from './types.js';

/**
 * Work items carry plans and completion intents. The plan artifact needs no new column: since
 * migration 002 `plan_artifact` holds it as JSON (runtime/workspaces/plan-artifacts.ts, StoredPlan:
 * the real path, the workspace, the hash, size, preview and stat signature captured at attach
 * time). `completion` (JSON, runtime/work-items/work-item-records.ts Completion) is the completion
 * intent bound by POST complete or the complete tool: result summary, completed_by (`operator` |
 * `agent`), completed_at, authority class, result brief id and the plan hash. Items completed
 * before this migration keep NULL: who completed them was never recorded.
 */
export const workItemPlans: Migration = {
  version: 19,
  name: 'work-item-plans',
  up: `
ALTER TABLE work_items ADD COLUMN completion TEXT;
`,
};
