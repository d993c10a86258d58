/** Durable agent timers (CONTRACT.md section 8). */
import type { ResourceService, RuntimeDeps } from './deps.js';

export class TimerService implements ResourceService {
  constructor(private readonly deps: RuntimeDeps) {}

  /** The agent's entries for GET /api/agents/:id/state. */
  stateFor(agentId: string): unknown[] {
    void this.deps;
    void agentId;
    return [];
  }
}
