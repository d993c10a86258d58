/**
 * Search over agents' event logs (the real system's POST /api/search and POST /api/memory/get;
 * docs/holon-gui.md). The text of an event is what a person reads in it: a
 * message's body, a brief, a tool's output, a task's summary, a work item's objective. A match is
 * a case-insensitive substring of that text (ASCII case folding, as SQLite's LIKE). Results are
 * newest first; each names its event (`event_seq`) and the ids it carries, and its `source_ref`
 * (`event:<agent_id>:<event_seq>`) reads the whole text back.
 */
import type Database from 'better-sqlite3';
import { errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from '../agents/index.js';

/** The kinds whose payload holds text worth finding, and where it is. */
const TEXT_OF: Record<string, (p: Record<string, unknown>) => string> = {
  message_enqueued: (p) => bodyText(p.body),
  brief_created: (p) => str(p.text),
  tool_result: (p) => str(p.content),
  task_create_requested: (p) => [str(p.summary), str(p.cmd)].filter(Boolean).join('\n'),
  task_status_changed: (p) => str(p.result_summary),
  work_item_created: (p) => str(p.objective),
  work_item_completed: (p) => str(p.result_summary ?? p.report_text),
};

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
/** Rows a search reads per agent before it stops (bounds the work of a query that matches JSON keys only). */
const SCAN_PER_AGENT = 2000;
const PREVIEW_CHARS = 240;

export interface SearchInput {
  query: string;
  agentIds?: string[] | undefined;
  limit?: number | undefined;
  types?: string[] | undefined;
}

interface Row {
  event_seq: number;
  ts: string;
  type: string;
  payload: string;
  text_ids: string | null;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function bodyText(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as Record<string, unknown>;
  if (b.type === 'text') return str(b.text);
  if (b.type === 'brief') return [str(b.title), str(b.text)].filter(Boolean).join('\n');
  return JSON.stringify(b.value ?? b);
}

export class EventSearch {
  private readonly stmt: { match: Database.Statement; one: Database.Statement };

  constructor(private readonly deps: { store: Store; agents: AgentService }) {
    const kinds = Object.keys(TEXT_OF).map((k) => `'${k}'`).join(', ');
    // A long string of a payload is stored in chunks in `texts` (store/texts.ts). The chunks of
    // the row, joined in order, hold every long string whole (also a match across two chunks),
    // and json_quote escapes them as the payload's JSON did: a row matches as it did inline. (A
    // match across two of the strings, or across a string and the payload around it, is a
    // candidate the exact test on the text below drops, as before.)
    const longStrings = `json_quote((SELECT group_concat(t.content, '' ORDER BY j.key) FROM json_each(events.text_ids) j JOIN texts t ON t.text_id = j.value))`;
    this.stmt = {
      match: deps.store.db.prepare(
        `SELECT event_seq, ts, type, payload, text_ids FROM events WHERE agent_id = @agent AND type IN (${kinds})
           AND (payload LIKE @like ESCAPE '\\' OR (length(text_ids) > 2 AND ${longStrings} LIKE @like ESCAPE '\\'))
         ORDER BY event_seq DESC LIMIT @limit`,
      ),
      one: deps.store.db.prepare('SELECT event_seq, ts, type, payload, text_ids FROM events WHERE agent_id = ? AND event_seq = ?'),
    };
  }

  search(input: SearchInput) {
    const query = input.query.trim();
    if (query === '') throw errors.invalidRequest([{ path: 'body.query', message: 'must not be empty' }]);
    const limit = Math.min(Math.max(input.limit ?? SEARCH_DEFAULT_LIMIT, 1), SEARCH_MAX_LIMIT);
    // Every result is conversation text (the real system's type `message`).
    if (input.types && input.types.length > 0 && !input.types.includes('message')) return { query, limit, results: [] };
    const agentIds = input.agentIds?.length
      ? [...new Set(input.agentIds)].map((id) => this.deps.agents.get(id).agent_id)
      : this.deps.agents.list().filter((a) => a.visibility === 'public').map((a) => a.agent_id);
    const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const needle = query.toLowerCase();
    const results = agentIds.flatMap((agentId) =>
      (this.stmt.match.all({ agent: agentId, like, limit: SCAN_PER_AGENT }) as Row[])
        .map((row) => {
          const payload = this.payloadOf(row);
          return { row, payload, text: TEXT_OF[row.type]!(payload) };
        })
        .filter(({ text }) => text.toLowerCase().includes(needle))
        .slice(0, limit)
        .map(({ row, payload, text }) => result(agentId, row, payload, text, needle)),
    );
    results.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    return { query, limit, results: results.slice(0, limit) };
  }

  /** The whole text of a result (`event:<agent_id>:<event_seq>`); 404 memory_source_not_found otherwise. */
  source(sourceRef: string, maxChars?: number) {
    const m = /^event:([A-Za-z0-9][A-Za-z0-9._-]{0,63}):(\d{1,15})$/.exec(sourceRef.trim());
    const row = m && this.deps.agents.find(m[1]!) ? (this.stmt.one.get(m[1], Number(m[2])) as Row | undefined) : undefined;
    if (!m || !row || !(row.type in TEXT_OF)) throw errors.memorySourceNotFound(sourceRef);
    const text = TEXT_OF[row.type]!(this.payloadOf(row));
    const max = maxChars ?? text.length;
    return { kind: row.type, source_ref: sourceRef.trim(), title: `${row.type} #${row.event_seq}`, content: text.slice(0, max), truncated: text.length > max, updated_at: row.ts };
  }

  private payloadOf(row: Row): Record<string, unknown> {
    return this.deps.store.texts.read(row.text_ids).json<Record<string, unknown>>(row.payload);
  }
}

function result(agentId: string, row: Row, p: Record<string, unknown>, text: string, needle: string) {
  const at = text.toLowerCase().indexOf(needle);
  const start = Math.max(0, at - PREVIEW_CHARS / 3);
  const preview = `${start > 0 ? '…' : ''}${text.slice(start, start + PREVIEW_CHARS)}${start + PREVIEW_CHARS < text.length ? '…' : ''}`;
  const id = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : null);
  return {
    result_type: 'message' as const,
    type: 'message' as const,
    agent_id: agentId,
    kind: row.type,
    source_ref: `event:${agentId}:${row.event_seq}`,
    preview,
    created_at: row.ts,
    locator: {
      evidence_id: `event:${agentId}:${row.event_seq}`,
      event_seq: row.event_seq,
      message_id: id('message_id'),
      turn_id: id('turn_id'),
      task_id: id('task_id'),
      work_item_id: id('work_item_id'),
    },
  };
}
