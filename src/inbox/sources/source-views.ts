/**
 * The parts of AgentInbox's source detail (`GET /sources/{id}`, `GET /streams/{id}`) that svc
 * derives from a source: its `runtime` (who polls it), its `stream` record and its `idleState` in
 * AgentInbox's form (docs/agentinbox.md#hosts-sources-and-streams).
 *
 * - `runtime` is null for local_event sources (nothing polls them). A managed source is polled by
 *   this daemon's module workers: `{backend: "svc", observation: "live", namespace: "svc",
 *   sourceKey: "<sourceType>:<streamKey>", status: running | stopped | error, runId: null, streamId,
 *   lastError, updatedAt, startedAt: null, stoppedAt}` (AgentInbox's uxc runtime fields).
 * - `stream` is `{streamId, sourceId, streamKey: "source:<sourceId>", backend, createdAt}` as
 *   AgentInbox's event bus record, with svc's `compaction` and `streamStats` beside.
 * - `idleState` is `{sourceId, idleSince, autoPauseAt, autoPausedAt, updatedAt}` while a managed
 *   source waits for its idle auto-pause or was paused by it, else null; `autoPausedAt` is the time
 *   the pause was due.
 */
import type { StreamStats } from '../streams/index.js';
import type { Host, HostSchema } from './hosts.js';
import type { Source, SourceSchema } from './records.js';
import type { ResolvedIdentity } from './source-kinds.js';

export interface SourceRuntime {
  backend: 'svc';
  observation: 'live';
  namespace: 'svc';
  sourceKey: string;
  status: 'running' | 'stopped' | 'error';
  runId: null;
  streamId: string;
  lastError: string | null;
  updatedAt: string;
  startedAt: null;
  stoppedAt: string | null;
}

export interface StreamRecord {
  streamId: string;
  sourceId: string;
  streamKey: string;
  backend: string;
  createdAt: string;
  /** Whether the backend supports compaction. */
  compaction: boolean;
  /** Null until the first event. */
  streamStats: StreamStats | null;
}

export interface AgentInboxIdleState {
  sourceId: string;
  idleSince: string;
  autoPauseAt: string;
  autoPausedAt: string | null;
  updatedAt: string;
}

/** AgentInbox's `host show`: the host, its schema and its streams (sources). */
export interface HostDetail {
  host: Host;
  schema: HostSchema;
  streams: Source[];
}

/** AgentInbox's `source show` / `stream show`. `subscriptions` are the subscription records of the source. */
export interface SourceDetail {
  source: Source;
  runtime: SourceRuntime | null;
  host: Host;
  resolvedIdentity: ResolvedIdentity;
  /** Why a remote module cannot be resolved now (absent when it can). */
  resolutionError?: string;
  schema: SourceSchema;
  stream: StreamRecord;
  subscriptions: unknown[];
  idleState: AgentInboxIdleState | null;
}

export function sourceRuntime(source: Source): SourceRuntime | null {
  if (source.hostType === 'local_event') return null;
  return {
    backend: 'svc',
    observation: 'live',
    namespace: 'svc',
    sourceKey: `${source.sourceType}:${source.streamKey}`,
    status: source.state === 'paused' ? 'stopped' : source.state === 'error' ? 'error' : 'running',
    runId: null,
    streamId: source.sourceId,
    lastError: source.error,
    updatedAt: source.updatedAt,
    startedAt: null,
    stoppedAt: source.state === 'paused' ? source.updatedAt : null,
  };
}

/**
 * AgentInbox's backend stream id of a source (`str_…`: a source's `stream.streamId`, in consumers, lags
 * and status; a source record's own `streamId` is its source id, and the routes take the source id,
 * as AgentInbox's do): `src_X` has stream `str_X`.
 */
export function streamIdOf(sourceId: string): string {
  return `str_${sourceId.startsWith('src_') ? sourceId.slice(4) : sourceId}`;
}

export function streamRecord(source: Source, backend: { name: string; compaction: boolean }, streamStats: StreamStats | null): StreamRecord {
  return {
    streamId: streamIdOf(source.sourceId),
    sourceId: source.sourceId,
    streamKey: `source:${source.sourceId}`,
    backend: backend.name,
    createdAt: source.createdAt,
    compaction: backend.compaction,
    streamStats,
  };
}

export function agentInboxIdleState(source: Source, idleMs: number): AgentInboxIdleState | null {
  const idle = source.idleState;
  if (!idle) return null;
  const autoPauseAt = idle.pauseAt ?? new Date(Date.parse(idle.since) + idleMs).toISOString();
  return {
    sourceId: source.sourceId,
    idleSince: idle.since,
    autoPauseAt,
    autoPausedAt: idle.state === 'auto_paused' ? autoPauseAt : null,
    updatedAt: idle.state === 'auto_paused' ? autoPauseAt : idle.since,
  };
}
