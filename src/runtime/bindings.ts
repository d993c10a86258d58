/** Operator transport bindings and operator ingress (spec Control plane). */
import type { ResourceService, RuntimeDeps } from './deps.js';

export class BindingService implements ResourceService {
  constructor(private readonly deps: RuntimeDeps) {}

  /** The agent's entries for GET /api/agents/:id/state. */
  stateFor(agentId: string): unknown[] {
    void this.deps;
    void agentId;
    return [];
  }
}
