/**
 * Observer-sync reads of the real system (Holon), which its web GUI uses to fill a timeline from
 * event ids: batch reads of messages, transcript entries and briefs by id, the per-agent
 * projection snapshot and the roster snapshot (docs/holon-gui.md). Read-only views
 * over the queue, the run loop's history, the briefs and the event log.
 *
 * Transcript entries are the rows of an agent's visible conversation history; the id of the row
 * with seq N is `hst_N` (unique within the agent).
 */
import type { Brief } from '../channels/index.js';
import type { Message, AgentRecord } from '../agents/index.js';
import type { HistoryEntry } from '../run-loop/index.js';
import { agentListEntry, type StateDeps } from './agent-views.js';
import type { RuntimeIdentity } from './runtime-identity.js';
import type { EventLog } from '../../events/index.js';

/** Most ids one batch read takes. */
export const BATCH_GET_MAX_IDS = 256;
/** Bytes of the latest brief's text in a snapshot (the whole brief is one batch read away). */
export const BRIEF_PREVIEW_MAX_BYTES = 512;

export interface ObserverReadDeps extends StateDeps {
  events: EventLog;
  queue: StateDeps['queue'] & { get(messageId: string): Message | null };
  briefs: StateDeps['briefs'] & { get(briefId: string): Brief | null };
  runLoop: StateDeps['runLoop'] & { records: { historyEntry(agentId: string, seq: number): HistoryEntry | null; recentHistory(agentId: string, limit: number): HistoryEntry[] } };
  identity: () => RuntimeIdentity;
}

interface Batch<T> {
  found: T[];
  missing: string[];
}

function batch<T>(ids: string[], lookup: (id: string) => T | null): Batch<T> {
  const found: T[] = [];
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const record = lookup(id);
    if (record) found.push(record);
    else missing.push(id);
  }
  return { found, missing };
}

/** The record with `id` added, when it belongs to the agent; another agent's record counts as missing. */
function own<R extends { agent_id: string }>(agentId: string, record: R | null, idOf: (r: R) => string): (R & { id: string }) | null {
  return record && record.agent_id === agentId ? { id: idOf(record), ...record } : null;
}

const HISTORY_ID = /^hst_(\d{1,15})$/;

export function transcriptEntryId(seq: number): string {
  return `hst_${seq}`;
}

export class ObserverReads {
  constructor(private readonly d: ObserverReadDeps) {}

  /** Messages of the agent by id; another agent's message counts as missing. */
  messages(agentId: string, ids: string[]) {
    this.d.agents.get(agentId);
    const { found, missing } = batch(ids, (id) => own(agentId, this.d.queue.get(id), (m) => m.message_id));
    return { messages: found, missing_message_ids: missing };
  }

  /** Visible history rows of the agent by entry id (`hst_<seq>`). */
  transcriptEntries(agentId: string, ids: string[]) {
    this.d.agents.get(agentId);
    const { found, missing } = batch(ids, (id) => {
      const seq = HISTORY_ID.exec(id)?.[1];
      const entry = seq === undefined ? null : this.d.runLoop.records.historyEntry(agentId, Number(seq));
      return entry ? transcriptEntry(agentId, entry) : null;
    });
    return { entries: found, missing_entry_ids: missing };
  }

  /** Briefs of the agent by id; another agent's brief counts as missing. */
  briefs(agentId: string, ids: string[]) {
    this.d.agents.get(agentId);
    const { found, missing } = batch(ids, (id) => own(agentId, this.d.briefs.get(id), (b) => b.brief_id));
    return { briefs: found, missing_brief_ids: missing };
  }

  /** One agent's canonical projection at its event head. */
  projectionSnapshot(agentId: string) {
    const a = this.d.agents.get(agentId);
    const identity = this.d.identity();
    const head = this.d.events.head(agentId);
    const focus = this.d.workItems.currentFocus(agentId);
    const current = focus ? this.d.workItems.stateFor(agentId).find((w) => w.id === focus) : undefined;
    const [lastEntry] = this.d.runLoop.records.recentHistory(agentId, 1);
    const latestMessage = [...this.d.runLoop.records.recentHistory(agentId, 20)].reverse().find((e) => e.message_id)?.message_id ?? null;
    return {
      contract_version: 1 as const,
      agent_id: agentId,
      runtime_id: identity.runtime_id,
      visibility_scope_id: identity.visibility_scope_id,
      event_log_epoch: identity.event_log_epoch,
      snapshot_through_seq: head,
      event_head_seq: head,
      oldest_retained_seq: this.oldestRetained(agentId),
      projection: {
        agent: agentListEntry(this.d, a),
        conversation: { latest_message_id: latestMessage, latest_transcript_entry_id: lastEntry ? transcriptEntryId(lastEntry.seq) : null },
        current_work_item: current
          ? { work_item_id: current.id, state: current.state, plan_status: current.plan_status, revision: current.revision, updated_at: current.updated_at }
          : null,
        hydration_references: [],
        hydration_tombstones: [],
        latest_brief: this.latestBrief(a),
      },
    };
  }

  /** Every public agent with its event window and latest brief, at one moment. */
  rosterSnapshot() {
    const identity = this.d.identity();
    const agents = this.d.agents
      .list()
      .filter((a) => a.visibility === 'public')
      .map((a) => ({
        agent: agentListEntry(this.d, a),
        event_window: { event_head_seq: this.d.events.head(a.agent_id), oldest_retained_seq: this.oldestRetained(a.agent_id) },
        latest_brief: this.latestBrief(a),
      }));
    return {
      contract_version: 1 as const,
      runtime_id: identity.runtime_id,
      visibility_scope_id: identity.visibility_scope_id,
      event_log_epoch: identity.event_log_epoch,
      agents,
    };
  }

  private oldestRetained(agentId: string): number | null {
    return this.d.events.head(agentId) === 0 ? null : this.d.events.oldestRetained(agentId);
  }

  private latestBrief(a: AgentRecord) {
    const brief = this.d.briefs.list(a.agent_id, { limit: 1 })[0] as Brief | undefined;
    if (!brief) return null;
    return {
      brief_id: brief.brief_id,
      created_at: brief.created_at,
      created_event_seq: this.d.events.seqWhere(a.agent_id, 'brief_created', 'brief_id', brief.brief_id),
      preview: truncateUtf8(brief.text, BRIEF_PREVIEW_MAX_BYTES),
    };
  }
}

function transcriptEntry(agentId: string, e: HistoryEntry) {
  return {
    id: transcriptEntryId(e.seq),
    agent_id: agentId,
    seq: e.seq,
    role: e.role,
    turn_id: e.turn_id,
    message_id: e.message_id,
    created_at: e.created_at,
    content: e.content,
    data: { text: e.content },
  };
}

/** At most `max` bytes of UTF-8, cut at a character boundary. */
function truncateUtf8(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
