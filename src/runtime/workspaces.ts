/** Agent workspaces, file references, desktop integration (spec Workspace and desktop). */
import type { ResourceService, RuntimeDeps } from './deps.js';

export class WorkspaceService implements ResourceService {
  constructor(private readonly deps: RuntimeDeps) {}

  /** Absolute path of the agent's active workspace (default workdir of its command tasks). */
  activePath(agentId: string): string {
    return this.deps.agents.homeOf(agentId);
  }

  /** The agent's entries for GET /api/agents/:id/state. */
  stateFor(agentId: string): unknown[] {
    void this.deps;
    void agentId;
    return [];
  }
}
