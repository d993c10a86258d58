/**
 * Agent registration as AgentInbox's clients do it, and the agent views those clients read.
 *
 * - With a webhook (`agentinbox agent register --agent-id ID --webhook-url URL`): an agent with the
 *   caller's id, created when missing, and a webhook target for the URL, created when the agent
 *   has none for exactly that URL. Registering again changes nothing, and never repoints an
 *   existing target.
 * - From inside a terminal (`agentinbox agent register`, and the registration its commands make
 *   for "the current agent"): the terminal (terminal-sessions.ts) is bound to one agent through a
 *   terminal target typing into its tmux pane. Without an agentId the agent is the one the terminal
 *   is bound to, else a new one. Moving a binding (this terminal to another agent, or this agent
 *   to another terminal) is a 409 registration_conflict unless `forceRebind`, which deletes the
 *   old binding. Registering again updates the session fields and resumes an offline target.
 *   A terminal target added by hand (POST /agents/{id}/targets) is the binding of its pane when
 *   it names a pane id of the daemon's server; on any other pane a rebind never touches it.
 *
 * Every registration is one transaction: a refused one changes nothing.
 */
import { errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AggregationPolicy } from '../types.js';
import type { InboxAgent, InboxAgents, InboxRecord } from '../entries/index.js';
import type { DeliveryPause } from './pause.js';
import type { TargetService } from './targets.js';
import type { AgentRecord, AgentViews } from './agent-views.js';
import type { ActivationMode, CreatedTarget, Target } from './types.js';
import { findTerminal, isSessionBound, type TerminalRegistration } from './terminal-sessions.js';

export interface RegisterInput {
  /** Absent: a generated `agt_` id (a terminal registration: the agent the terminal is bound to, if any). */
  agentId?: string | undefined;
  name?: string | null | undefined;
  webhookUrl?: string | undefined;
  /** The webhook target's activation mode, when it is created now. */
  activationMode?: ActivationMode | undefined;
  terminal?: TerminalRegistration | undefined;
  forceRebind?: boolean | undefined;
  /** A new agent's aggregation policy, normalized (aggregation.ts); an existing agent keeps its own. */
  aggregation?: AggregationPolicy | null | undefined;
}

export interface Registered {
  agent: InboxAgent;
  /** The agent was new. */
  created: boolean;
  /** The webhook target for `webhookUrl` (with its secret when it was created now). */
  webhookTarget: CreatedTarget | null;
  /** The terminal target bound to the registering terminal. */
  terminalTarget: Target | null;
}

export interface RegistrationDeps {
  store: Store;
  agents: InboxAgents;
  targets: TargetService;
  /** Resumes an offline terminal target that registers again. */
  delivery: DeliveryPause;
  views: AgentViews;
}

export class AgentRegistration {
  constructor(private readonly deps: RegistrationDeps) {}

  async register(input: RegisterInput): Promise<Registered> {
    const r = this.deps.store.tx(() => (input.terminal ? this.bindTerminal(input, input.terminal) : this.registerAgent(input)));
    const t = r.terminalTarget;
    if (t?.status === 'offline') {
      await this.deps.delivery.resumeTarget(t.agentId, t.targetId);
      r.terminalTarget = this.deps.targets.get(t.agentId, t.targetId);
    }
    return r;
  }

  /** AgentInbox's answer to a registration (its RegisterAgentResult), beside svc's agent fields. */
  answer(r: Registered): AgentRecord & {
    agent: AgentRecord;
    webhookTarget: CreatedTarget | null;
    terminalTarget: Target | null;
    activationChannel: 'webhook' | 'terminal' | null;
    inbox: InboxRecord;
  } {
    const { views } = this.deps;
    const activationChannel = r.webhookTarget ? 'webhook' : r.terminalTarget ? 'terminal' : null;
    const agent = views.record(r.agent);
    return { ...agent, agent, webhookTarget: r.webhookTarget, terminalTarget: r.terminalTarget, activationChannel, inbox: views.inbox(r.agent) };
  }

  private ensureAgent(input: RegisterInput, agentId = input.agentId): { agent: InboxAgent; created: boolean } {
    const fields = { name: input.name, aggregation: input.aggregation };
    return agentId === undefined ? { agent: this.deps.agents.create(fields), created: true } : this.deps.agents.ensure(agentId, fields);
  }

  private registerAgent(input: RegisterInput): Registered {
    const { agent, created } = this.ensureAgent(input);
    const webhookTarget = input.webhookUrl === undefined ? null : this.deps.targets.ensureWebhook(agent.agentId, input.webhookUrl, input.activationMode).target;
    return { agent, created, webhookTarget, terminalTarget: null };
  }

  private bindTerminal(input: RegisterInput, reg: TerminalRegistration): Registered {
    const { targets } = this.deps;
    const terminals = targets.terminals();
    let bound = findTerminal(terminals, reg);
    const { agent, created } = this.ensureAgent(input, input.agentId ?? bound?.agentId);
    const agentId = agent.agentId;
    if (bound && bound.agentId !== agentId) {
      if (!input.forceRebind) {
        throw errors.registrationConflict(`this terminal (tmux pane ${reg.tmuxPaneId}) is bound to agent ${bound.agentId}`, { agentId, targetId: bound.targetId, boundAgentId: bound.agentId });
      }
      targets.delete(bound.agentId, bound.targetId);
      bound = undefined;
    }
    const others = terminals.filter((t) => t.agentId === agentId && isSessionBound(t) && t.targetId !== bound?.targetId);
    if (others.length > 0 && !input.forceRebind) {
      const other = others[0]!;
      throw errors.registrationConflict(`agent ${agentId} is bound to another terminal (tmux pane ${other.tmuxPaneId})`, { agentId, targetId: other.targetId, boundAgentId: agentId });
    }
    for (const t of others) targets.delete(agentId, t.targetId);
    const terminalTarget = bound
      ? targets.rebindTerminal(bound.targetId, reg)
      : targets.create(agentId, { kind: 'terminal', tmuxTarget: reg.tmuxPaneId, session: reg.session });
    return { agent, created, webhookTarget: null, terminalTarget };
  }
}
