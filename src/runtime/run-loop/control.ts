/**
 * Run control (spec "Control plane" rows wake, control, current-run/abort, debug-prompt;
 * docs/control-plane-api.md#run-control): every change commits with its event; aborts reach the
 * provider request and tool waits through the turn's AbortSignal, and the answer comes once the
 * turn's end is committed.
 */
import { errors, deriveProvenance, type AuthorityClass } from '../../core/index.js';
import type { AgentStatus, Admitted, Ingress } from '../agents/index.js';
import type { Scheduler } from './scheduler.js';
import type { RunLoopDeps } from './types.js';

export type WakeDisposition = 'woken' | 'coalesced' | 'ignored';
export const ABORT_MODES = ['stop_after_abort', 'pause_after_abort'] as const;

export interface WakeResult {
  ok: true;
  agent_id: string;
  disposition: WakeDisposition;
  message_id?: string;
}

export interface ControlResult {
  ok: true;
  agent_id: string;
  action: 'stop' | 'start';
  previous_status: AgentStatus;
  status: AgentStatus;
  aborted_turn_id: string | null;
}

export interface AbortResult {
  ok: true;
  agent_id: string;
  turn_id: string;
  mode: 'stop_after_abort';
  requested_mode: string;
  status: AgentStatus;
}

export class RunControl {
  constructor(
    private readonly deps: RunLoopDeps & { ingress: Ingress },
    private readonly scheduler: Scheduler,
  ) {}

  /** Compact the agent's history now (scheduler.compact: 409 agent_in_turn during a turn). */
  async compact(agentId: string) {
    this.deps.agents.assertWritable(agentId);
    const compaction = await this.scheduler.compact(agentId);
    return { ok: true as const, agent_id: agentId, compacted: compaction !== null, compaction };
  }

  /** stopped → ignored; running or a wake tick already queued → coalesced; idle → a system_tick is queued (woken). */
  async wake(agentId: string, input: { reason: string; source?: string | undefined }): Promise<WakeResult> {
    const reason = input.reason.trim();
    if (reason === '') throw errors.emptyReason();
    const source = input.source?.trim() || 'control';
    const { store, agents, queue, events, ingress } = this.deps;
    return store.write(() => {
      agents.assertWritable(agentId);
      const status = agents.statusOf(agentId);
      let disposition: WakeDisposition;
      let messageId: string | undefined;
      if (status === 'stopped') disposition = 'ignored';
      else if (status === 'running' || this.scheduler.current(agentId) || queue.hasQueuedFrom(agentId, 'control_wake')) disposition = 'coalesced';
      else {
        const provenance = deriveProvenance('control_wake', { kind: 'system', subsystem: 'wake' }, { kind: 'system_tick' });
        const message = ingress.enqueueNow(agentId, provenance, { type: 'text', text: `Wake requested by ${source}: ${reason}` }, { metadata: { wake: { reason, source } } });
        messageId = message.message_id;
        disposition = 'woken';
      }
      events.append(agentId, 'wake_requested', { reason, source, disposition, message_id: messageId ?? null });
      return messageId ? { ok: true, agent_id: agentId, disposition, message_id: messageId } : { ok: true, agent_id: agentId, disposition };
    });
  }

  /** `stop`: status stopped, the current run aborted; `start`: back to idle and look for work. */
  async control(agentId: string, input: { action: string; authority_class?: AuthorityClass | null | undefined }): Promise<ControlResult> {
    const { store, agents, events } = this.deps;
    const action = input.action;
    if (action !== 'stop' && action !== 'start') {
      agents.assertWritable(agentId);
      throw errors.unknownAction(action);
    }
    const { prev: previous, turn } = await store.write(() => {
      agents.assertWritable(agentId);
      const prev = agents.statusOf(agentId)!;
      const turn = this.scheduler.current(agentId);
      const next: AgentStatus = action === 'stop' ? 'stopped' : prev === 'stopped' ? 'idle' : prev;
      if (next !== prev) agents.setStatus(agentId, next);
      events.append(agentId, 'control_applied', {
        action,
        authority_class: input.authority_class ?? null,
        previous_status: prev,
        status: next,
        turn_id: action === 'stop' ? (turn?.turnId ?? null) : null,
      });
      return { prev, turn };
    });
    if (action === 'stop' && turn) await this.scheduler.abortTurn(turn, 'control_stop', 'stop');
    if (action === 'start') this.scheduler.kickAgent(agentId);
    return {
      ok: true,
      agent_id: agentId,
      action,
      previous_status: previous,
      status: agents.statusOf(agentId) ?? 'stopped',
      aborted_turn_id: action === 'stop' ? (turn?.turnId ?? null) : null,
    };
  }

  /** Abort the current run; `pause_after_abort` is an alias of `stop_after_abort`. The agent ends `stopped`. */
  async abort(agentId: string, input: { mode?: string | undefined }): Promise<AbortResult> {
    const { agents } = this.deps;
    agents.assertWritable(agentId);
    const requested = input.mode ?? 'stop_after_abort';
    if (!(ABORT_MODES as readonly string[]).includes(requested)) throw errors.unknownAbortMode(requested);
    const turn = this.scheduler.current(agentId);
    if (!turn) throw errors.noCurrentRun(agentId);
    await this.scheduler.abortTurn(turn, 'stop_after_abort', requested);
    return { ok: true, agent_id: agentId, turn_id: turn.turnId, mode: 'stop_after_abort', requested_mode: requested, status: agents.statusOf(agentId) ?? 'stopped' };
  }

  /** A debug-mode prompt: runtime-internal provenance (system origin, trusted_system), priority interject. */
  async debugPrompt(agentId: string, input: { text: string; authority_class?: AuthorityClass | null | undefined }): Promise<Admitted> {
    if (input.text.trim() === '') throw errors.emptyPrompt();
    const provenance = deriveProvenance('debug_prompt', { kind: 'system', subsystem: 'debug_prompt' }, { kind: 'internal_followup' });
    const message = await this.deps.store.write(() =>
      this.deps.ingress.enqueueNow(agentId, provenance, { type: 'text', text: input.text }, {
        metadata: { debug_prompt: true, requested_authority_class: input.authority_class ?? null },
      }),
    );
    return { ok: true, agent_id: agentId, message_id: message.message_id };
  }
}
