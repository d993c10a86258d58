/**
 * Search over the memory index (README.md): the HTTP routes (POST /api/search and
 * /api/memory/get, whose shapes the Holon GUI reads: docs/holon-gui.md) and the model's tools
 * (memory_search, memory_get) ask the same two questions, `hits` and `read`.
 *
 * Ranking: every term of the query must occur (if no text holds them all, any of them may), and
 * the hits are ranked by bm25 (the best first), the newer first among equals. Two bounds keep a
 * query cheap on a large index, both on the cost of bm25, which reads every text holding a word to
 * weigh it and then scores each candidate:
 * - a word in more than COMMON_TEXTS texts (of all agents) weighs next to nothing: it is left out of
 *   a query that has rarer words, and a query of such words only is answered newest first;
 * - an agent's newest RANKED_CANDIDATES texts holding the words are ranked, not older ones.
 */
import type Database from 'better-sqlite3';
import { errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from '../agents/index.js';
import { AGENT_SPAN, type MemoryIndex } from './memory-index.js';
import { allOf, anyOf, excerpt, ftsString, termsOf } from './query.js';
import { textOf } from './text-of.js';

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
/** Characters of a search result's preview, at most. */
export const PREVIEW_CHARS = 240;
/** A word held by more texts than this is too common to rank by. */
export const COMMON_TEXTS = 20_000;
/** The newest texts of an agent holding a query's words that are ranked, at most. */
export const RANKED_CANDIDATES = 2_000;

export interface MemoryHit {
  agent_id: string;
  event_seq: number;
  kind: string;
  ts: string;
  message_id: string | null;
  turn_id: string | null;
  task_id: string | null;
  work_item_id: string | null;
  /** The trust of the text's source: a message's, or the turn's that left it; null when unknown. */
  trust: string | null;
  /** A message's authority class; null for other kinds. */
  authority: string | null;
  /** bm25 (lower is better); null when the hits are the newest, not ranked. */
  score: number | null;
  /** The whole text. */
  text: string;
}

export interface HitsQuery {
  agentIds: readonly string[];
  query: string;
  limit: number;
  /** Event kinds to keep (text-of.ts MEMORY_KINDS); every kind when absent or empty. */
  kinds?: readonly string[] | undefined;
}

export interface Hits {
  /** The query's terms as they were searched. */
  terms: string[];
  /** Words left out as too common (a query of such words only keeps them and is answered newest first). */
  common: string[];
  order: 'relevance' | 'recency';
  hits: MemoryHit[];
}

export interface SearchInput {
  query: string;
  agentIds?: string[] | undefined;
  limit?: number | undefined;
  types?: string[] | undefined;
}

interface DocRow extends Omit<MemoryHit, 'score' | 'text'> {
  score: number | null;
}

export interface MemorySearchDeps {
  store: Store;
  agents: AgentService;
  index: MemoryIndex;
  /** COMMON_TEXTS and RANKED_CANDIDATES unless given (tests lower them). */
  bounds?: { commonTexts: number; rankedCandidates: number };
}

export class MemorySearch {
  private readonly stmt: ReturnType<typeof prepare>;
  private readonly bounds: { commonTexts: number; rankedCandidates: number };

  constructor(private readonly deps: MemorySearchDeps) {
    this.stmt = prepare(deps.store.db);
    this.bounds = deps.bounds ?? { commonTexts: COMMON_TEXTS, rankedCandidates: RANKED_CANDIDATES };
  }

  /** The texts of the agents' memory that hold the query, best first, at most `limit`. */
  hits(q: HitsQuery): Hits {
    const terms = termsOf(q.query);
    if (terms.length === 0) return { terms, common: [], order: 'relevance', hits: [] };
    const { commonTexts } = this.bounds;
    const common = terms.filter((t) => (this.stmt.probe.get(ftsString(t), commonTexts + 1) as number) > commonTexts);
    const rare = terms.filter((t) => !common.includes(t));
    const ranked = rare.length > 0;
    const searched = ranked ? rare : terms;
    let rows = this.find(q, allOf(searched), ranked);
    if (rows.length === 0 && searched.length > 1) rows = this.find(q, anyOf(searched), ranked);
    const hits = rows.flatMap((row) => {
      const text = this.textOf(row.agent_id, row.event_seq);
      return text === null ? [] : [{ ...row, text }];
    });
    return { terms: searched, common: ranked ? common : [], order: ranked ? 'relevance' : 'recency', hits };
  }

  /** One text of the agent's memory (`event_seq`), or null when the index holds none there. */
  read(agentId: string, eventSeq: number): MemoryHit | null {
    const n = this.deps.index.numberOf(agentId);
    if (n === null || !Number.isSafeInteger(eventSeq) || eventSeq < 1 || eventSeq >= AGENT_SPAN) return null;
    const row = this.stmt.doc.get({ n, seq: eventSeq }) as DocRow | undefined;
    const text = row ? this.textOf(agentId, eventSeq) : null;
    return row && text !== null ? { ...row, score: null, text } : null;
  }

  /** POST /api/search: across the public agents unless `agentIds` names agents (each must exist). */
  search(input: SearchInput) {
    const query = input.query.trim();
    if (query === '') throw errors.invalidRequest([{ path: 'body.query', message: 'must not be empty' }]);
    const limit = Math.min(Math.max(input.limit ?? SEARCH_DEFAULT_LIMIT, 1), SEARCH_MAX_LIMIT);
    // Every result is conversation text (the real system's type `message`).
    if (input.types && input.types.length > 0 && !input.types.includes('message')) return { query, limit, results: [] };
    const agentIds = input.agentIds?.length
      ? [...new Set(input.agentIds)].map((id) => this.deps.agents.get(id).agent_id)
      : this.deps.agents.list().filter((a) => a.visibility === 'public').map((a) => a.agent_id);
    const { terms, hits } = this.hits({ agentIds, query, limit });
    return { query, limit, results: hits.map((hit) => result(hit, excerpt(hit.text, terms, PREVIEW_CHARS))) };
  }

  /** POST /api/memory/get: the whole text of a result (`event:<agent_id>:<event_seq>`); 404 memory_source_not_found otherwise. */
  source(sourceRef: string, maxChars?: number) {
    const ref = parseSourceRef(sourceRef);
    const hit = ref && this.deps.agents.find(ref.agentId) ? this.read(ref.agentId, ref.eventSeq) : null;
    if (!hit) throw errors.memorySourceNotFound(sourceRef);
    const max = maxChars ?? hit.text.length;
    return {
      kind: hit.kind,
      source_ref: sourceRefOf(hit),
      title: `${hit.kind} #${hit.event_seq}`,
      content: hit.text.slice(0, max),
      truncated: hit.text.length > max,
      updated_at: hit.ts,
    };
  }

  /** Each agent's best rows for `match`, merged: by score, then the newest first. */
  private find(q: HitsQuery, match: string, ranked: boolean): DocRow[] {
    const kinds = q.kinds && q.kinds.length > 0 ? JSON.stringify(q.kinds) : null;
    const stmt = kinds === null ? this.stmt.match : this.stmt.matchKinds;
    const rows = q.agentIds.flatMap((agentId) => {
      const n = this.deps.index.numberOf(agentId);
      if (n === null) return [];
      const params = { match, n, ranked: ranked ? 1 : 0, candidates: ranked ? this.bounds.rankedCandidates : q.limit, limit: q.limit };
      return stmt.all(kinds === null ? params : { ...params, kinds }) as DocRow[];
    });
    rows.sort((a, b) => (a.score ?? 0) - (b.score ?? 0) || (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : b.event_seq - a.event_seq));
    return rows.slice(0, q.limit);
  }

  private textOf(agentId: string, eventSeq: number): string | null {
    const row = this.stmt.event.get(agentId, eventSeq) as { type: string; payload: string; text_ids: string | null } | undefined;
    return row ? textOf(row.type, this.deps.store.texts.read(row.text_ids).json<Record<string, unknown>>(row.payload)) : null;
  }
}

/** `event:<agent_id>:<event_seq>`, or null for anything else. */
export function parseSourceRef(ref: string): { agentId: string; eventSeq: number } | null {
  const m = /^event:([A-Za-z0-9][A-Za-z0-9._-]{0,63}):(\d{1,15})$/.exec(ref.trim());
  return m ? { agentId: m[1]!, eventSeq: Number(m[2]) } : null;
}

export function sourceRefOf(hit: Pick<MemoryHit, 'agent_id' | 'event_seq'>): string {
  return `event:${hit.agent_id}:${hit.event_seq}`;
}

function result(hit: MemoryHit, preview: string) {
  const ref = sourceRefOf(hit);
  return {
    result_type: 'message' as const,
    type: 'message' as const,
    agent_id: hit.agent_id,
    kind: hit.kind,
    source_ref: ref,
    preview,
    created_at: hit.ts,
    locator: {
      evidence_id: ref,
      event_seq: hit.event_seq,
      message_id: hit.message_id,
      turn_id: hit.turn_id,
      task_id: hit.task_id,
      work_item_id: hit.work_item_id,
    },
  };
}

function prepare(db: Database.Database) {
  const DOC = 'd.agent_id, d.event_seq, d.kind, d.ts, d.message_id, d.turn_id, d.task_id, d.work_item_id, d.trust, d.authority';
  const inAgent = `memory_fts.rowid BETWEEN @n * ${AGENT_SPAN} AND @n * ${AGENT_SPAN} + ${AGENT_SPAN - 1}`;
  // The agent's newest candidates (a rowid range of the index, read from its end), scored by bm25
  // when ranked (CASE: bm25 is not called otherwise), then the best of them.
  const candidates = (join: string, where: string) => `
    SELECT memory_fts.rowid AS id, CASE WHEN @ranked THEN bm25(memory_fts) END AS score FROM memory_fts ${join}
    WHERE memory_fts MATCH @match AND ${inAgent} ${where} ORDER BY memory_fts.rowid DESC LIMIT @candidates`;
  // The best `limit` first, then their rows of memory_docs (joined before the LIMIT, every
  // candidate would be looked up: 5x the time of the query on a large index).
  const best = (inner: string) =>
    db.prepare(
      `SELECT ${DOC}, c.score FROM (SELECT id, score FROM (${inner}) ORDER BY score, id DESC LIMIT @limit) c
       JOIN memory_docs d ON d.doc_id = c.id ORDER BY c.score, d.doc_id DESC`,
    );
  return {
    probe: db.prepare('SELECT count(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)').pluck(),
    match: best(candidates('', '')),
    // CROSS JOIN: the index drives, the kind of each candidate is looked up by its rowid.
    matchKinds: best(candidates('CROSS JOIN memory_docs k ON k.doc_id = memory_fts.rowid', 'AND k.kind IN (SELECT value FROM json_each(@kinds))')),
    doc: db.prepare(`SELECT ${DOC} FROM memory_docs d WHERE d.doc_id = @n * ${AGENT_SPAN} + @seq`),
    event: db.prepare('SELECT type, payload, text_ids FROM events WHERE agent_id = ? AND event_seq = ?'),
  };
}
