/**
 * The inbox's side of the model tool `reply_to_entry` (docs/tools.md#inbox-replies): a
 * control-plane agent answers on the conversation an inbox entry it was woken by came from.
 *
 * Whose entries: those of the inbox agents that have a runtime target naming the calling agent
 * (that is how an entry reaches a control-plane agent). Any other entry id, another agent's or an
 * unknown one, is the same 404 entry_not_found. What it may do: `send` a text through the handle
 * of the entry's own event (outbound.ts), with the entry's own source, so the address and the
 * credential come from svc's records, never from the model: it cannot name another issue, another
 * repository or an operation (closing and merging stay on the socket and the CLI).
 *
 * It reads the rows of entries and targets directly, as status.ts does: those parts sit above
 * this one in the inbox's chain (entries/ imports the handles from here), so it cannot import them.
 */
import type Database from 'better-sqlite3';
import { errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { StoredEvent } from '../streams/index.js';
import { deliveryHandleOf } from './handles.js';
import type { Outbound } from './outbound.js';

export interface EntryReply {
  entryId: string;
  /** The inbox agent the entry belongs to. */
  inboxAgentId: string;
  deliveryId: string;
  operation: string;
  targetRef: string;
  threadRef: string | null;
  /** The posted comment's page. */
  url: string | null;
  note: string;
}

interface EntryRow {
  agent_id: string;
  source_id: string | null;
  event: string | null;
}

export class EntryReplies {
  private readonly stmt: { entry: Database.Statement<[string], EntryRow>; owns: Database.Statement<[string, string], number> };

  constructor(private readonly deps: { store: Store; outbound: Outbound }) {
    const db = deps.store.db;
    this.stmt = {
      entry: db.prepare('SELECT agent_id, source_id, event FROM inbox_entries WHERE entry_id = ?'),
      owns: db
        .prepare<[string, string], number>("SELECT 1 FROM inbox_targets WHERE agent_id = ? AND kind = 'runtime' AND json_extract(config, '$.runtimeAgentId') = ? LIMIT 1")
        .pluck(),
    };
  }

  /** Post `text` on the entry's conversation for control-plane agent `agentId`. */
  async reply(input: { agentId: string; entryId: string; text: string; signal?: AbortSignal | undefined }): Promise<EntryReply> {
    const row = this.stmt.entry.get(input.entryId);
    if (!row || this.stmt.owns.get(row.agent_id, input.agentId) === undefined) throw errors.entryNotFound(input.entryId, input.agentId);
    const event = row.event === null ? null : (JSON.parse(row.event) as StoredEvent);
    const handle = deliveryHandleOf(event);
    if (!handle || row.source_id === null) throw errors.deliveryHandleMissing(input.entryId);
    const sent = await this.deps.outbound.send(
      { sourceId: row.source_id, deliveryHandle: handle, kind: 'reply', payload: { text: input.text } },
      { by: `agent ${input.agentId}`, signal: input.signal },
    );
    return {
      entryId: input.entryId,
      inboxAgentId: row.agent_id,
      deliveryId: sent.deliveryId,
      operation: sent.operation,
      targetRef: sent.targetRef,
      threadRef: sent.threadRef,
      url: sent.result.url,
      note: sent.note,
    };
  }
}
