/**
 * The run loop's reads (spec "Agent reads": briefs, conversation, turns/:turn_id/activities,
 * transcript) and the conversation stream's snapshot.
 */
import { errors } from '../../core/index.js';
import type { Brief } from '../channels/index.js';
import type { Scheduler } from './scheduler.js';
import type { RunLoopDeps } from './types.js';

export const CONVERSATION_DEFAULT_LIMIT = 50;
export const CONVERSATION_MAX_LIMIT = 500;

export class RunLoopViews {
  constructor(
    private readonly deps: RunLoopDeps,
    private readonly scheduler: Scheduler,
  ) {}

  briefs(agentId: string, q: { limit?: number | undefined; before?: string | undefined }): { ok: true; agent_id: string; briefs: Brief[] } {
    this.deps.agents.get(agentId);
    const opts: { limit?: number; before?: string } = {};
    if (q.limit !== undefined) opts.limit = q.limit;
    if (q.before !== undefined) opts.before = q.before;
    return { ok: true, agent_id: agentId, briefs: this.deps.briefs.list(agentId, opts) };
  }

  conversation(agentId: string, q: { limit?: number | undefined }) {
    const { agents, queue, records } = this.deps;
    const agent = agents.get(agentId);
    const limit = Math.max(1, Math.min(q.limit ?? CONVERSATION_DEFAULT_LIMIT, CONVERSATION_MAX_LIMIT));
    return {
      ok: true as const,
      agent_id: agentId,
      status: agent.status,
      model: agents.effectiveModel(agent),
      current_turn: this.scheduler.currentRun(agentId),
      pending: queue.pending(agentId),
      history: records.recentHistory(agentId, limit),
    };
  }

  activities(agentId: string, turnId: string) {
    this.deps.agents.get(agentId);
    const turn = this.deps.records.getTurn(agentId, turnId);
    if (!turn) throw errors.turnNotFound(turnId, { agent_id: agentId });
    return { ok: true as const, agent_id: agentId, turn, activities: this.deps.records.activities(turnId) };
  }

  /** Entries of the current turn (live, from memory), else of the last turn (its history rows). */
  transcript(agentId: string) {
    this.deps.agents.get(agentId);
    const current = this.scheduler.current(agentId);
    if (current) {
      return {
        ok: true as const,
        agent_id: agentId,
        turn: { turn_id: current.turnId, message_id: current.message.message_id, status: 'running', round: current.round, started_at: current.startedAt, ended_at: null },
        entries: current.entries.map((e) => ({ ...e, turn_id: current.turnId })),
        streaming_text: current.streamed,
      };
    }
    const last = this.deps.records.lastTurn(agentId);
    if (!last) return { ok: true as const, agent_id: agentId, turn: null, entries: [], streaming_text: '' };
    const entries = this.deps.records.turnHistory(last.turn_id).map((e) => ({ role: e.role, content: e.content, message_id: e.message_id, created_at: e.created_at, turn_id: e.turn_id }));
    return {
      ok: true as const,
      agent_id: agentId,
      turn: { turn_id: last.turn_id, message_id: last.message_id, status: last.status, round: last.rounds, started_at: last.started_at, ended_at: last.ended_at },
      entries,
      streaming_text: '',
    };
  }

  /** The first frame of the conversation stream. */
  snapshot(agentId: string): Record<string, unknown> {
    const agent = this.deps.agents.get(agentId);
    const current = this.scheduler.current(agentId);
    return {
      status: agent.status,
      current_turn: current ? this.scheduler.currentRun(agentId) : null,
      streaming_text: current?.streamed ?? '',
      pending: this.deps.queue.pending(agentId),
    };
  }
}
