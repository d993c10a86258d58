/** Agent workspaces, file references, desktop integration (spec Workspace and desktop). */
import type { ResourceService, RuntimeDeps } from './deps.js';

export class WorkspaceService implements ResourceService {
  constructor(private readonly deps: RuntimeDeps) {}

  /** The agent's entries for GET /api/agents/:id/state. */
  stateFor(agentId: string): unknown[] {
    void this.deps;
    void agentId;
    return [];
  }
}
