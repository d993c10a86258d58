/**
 * What the stream service, its backends and compaction share: the stored event, and the stream
 * backend, where a source's events are stored. The SQLite backend (sqlite-backend.ts) is the one
 * shipped; a second backend (another database, an external log) implements this interface and may
 * leave out `compaction`, in which case the compaction routes answer 501 compaction_unsupported
 * and streamStats omits the compaction fields.
 *
 * Every method runs synchronously inside the caller's store transaction (the service decides the
 * transaction boundaries and group commit), so a backend stores into the same SQLite database
 * or keeps an equally durable journal of its own.
 *
 * A backend whose log lives elsewhere (jetstream/backend.ts) also has `remote`: appends are
 * published there outside any transaction, and the backend mirrors what the log holds into the
 * local tables as it consumes it, calling `deliver` inside each mirroring transaction. The
 * synchronous reads above answer from that mirror.
 */
import type { HostType } from '../types.js';

/** An event as a stream holds it, with its offset. */
export interface StoredEvent {
  sourceId: string;
  offset: number;
  id: string;
  type: string;
  subject: string | null;
  time: string;
  data: unknown;
  metadata: Record<string, unknown>;
  appendedAt: string;
  /** Payload removed by compaction: `data` is null and `metadata` is `{}`; identity fields remain. */
  pruned: boolean;
}


/** One event ready to store: defaults filled in, payload serialised once. */
export interface PreparedEvent {
  id: string;
  type: string;
  subject: string | null;
  /** RFC 3339 event time (the producer's, or the append time when absent). */
  time: string;
  timeMs: number;
  data: unknown;
  metadata: Record<string, unknown>;
  dataJson: string;
  metadataJson: string;
}

export interface BackendAppendResult {
  /** Newly stored events, in offset order (duplicates by id are left out). */
  stored: StoredEvent[];
  deduped: number;
}

export interface StreamBounds {
  /** First offset whose payload is kept (highWatermarkOffset + 1 when nothing is kept). */
  retainedFromOffset: number;
  /** Last assigned offset (0 for an empty stream). */
  highWatermarkOffset: number;
}

export interface StreamStats extends StreamBounds {
  eventCount: number;
  replayableEventCount: number;
  prunedEventCount?: number;
  prunedThroughOffset?: number;
}

/** One row a compaction pass looks at. */
export interface CompactionCandidate {
  offset: number;
  appendedMs: number;
  payloadBytes: number;
  pruned: boolean;
}

export interface PruneResult {
  events: number;
  bytes: number;
}

/**
 * Optional capability: payload pruning that keeps identity stubs and offsets. Pruning always
 * covers a prefix of the stream (offsets 1..prunedThroughOffset), so the retained range is
 * `prunedThroughOffset + 1 ..= highWatermarkOffset`.
 */
export interface CompactionSupport {
  /** Rows from `fromOffset` upwards in offset order, at most `limit`. */
  candidates(streamId: string, fromOffset: number, limit: number): CompactionCandidate[];
  /** Replace every payload at offsets <= throughOffset not yet pruned by an identity stub. */
  pruneThrough(streamId: string, throughOffset: number): PruneResult;
}

/** The sources a stream id names (sources/ has them): compaction checks the stream exists through it. */
export interface StreamOwners {
  /** The source behind a public stream id; throws 404 stream_not_found when there is none. */
  streamSource(streamId: string): unknown;
}

/** A source as daemons sharing one remote log know it (the catalogue). */
export interface SharedSource {
  sourceId: string;
  hostId: string;
  hostType: HostType;
  hostKey: string;
  hostConfig: Record<string, unknown>;
  streamKind: string;
  streamKey: string;
  config: Record<string, unknown>;
  configRef: string | null;
  createdMs: number;
  /** The daemon that registered it (it alone polls a managed source). */
  origin: string;
}

/** What a remote log calls back into (wired by the inbox). */
export interface RemoteHooks {
  /** Inside the mirroring transaction, with the newly mirrored events (as an append's listeners get them). */
  deliver(streamId: string, stored: StoredEvent[]): void;
  /** Sources registered on another daemon: make (or find) the local row; false when it conflicts. */
  importSource(source: SharedSource): boolean;
  /** A shared source was deleted elsewhere: delete it here too. */
  forgetSource(sourceId: string): void;
  /** Every local source id (mirrored from the start). */
  sourceIds(): string[];
  hasSource(sourceId: string): boolean;
}

export interface RemoteStreams {
  /** This daemon's id in the catalogue. */
  readonly origin: string;
  /** Connect; refuses the start with a one-line reason. */
  open(): Promise<void>;
  /** Begin mirroring every known stream and following the catalogue. */
  start(hooks: RemoteHooks): void;
  /** Publish (outside any transaction); resolves when the local mirror holds the events. */
  publish(streamId: string, events: PreparedEvent[], appendedMs: number): Promise<BackendAppendResult>;
  /** A source registered here: create its remote stream, share it, follow it. */
  created(source: SharedSource): Promise<void>;
  close(): Promise<void>;
}

export interface StreamBackend {
  readonly name: string;
  /** Create the stream's storage (idempotent). */
  ensure(streamId: string, appendedMs: number): void;
  exists(streamId: string): boolean;
  append(streamId: string, events: PreparedEvent[], appendedMs: number): BackendAppendResult;
  read(streamId: string, afterOffset: number, limit: number): StoredEvent[];
  offsetAtTime(streamId: string, timeMs: number): number;
  bounds(streamId: string): StreamBounds;
  stats(streamId: string): StreamStats | null;
  drop(streamId: string): void;
  compaction?: CompactionSupport;
  remote?: RemoteStreams;
}
