/**
 * Briefs: what an agent reports to its operator (acknowledgements, progress, results of turns and
 * work items, failures with a failure artifact). Each brief is one row of `briefs` created inside
 * the caller's transaction together with a `brief_created` event carrying the whole brief.
 * `onCreated` listeners (brief delivery) run INSIDE that transaction, so what they record commits
 * or rolls back with the brief.
 */
import type Database from 'better-sqlite3';
import { isoAt, type Clock, type IdGenerator, type FailureArtifact } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';

export type { FailureArtifact };

export type BriefKind = 'acknowledgement' | 'progress' | 'result' | 'failure';
export const BRIEF_KINDS: readonly BriefKind[] = ['acknowledgement', 'progress', 'result', 'failure'];

export interface Brief {
  brief_id: string;
  agent_id: string;
  kind: BriefKind;
  title: string;
  text: string;
  turn_id: string | null;
  message_id: string | null;
  work_item_id: string | null;
  failure_artifact: FailureArtifact | null;
  created_at: string;
}

export interface BriefInput {
  agentId: string;
  kind: BriefKind;
  title: string;
  text: string;
  turnId?: string | null;
  messageId?: string | null;
  workItemId?: string | null;
  failureArtifact?: FailureArtifact | null;
}

export interface BriefServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  events: EventLog;
}

/** The stored row: a brief with its failure artifact as JSON text, and its text maybe in `texts` (store/texts.ts). */
type Row = Omit<Brief, 'failure_artifact'> & { failure_artifact: string | null; text_ids: string | null };

/** Largest page of GET /api/agents/:id/briefs. */
export const BRIEFS_MAX_LIMIT = 200;

export class BriefService {
  private readonly stmt: ReturnType<typeof prepare>;
  private readonly listeners: Array<(brief: Brief) => void> = [];

  constructor(private readonly deps: BriefServiceDeps) {
    this.stmt = prepare(deps.store.db);
  }

  /** Create a brief and append `brief_created` {brief}; joins the caller's transaction if any. */
  create(input: BriefInput): Brief {
    const { store, clock, ids, events } = this.deps;
    return store.tx(() => {
      const brief: Brief = {
        brief_id: ids.make('brief'),
        agent_id: input.agentId,
        kind: input.kind,
        title: input.title,
        text: input.text,
        turn_id: input.turnId ?? null,
        message_id: input.messageId ?? null,
        work_item_id: input.workItemId ?? null,
        failure_artifact: input.failureArtifact ?? null,
        created_at: isoAt(clock.now()),
      };
      const texts = store.texts.row();
      this.stmt.insert.run({
        ...brief,
        text: texts.text(brief.text),
        failure_artifact: brief.failure_artifact ? JSON.stringify(brief.failure_artifact) : null,
        text_ids: texts.textIds(),
      });
      events.append(brief.agent_id, 'brief_created', {
        brief_id: brief.brief_id,
        brief_kind: brief.kind,
        work_item_id: brief.work_item_id,
        turn_id: brief.turn_id,
        message_id: brief.message_id,
        text: brief.text,
        brief,
      });
      for (const listener of this.listeners) listener(brief);
      return brief;
    });
  }

  /** Called inside the creating transaction; a throwing listener rolls the brief back. */
  onCreated(listener: (brief: Brief) => void): void {
    this.listeners.push(listener);
  }

  /** Newest first; `before` is a brief id (exclusive). */
  list(agentId: string, opts: { limit?: number; before?: string }): Brief[] {
    const limit = Math.min(Math.max(opts.limit ?? 50, 1), BRIEFS_MAX_LIMIT);
    const rows = opts.before
      ? (this.stmt.listBefore.all(agentId, opts.before, limit) as Row[])
      : (this.stmt.list.all(agentId, limit) as Row[]);
    return rows.map((r) => this.toBrief(r));
  }

  /** The agent's newest brief of `kind`, or null. */
  latest(agentId: string, kind: BriefKind): Brief | null {
    const row = this.stmt.latest.get(agentId, kind) as Row | undefined;
    return row ? this.toBrief(row) : null;
  }

  get(briefId: string): Brief | null {
    const row = this.stmt.get.get(briefId) as Row | undefined;
    return row ? this.toBrief(row) : null;
  }

  /** The agent is purged: its briefs go with it. */
  deleteAgent(agentId: string): void {
    this.stmt.deleteAgent.run(agentId);
  }

  private toBrief({ text_ids, ...row }: Row): Brief {
    return {
      ...row,
      text: this.deps.store.texts.read(text_ids).text(row.text),
      failure_artifact: row.failure_artifact ? (JSON.parse(row.failure_artifact) as FailureArtifact) : null,
    };
  }
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO briefs (brief_id, agent_id, kind, title, text, turn_id, message_id, work_item_id, failure_artifact, created_at, text_ids)
       VALUES (@brief_id, @agent_id, @kind, @title, @text, @turn_id, @message_id, @work_item_id, @failure_artifact, @created_at, @text_ids)`,
    ),
    list: db.prepare('SELECT * FROM briefs WHERE agent_id = ? ORDER BY brief_id DESC LIMIT ?'),
    listBefore: db.prepare('SELECT * FROM briefs WHERE agent_id = ? AND brief_id < ? ORDER BY brief_id DESC LIMIT ?'),
    get: db.prepare('SELECT * FROM briefs WHERE brief_id = ?'),
    latest: db.prepare('SELECT * FROM briefs WHERE agent_id = ? AND kind = ? ORDER BY brief_id DESC LIMIT 1'),
    deleteAgent: db.prepare('DELETE FROM briefs WHERE agent_id = ?'),
  };
}
