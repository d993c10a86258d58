/**
 * Agent registration as AgentInbox's clients do it (`agentinbox agent register --agent-id ID
 * --webhook-url URL`): an agent with the caller's id, created when missing, and a webhook target
 * for the URL, created when the agent has none for exactly that URL. Registering again changes
 * nothing, and never repoints an existing target. Also the view of an agent with its targets
 * that those clients list (`GET /agents?include_targets=true`).
 */
import type { Store } from '../store/store.js';
import type { InboxAgent, InboxAgents } from './agents.js';
import type { CreatedTarget, Target, TargetService } from './targets.js';

export interface RegisterInput {
  /** Absent: a generated `agt_` id. */
  agentId?: string | undefined;
  name?: string | null | undefined;
  webhookUrl?: string | undefined;
}

export interface Registered {
  agent: InboxAgent;
  /** The agent was new. */
  created: boolean;
  /** The webhook target for `webhookUrl` (with its secret when it was created now). */
  webhookTarget: CreatedTarget | null;
}

/**
 * AgentInbox's agent record as its clients read it: svc's fields plus `status`. svc's inbox agents
 * have no offline state (the delivery pause is `deliveryPaused`; offline is per target), so an
 * existing agent is always `active`.
 */
export type AgentRecord = InboxAgent & { status: 'active' };

export interface AgentWithTargets {
  agent: AgentRecord;
  activationTargets: Target[];
}

export class AgentRegistration {
  constructor(private readonly deps: { store: Store; agents: InboxAgents; targets: TargetService }) {}

  register(input: RegisterInput): Registered {
    return this.deps.store.tx(() => {
      const { agent, created } =
        input.agentId === undefined ? { agent: this.deps.agents.create({ name: input.name }), created: true } : this.deps.agents.ensure(input.agentId, { name: input.name });
      const webhookTarget = input.webhookUrl === undefined ? null : this.deps.targets.ensureWebhook(agent.agentId, input.webhookUrl).target;
      return { agent, created, webhookTarget };
    });
  }

  /** AgentInbox's answer to a registration (its RegisterAgentResult), beside svc's agent fields. */
  answer(r: Registered): InboxAgent & { agent: AgentRecord; webhookTarget: CreatedTarget | null; terminalTarget: null; activationChannel: 'webhook' | null } {
    return { ...r.agent, agent: this.record(r.agent), webhookTarget: r.webhookTarget, terminalTarget: null, activationChannel: r.webhookTarget ? 'webhook' : null };
  }

  record(agent: InboxAgent): AgentRecord {
    return { ...agent, status: 'active' };
  }

  withTargets(agent: InboxAgent): AgentWithTargets {
    return { agent: this.record(agent), activationTargets: this.deps.targets.list(agent.agentId) };
  }
}
