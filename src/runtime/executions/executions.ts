/**
 * Tool executions (migration 028): a row per tool call, begun in the transaction of the round that
 * asked for it (status `running`) and completed in the transaction of the round's results
 * (`success` or `error`), with the artifacts the call left. A call still `running` when its turn
 * ends otherwise, or when the daemon stopped during it, is `interrupted` (a turn waiting for an
 * approval keeps its call `running`: it continues after a restart).
 *
 * What people are shown is redacted (arguments, the result excerpt); artifacts keep what the tool
 * produced, bounded, and are read only by the agent's readers and the agent itself.
 * Rows follow the event log's age rule (`events.retain_days`) and go with their agent.
 */
import type Database from 'better-sqlite3';
import { errors, isoAt, redactSecrets, redactText, type Clock, type TrustLevel } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import { Repeating } from '../deps.js';

export type ExecutionStatus = 'running' | 'success' | 'error' | 'interrupted';

/** One artifact as stored: at most ARTIFACT_MAX_BYTES of its content (UTF-16 units, see `cut`). */
export const ARTIFACT_MAX_BYTES = 8 * 1024 * 1024;
/** Artifacts one call may leave. */
export const ARTIFACTS_PER_EXECUTION = 16;
/** The result excerpt kept on the row (the whole result is in the prompt or an artifact). */
const OUTPUT_EXCERPT_CHARS = 16 * 1024;
const DAY_MS = 86_400_000;
const PRUNE_BATCH = 500;

export interface ArtifactInput {
  kind: string;
  name: string;
  media_type: string;
  content: string;
}

export interface ArtifactRef {
  index: number;
  kind: string;
  name: string;
  media_type: string;
  size: number;
  truncated: boolean;
}

/** The record Holon's GUI reads (its ToolExecutionRecord), with svc's fields beside it. */
export interface ToolExecutionRecord {
  id: string;
  tool_execution_id: string;
  agent_id: string;
  turn_id: string;
  round: number;
  tool_call_id: string;
  tool_name: string;
  /** Holon's name for the trust the call ran at. */
  authority_class: TrustLevel;
  trust: TrustLevel;
  classes: string[];
  work_item_id: string | null;
  status: ExecutionStatus;
  input: unknown;
  /** The result as the model read it (parsed when JSON), redacted; an excerpt when long. */
  output: unknown;
  output_bytes: number | null;
  output_truncated: boolean;
  error_code: string | null;
  summary: string;
  created_at: string;
  completed_at: string | null;
  duration_ms: number;
  invocation_surface: 'model';
  artifacts: ArtifactRef[];
}

export interface ArtifactContent extends ArtifactRef {
  /** Holon's field names. */
  artifact_index: number;
  content: string;
  /** With `offset`/`max_chars`: where this slice starts, and where the next one would. */
  offset: number;
  next_offset: number | null;
}

export interface BeginInput {
  execution_id: string;
  agent_id: string;
  turn_id: string;
  round: number;
  tool_call_id: string;
  tool_name: string;
  trust: TrustLevel;
  arguments: unknown;
  created_at: string;
}

export interface CompleteInput {
  ok: boolean;
  classes: readonly string[];
  content: string;
  error_code?: string | null;
  duration_ms: number;
  completed_at: string;
  artifacts?: readonly ArtifactInput[];
}

interface Row {
  execution_id: string;
  agent_id: string;
  turn_id: string;
  round: number;
  tool_call_id: string;
  tool_name: string;
  trust: TrustLevel;
  work_item_id: string | null;
  status: ExecutionStatus;
  classes: string | null;
  input: string;
  output: string | null;
  output_bytes: number | null;
  error_code: string | null;
  created_at: string;
  completed_at: string | null;
  duration_ms: number | null;
}

interface ArtifactRow {
  idx: number;
  kind: string;
  name: string;
  media_type: string;
  size: number;
  truncated: number;
  content?: string;
}

export interface ToolExecutionDeps {
  store: Store;
  clock: Clock;
  /** Days rows are kept (the event log's `events.retain_days`); 0 = no limit. Read at each pass. */
  retainDays: () => number;
}

export class ToolExecutionService {
  private readonly stmt;
  private readonly pruning = new Repeating(() => this.prune(), 3_600_000);

