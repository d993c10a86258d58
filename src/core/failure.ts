/**
 * The spec's `failure_artifact` (TaskOutputResult.failure_artifact): what a failed task, model
 * round or delivery left behind. One shape for tasks, failure briefs and turns.
 */
export const FAILURE_CATEGORIES = ['transport', 'protocol', 'runtime', 'task', 'unknown'] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

export interface FailureArtifact {
  category: FailureCategory;
  kind: string;
  summary: string;
  exit_status?: number | null;
  metadata?: Record<string, string>;
  model_ref?: string | null;
  provider?: string | null;
  task_id?: string | null;
  source_chain?: string[];
  status?: number | null;
}
