/**
 * What a source looks like to callers (the records of GET /sources, /sources/{id}, /streams/{id} and
 * their schema and poll answers) and the row it is read from; `sourceView` turns one into the other.
 * `SourceRows` reads and changes one row, for the source service (sources.ts) and the polling of
 * managed sources (polling.ts) alike.
 */
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { HostType } from '../types.js';
import { isManaged } from './host-types.js';
import type { JsonSchema } from './json-schema.js';
import { sourceKindOf, type ResolvedSchema, type SourceKind } from './source-kinds.js';

export type SourceState = 'active' | 'paused' | 'error';

/** Managed sources only: `waiting` for the auto-pause (no subscription since creation or since the last one went away), or `auto_paused`. */
export interface IdleState {
  state: 'waiting' | 'auto_paused';
  since: string;
  pauseAt: string | null;
}

/**
 * A source as AgentInbox's client reads it (its `SourceStream`: the source is the stream, `streamId`
 * = `sourceId`, `sourceKey` = `streamKey`, `status`, `checkpoint`), with svc's fields beside:
 * `hostType` (the host's type), `state` (= status), `error`, `idleState` and, for managed sources,
 * `cursor` (whose JSON text is the `checkpoint`).
 */
export interface Source {
  sourceId: string;
  streamId: string;
  hostId: string;
  streamKind: string;
  streamKey: string;
  /** AgentInbox's source kind (source-kinds.ts). */
  sourceType: SourceKind;
  sourceKey: string;
  configRef: string | null;
  config: Record<string, unknown>;
  status: SourceState;
  /** Managed sources: the module's cursor as JSON text (null before the first poll, and for local_event). */
  checkpoint: string | null;
  createdAt: string;
  updatedAt: string;
  hostType: HostType;
  state: SourceState;
  error: string | null;
  idleState: IdleState | null;
  /** Managed sources only: the cursor the module returned last (null before the first poll). */
  cursor?: unknown;
}

/** AgentInbox's resolved schema of a source, with svc's JSON Schemas beside. */
export interface SourceSchema extends ResolvedSchema {
  sourceId: string;
  /** JSON Schema of the source config (a remote module's own set in as `properties.moduleConfig`). */
  configSchema: JsonSchema;
  eventSchema: JsonSchema;
  /** remote_source: the module's own configSchema (null when it exports none or cannot be loaded). */
  moduleConfigSchema: JsonSchema | null;
  /** remote_source: why the module cannot be loaded now (null when it can). */
  moduleError: string | null;
}

/** AgentInbox's poll answer, with the source's state after it. */
export interface PollResult {
  sourceId: string;
  sourceType: SourceKind;
  appended: number;
  deduped: number;
  /** Events the module returned (appended + deduped). */
  eventsRead: number;
  note: string;
  state: SourceState;
}

export interface SourceRow {
  source_id: string;
  host_id: string;
  host_type: HostType;
  stream_kind: string;
  stream_key: string;
  config_json: string;
  config_ref: string | null;
  state: SourceState;
  error: string | null;
  paused_by: 'user' | 'idle' | null;
  idle_since_ms: number | null;
  cursor_json: string | null;
  created_ms: number;
  updated_ms: number;
  /** The daemon that registered a source shared through the stream catalogue; null: here. */
  origin: string | null;
}

export interface SourceRemoved {
  sourceId: string;
  deleted: true;
  /** AgentInbox's answer fields. */
  removed: true;
  removedSubscriptions: number;
  pausedSource: boolean;
}

export function sourceView(r: SourceRow, idleMs: number): Source {
  const source: Source = {
    sourceId: r.source_id,
    streamId: r.source_id,
    hostId: r.host_id,
    streamKind: r.stream_kind,
    streamKey: r.stream_key,
    sourceType: sourceKindOf(r.host_type, r.stream_kind),
    sourceKey: r.stream_key,
    configRef: r.config_ref,
    config: JSON.parse(r.config_json) as Record<string, unknown>,
    status: r.state,
    checkpoint: null,
    createdAt: isoAt(r.created_ms),
    updatedAt: isoAt(r.updated_ms),
    hostType: r.host_type,
    state: r.state,
    error: r.error,
    idleState: null,
  };
  if (!isManaged(r.host_type)) return source;
  if (r.state === 'paused' && r.paused_by === 'idle') {
    source.idleState = { state: 'auto_paused', since: isoAt(r.idle_since_ms ?? r.updated_ms), pauseAt: null };
  } else if (r.idle_since_ms !== null && r.state !== 'paused') {
    source.idleState = { state: 'waiting', since: isoAt(r.idle_since_ms), pauseAt: isoAt(r.idle_since_ms + idleMs) };
  }
  source.cursor = r.cursor_json === null ? null : JSON.parse(r.cursor_json);
  source.checkpoint = r.cursor_json === null || r.cursor_json === 'null' ? null : r.cursor_json;
  return source;
}

/** A source row with its host's type. */
export const SELECT_SOURCE = `SELECT s.*, h.host_type FROM inbox_sources s JOIN inbox_hosts h ON h.host_id = s.host_id`;

/** The columns a state change writes. */
export type SourceChange = Partial<Pick<SourceRow, 'config_json' | 'config_ref' | 'state' | 'error' | 'paused_by' | 'idle_since_ms'>>;

export class SourceRows {
  private readonly stmts;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    const db: Database.Database = store.db;
    this.stmts = {
      byId: db.prepare<[string], SourceRow>(`${SELECT_SOURCE} WHERE s.source_id = ?`),
      update: db.prepare(
        `UPDATE inbox_sources SET config_json = ?, config_ref = ?, state = ?, error = ?, paused_by = ?, idle_since_ms = ?, updated_ms = ?
          WHERE source_id = ?`,
      ),
    };
  }

  find(sourceId: string): SourceRow | undefined {
    return this.stmts.byId.get(sourceId);
  }

  /** Throws 404 source_not_found. */
  get(sourceId: string): SourceRow {
    const row = this.stmts.byId.get(sourceId);
    if (!row) throw errors.sourceNotFound(sourceId, { sourceId });
    return row;
  }

  write(row: SourceRow, change: SourceChange): void {
    const next = { ...row, ...change };
    this.stmts.update.run(next.config_json, next.config_ref, next.state, next.error, next.paused_by, next.idle_since_ms, this.clock.now(), row.source_id);
  }

  /** After the transaction under way commits; at once outside one. */
  afterCommit(fn: () => void): void {
    if (this.store.inTransaction) this.store.afterCommit(fn);
    else fn();
  }
}
