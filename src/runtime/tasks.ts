/** Command tasks as real child processes (CONTRACT.md section 8). */
import type { ResourceService, RuntimeDeps } from './deps.js';
import type { WorkspaceService } from './workspaces.js';

export interface TaskDeps extends RuntimeDeps {
  workspaces: WorkspaceService;
}

export class TaskService implements ResourceService {
  constructor(private readonly deps: TaskDeps) {}

  /** The agent's entries for GET /api/agents/:id/state. */
  stateFor(agentId: string): unknown[] {
    void this.deps;
    void agentId;
    return [];
  }
}
