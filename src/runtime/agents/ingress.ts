/**
 * The ingress routes' shared path into the queue: derive provenance from the admitting surface
 * (core/provenance.ts), then, in one group-committed transaction, check the agent and insert the
 * message with its `message_enqueued` event. Callers are answered after the commit.
 */
import {
  errors,
  checkPublicEnqueue,
  deriveProvenance,
  type DeliverySurface,
  type MessageKind,
  type Priority,
  type Provenance,
  type TrustLevel,
} from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from './agents.js';
import type { Message, MessageBody, MessageQueue } from './queue.js';

export interface PublicEnqueueBody {
  kind?: MessageKind | undefined;
  priority?: 'interject' | 'next' | 'normal' | 'background' | undefined;
  text?: string | undefined;
  json?: Record<string, unknown> | undefined;
  body?: MessageBody | undefined;
  origin?: { kind: string; [k: string]: unknown } | undefined;
  metadata?: Record<string, unknown> | undefined;
  correlation_id?: string | undefined;
  causation_id?: string | undefined;
  [extra: string]: unknown;
}

export interface MessageExtras {
  metadata?: Record<string, unknown> | undefined;
  correlation_id?: string | undefined;
  causation_id?: string | undefined;
}

export interface AgentMessageInput {
  text: string;
  priority?: Exclude<Priority, 'interject'> | undefined;
  /** The trust of the sending turn: the message is trusted no more. */
  taint: TrustLevel;
  /** The message the sending turn answers (the new message's causation_id). */
  causation_id?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Longest text one agent may send another (the size of a delegated instruction). */
export const AGENT_MESSAGE_MAX_CHARS = 262_144;

export interface Admitted {
  ok: true;
  agent_id: string;
  message_id: string;
}

const CLOSED_TO_PRIVATE: ReadonlySet<DeliverySurface> = new Set(['public_enqueue', 'generic_webhook', 'inbox']);

export class Ingress {
  constructor(private readonly deps: { store: Store; agents: AgentService; queue: MessageQueue }) {}

  /**
   * POST /api/enqueue and /api/agents/:id/enqueue
   * (docs/control-plane-api.md#ingress-and-provenance, rules in order).
   */
  publicEnqueue(agentId: string | undefined, req: PublicEnqueueBody): Promise<Admitted> {
    const target = agentId ?? this.deps.agents.defaultAgentId;
    const content = [req.text, req.json, req.body].filter((c) => c !== undefined && c !== '');
    const provenance = checkPublicEnqueue({
      kind: req.kind,
      priority: req.priority,
      origin: req.origin,
      hasContent: content.length > 0,
      raw: req,
    });
    if (content.length > 1) {
      throw errors.invalidRequest([{ path: '', message: 'send exactly one of text, json or body' }]);
    }
    const body: MessageBody =
      req.body ?? (req.json !== undefined ? { type: 'json', value: req.json } : { type: 'text', text: req.text! });
    return this.admit(target, provenance, body, req);
  }

  /** POST /api/webhooks/generic/:agent_id: any JSON becomes a webhook_event; caller fields are payload. */
  genericWebhook(agentId: string, payload: unknown): Promise<Admitted> {
    const provenance = deriveProvenance('generic_webhook', { kind: 'generic_webhook' });
    const value = isObject(payload) ? payload : { payload };
    return this.admit(agentId, provenance, { type: 'json', value }, {});
  }

  /** POST /api/control/agents/:id/prompt: an operator instruction at interject priority. */
  controlPrompt(agentId: string, text: string, extra: { correlation_id?: string | undefined } = {}): Promise<Admitted> {
    const provenance = deriveProvenance('control_prompt', { kind: 'operator', actor_id: 'control' });
    return this.admit(agentId, provenance, { type: 'text', text }, extra);
  }

  /**
   * One agent's message to another (the send_message tool). The provenance is the runtime's:
   * origin `{kind: "agent", agent_id: <sender>}`, kind `internal_followup`, trust
   * `trusted_integration` lowered by the sending turn's taint, priority next/normal/background,
   * counted against the receiver's external budget (`queue.max_pending`). Refused: a message to
   * itself, and a receiver the sender may not see (a private agent it does not supervise answers
   * agent_not_found, as an unknown one does).
   */
  async agentMessage(fromAgentId: string, toAgentId: string, input: AgentMessageInput): Promise<Admitted> {
    if (toAgentId === fromAgentId) throw errors.messageToSelf(fromAgentId);
    if (input.text.trim() === '') throw errors.emptyMessage();
    if (input.text.length > AGENT_MESSAGE_MAX_CHARS) {
      throw errors.invalidRequest([{ path: 'text', message: `at most ${AGENT_MESSAGE_MAX_CHARS} characters` }]);
    }
    const provenance = deriveProvenance('agent_message', { kind: 'agent', agent_id: fromAgentId }, { priority: input.priority ?? 'normal', taint: input.taint });
    const message = await this.deps.store.write(() => {
      this.deps.agents.assertWritable(fromAgentId);
      this.deps.agents.visibleTo(toAgentId, fromAgentId);
      return this.enqueueNow(toAgentId, provenance, { type: 'text', text: input.text }, { metadata: input.metadata, causation_id: input.causation_id });
    });
    return { ok: true, agent_id: toAgentId, message_id: message.message_id };
  }

  /**
   * Enqueue with an already-derived provenance (runtime-internal producers). Inside a transaction.
   * A private agent (a supervised child) takes nothing from anonymous external surfaces (public
   * enqueue, generic webhook, inbox notifications): only its supervisor, the operator, its own
   * timers, tasks and callbacks reach it.
   */
  enqueueNow(agentId: string, provenance: Provenance, body: MessageBody, extra: MessageExtras = {}): Message {
    this.deps.agents.assertWritable(agentId);
    if (CLOSED_TO_PRIVATE.has(provenance.delivery_surface) && this.deps.agents.isPrivate(agentId)) throw errors.agentPrivate(agentId);
    return this.deps.queue.enqueue({
      agentId,
      provenance,
      body,
      metadata: extra.metadata,
      correlationId: extra.correlation_id,
      causationId: extra.causation_id,
    });
  }

  private async admit(agentId: string, provenance: Provenance, body: MessageBody, extra: MessageExtras): Promise<Admitted> {
    // The agent is checked inside the transaction (enqueueNow), where the answer is final.
    const message = await this.deps.store.write(() => this.enqueueNow(agentId, provenance, body, extra));
    return { ok: true, agent_id: agentId, message_id: message.message_id };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