  constructor(private readonly deps: ToolExecutionDeps) {
    this.stmt = prepare(deps.store.db);
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /**
   * Calls left `running` by a daemon that stopped are `interrupted`, but not those of a turn
   * waiting for an approval (it resumes). Then the age rule, now and every hour.
   */
  start(): void {
    const at = isoAt(this.deps.clock.now());
    this.deps.store.tx(() => this.stmt.interruptStale.run(at));
    this.pruning.start();
  }

  stop(): void {
    this.pruning.stop();
  }

  stopAgent(agentId: string): void {
    this.deps.store.tx(() => {
      this.stmt.deleteAgentArtifacts.run(agentId);
      this.stmt.deleteAgent.run(agentId);
    });
  }

  stateFor(): unknown[] {
    return [];
  }

  // --- writes (inside the run loop's transactions) ---------------------------------------------

  begin(b: BeginInput): void {
    this.stmt.insert.run({
      execution_id: b.execution_id,
      agent_id: b.agent_id,
      turn_id: b.turn_id,
      round: b.round,
      tool_call_id: b.tool_call_id,
      tool_name: b.tool_name,
      trust: b.trust,
      input: JSON.stringify(redactSecrets(b.arguments ?? {})),
      created_at: b.created_at,
    });
  }

  complete(executionId: string, c: CompleteInput): void {
    const bytes = Buffer.byteLength(c.content);
    this.stmt.complete.run({
      execution_id: executionId,
      status: c.ok ? 'success' : 'error',
      classes: JSON.stringify(c.classes),
      output: redactText(c.content.length > OUTPUT_EXCERPT_CHARS ? c.content.slice(0, OUTPUT_EXCERPT_CHARS) : c.content),
      output_bytes: bytes,
      error_code: c.ok ? null : (c.error_code ?? errorCodeOf(c.content)),
      completed_at: c.completed_at,
      duration_ms: Math.max(0, Math.round(c.duration_ms)),
    });
    (c.artifacts ?? []).slice(0, ARTIFACTS_PER_EXECUTION).forEach((a, idx) => {
      const content = cut(a.content, ARTIFACT_MAX_BYTES);
      this.stmt.insertArtifact.run({
        execution_id: executionId,
        idx,
        kind: a.kind,
        name: a.name.slice(0, 1024),
        media_type: a.media_type,
        size: Buffer.byteLength(a.content),
        truncated: content.length < a.content.length ? 1 : 0,
        content,
      });
    });
  }

  /** The turn ended (aborted, failed, or completed with a call it never ran): its running calls are interrupted. */
  interruptTurn(turnId: string, at: string): void {
    this.stmt.interruptTurn.run(at, turnId);
  }

  // --- reads -----------------------------------------------------------------------------------

  get(agentId: string, executionId: string): ToolExecutionRecord {
    const row = this.stmt.get.get(executionId, agentId) as Row | undefined;
    if (!row) throw errors.toolExecutionNotFound(executionId);
    return this.toRecord(row);
  }

  /** The agent's executions, newest first (`turn_id` narrows to one turn). */
  list(agentId: string, opts: { turnId?: string | undefined; limit: number; before?: string | undefined }): ToolExecutionRecord[] {
    const rows = (opts.turnId ? this.stmt.listTurn.all(agentId, opts.turnId, opts.limit) : this.stmt.list.all(agentId, opts.before ?? '\uffff', opts.limit)) as Row[];
    return rows.map((r) => this.toRecord(r));
  }

  /** An artifact's content, whole or the slice from `offset` (UTF-16 units) of at most `maxChars`. */
  artifact(agentId: string, executionId: string, index: number, slice: { offset?: number; maxChars?: number } = {}): ArtifactContent {
    this.get(agentId, executionId);
    const row = this.stmt.artifact.get(executionId, index) as ArtifactRow | undefined;
    if (!row) throw errors.toolArtifactNotFound(executionId, index);
    const offset = Math.min(slice.offset ?? 0, row.content!.length);
    const end = slice.maxChars === undefined ? row.content!.length : Math.min(row.content!.length, offset + slice.maxChars);
    return {
      ...refOf(row),
      artifact_index: row.idx,
      content: row.content!.slice(offset, end),
      offset,
      next_offset: end < row.content!.length ? end : null,
    };
  }

  private toRecord(r: Row): ToolExecutionRecord {
    const artifacts = (this.stmt.artifacts.all(r.execution_id) as ArtifactRow[]).map(refOf);
    const created = Date.parse(r.created_at);
    return {
      id: r.execution_id,
      tool_execution_id: r.execution_id,
      agent_id: r.agent_id,
      turn_id: r.turn_id,
      round: r.round,
      tool_call_id: r.tool_call_id,
      tool_name: r.tool_name,
      authority_class: r.trust,
      trust: r.trust,
      classes: r.classes ? (JSON.parse(r.classes) as string[]) : [],
      work_item_id: r.work_item_id,
      status: r.status,
      input: JSON.parse(r.input) as unknown,
      output: r.output === null ? null : parsed(r.output),
      output_bytes: r.output_bytes,
      output_truncated: r.output !== null && r.output_bytes !== null && Buffer.byteLength(r.output) < r.output_bytes,
      error_code: r.error_code,
      summary: summaryOf(r),
      created_at: r.created_at,
      completed_at: r.completed_at,
      duration_ms: r.duration_ms ?? (r.status === 'running' ? Math.max(0, this.deps.clock.now() - created) : 0),
      invocation_surface: 'model',
      artifacts,
    };
  }

  /** The age rule, in batches off the request path. */
  private prune(): void {
    const days = this.deps.retainDays();
    if (days <= 0) return;
    const cutoff = isoAt(this.deps.clock.now() - days * DAY_MS);
    for (;;) {
      const ids = this.stmt.old.all(cutoff, PRUNE_BATCH) as string[];
      if (ids.length === 0) return;
      this.deps.store.tx(() => {
        for (const id of ids) {
          this.stmt.deleteArtifacts.run(id);
          this.stmt.delete.run(id);
        }
      });
      if (ids.length < PRUNE_BATCH) return;
    }
  }
}

function prepare(db: Database.Database) {
  const cols = 'execution_id, agent_id, turn_id, round, tool_call_id, tool_name, trust, work_item_id, status, classes, input, output, output_bytes, error_code, created_at, completed_at, duration_ms';
  return {
    insert: db.prepare(
      `INSERT INTO tool_executions (execution_id, agent_id, turn_id, round, tool_call_id, tool_name, trust, status, input, created_at)
       VALUES (@execution_id, @agent_id, @turn_id, @round, @tool_call_id, @tool_name, @trust, 'running', @input, @created_at)`,
    ),
    complete: db.prepare(
      `UPDATE tool_executions SET status = @status, classes = @classes, output = @output, output_bytes = @output_bytes, error_code = @error_code,
       completed_at = @completed_at, duration_ms = @duration_ms WHERE execution_id = @execution_id`,
    ),
    insertArtifact: db.prepare(
      `INSERT OR REPLACE INTO tool_execution_artifacts (execution_id, idx, kind, name, media_type, size, truncated, content)
       VALUES (@execution_id, @idx, @kind, @name, @media_type, @size, @truncated, @content)`,
    ),
    interruptTurn: db.prepare(`UPDATE tool_executions SET status = 'interrupted', completed_at = ? WHERE turn_id = ? AND status = 'running'`),
    interruptStale: db.prepare(
      `UPDATE tool_executions SET status = 'interrupted', completed_at = ?
       WHERE status = 'running' AND turn_id NOT IN (SELECT turn_id FROM turns WHERE status = 'waiting_approval')`,
    ),
    get: db.prepare(`SELECT ${cols} FROM tool_executions WHERE execution_id = ? AND agent_id = ?`),
    list: db.prepare(`SELECT ${cols} FROM tool_executions WHERE agent_id = ? AND execution_id < ? ORDER BY execution_id DESC LIMIT ?`),
    listTurn: db.prepare(`SELECT ${cols} FROM tool_executions WHERE agent_id = ? AND turn_id = ? ORDER BY execution_id LIMIT ?`),
    artifacts: db.prepare('SELECT idx, kind, name, media_type, size, truncated FROM tool_execution_artifacts WHERE execution_id = ? ORDER BY idx'),
    artifact: db.prepare('SELECT idx, kind, name, media_type, size, truncated, content FROM tool_execution_artifacts WHERE execution_id = ? AND idx = ?'),
    old: db.prepare('SELECT execution_id FROM tool_executions WHERE created_at < ? ORDER BY created_at LIMIT ?').pluck(),
    delete: db.prepare('DELETE FROM tool_executions WHERE execution_id = ?'),
    deleteArtifacts: db.prepare('DELETE FROM tool_execution_artifacts WHERE execution_id = ?'),
    deleteAgent: db.prepare('DELETE FROM tool_executions WHERE agent_id = ?'),
    deleteAgentArtifacts: db.prepare('DELETE FROM tool_execution_artifacts WHERE execution_id IN (SELECT execution_id FROM tool_executions WHERE agent_id = ?)'),
  };
}

function refOf(r: ArtifactRow): ArtifactRef {
  return { index: r.idx, kind: r.kind, name: r.name, media_type: r.media_type, size: r.size, truncated: r.truncated === 1 };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text };
  }
}

/** The `code` of a refused call's `{ok:false, code, error}` content. */
function errorCodeOf(content: string): string | null {
  const out = parsed(content) as { code?: unknown } | null;
  return out && typeof out === 'object' && typeof out.code === 'string' ? out.code : null;
}

function summaryOf(r: Row): string {
  if (r.status === 'running') return `${r.tool_name} running`;
  if (r.status === 'interrupted') return `${r.tool_name} interrupted`;
  return r.status === 'success' ? `${r.tool_name} succeeded` : `${r.tool_name} failed${r.error_code ? `: ${r.error_code}` : ''}`;
}

/** At most `maxBytes` of UTF-8 (cut on a character boundary). */
export function cut(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3 || Buffer.byteLength(text) <= maxBytes) return text;
  const buf = Buffer.from(text).subarray(0, maxBytes);
  return buf.toString('utf8').replace(/\uFFFD$/, '');
}
