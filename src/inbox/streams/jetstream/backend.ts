/**
 * The JetStream stream backend (`[inbox.streams] backend = "jetstream"`): source streams live in
 * a NATS JetStream cluster that several daemons share. The design, its guarantees and its failure
 * cases are written down in README.md beside this file; in short:
 *
 * - One JetStream stream per source stream, `<prefix>_<sourceId>` on subject `<prefix>.<sourceId>`;
 *   the inbox offset is the JetStream sequence, so offsets are gap-free and the same on every daemon.
 * - An append publishes each event with `Nats-Msg-Id` = its id (JetStream answers a repeat inside
 *   its duplicate window as a duplicate) after checking the local mirror for ids already stored; it
 *   is answered once JetStream acknowledged every event (stored on a quorum of replicas) and this
 *   daemon mirrored them, and counts as appended only what it stored. While the connection to NATS
 *   is down it is refused at once (connection.ts).
 * - Every daemon mirrors every stream into its own SQLite tables through an ordered consumer that
 *   starts after the mirror's head: the mirror, the subscriptions' matching and their consumer
 *   offsets commit in one transaction, so a restart resumes exactly where the mirror stopped and no
 *   event is matched twice or skipped. Reads (replay, offsets by time, stats) answer from the mirror.
 * - A copy of an id stored beyond the duplicate window is skipped by every mirror (the first
 *   offset of an id wins): it takes an offset and is never matched.
 * - The catalogue (a KV bucket `<prefix>_catalog`, catalog.ts) shares sources between daemons: a source
 *   registered on one daemon appears on the others; deleting it anywhere deletes it everywhere.
 * - JetStream retention (`max_age_s`, `max_bytes`) moves the retained range (every stream's state is
 *   listed every 5 s); compaction is not offered (501 compaction_unsupported).
 */
import type { JetStreamClient, JetStreamManager, JsMsg, PubAck } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { isoAt, errors } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';
import { SqliteStreamBackend } from '../sqlite-backend.js';
import type { BackendAppendResult, PreparedEvent, RemoteHooks, RemoteStreams, SharedSource, StoredEvent, StreamBackend, StreamBounds, StreamStats } from '../types.js';
import { watchCatalog } from './catalog.js';
import { decode, encodeAll, streamConfig, type Outgoing } from './layout.js';
import { ConnectionDown, ConnectionState, credentialOptions } from './connection.js';
import { natsLibrary, type NatsLibrary } from './library.js';
import { Follower } from './follower.js';

export interface JetStreamSettings {
  servers: string[];
  stream_prefix: string;
  replicas: number;
  max_age_s: number;
  max_bytes: number;
}

export interface JetStreamBackendDeps {
  store: Store;
  logger: Logger;
  settings: JetStreamSettings;
  /** The credential profile's material (a token or a .creds file), or null; read at open. */
  credential: () => string | null;
  /** This daemon's id in the catalogue. */
  origin: string;
}

/** How long an append waits for the local mirror before answering from JetStream's acks alone. */
const MIRROR_WAIT_MS = 5_000;
/** Stream info (the retained range) and catalogue retries. */
const REFRESH_MS = 5_000;
const RETRY_MS = 1_000;
const REQUEST_TIMEOUT_MS = 5_000;
const CONSUMER_EXPIRES_MS = 5_000;

export class JetStreamBackend implements StreamBackend, RemoteStreams {
  readonly name = 'jetstream';
  readonly remote: RemoteStreams = this;
  readonly origin: string;
  private readonly mirror: SqliteStreamBackend;
  private readonly followers = new Map<string, Follower>();
  /** Per stream: JetStream's last sequence as last seen. */
  private readonly lastSeq = new Map<string, number>();
  /** Sources being deleted because the catalogue says so (their remote stream is already gone). */
  private readonly forgetting = new Set<string>();
  /** Sources registered here whose stream or catalogue entry could not be written yet. */
  private readonly unshared = new Map<string, SharedSource>();
  private nc: NatsConnection | null = null;
  private nats: NatsLibrary | null = null;
  private readonly connection: ConnectionState;
  private js: JetStreamClient | null = null;
  private jsm: JetStreamManager | null = null;
  private catalog: KV | null = null;
  private hooks: RemoteHooks | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: JetStreamBackendDeps) {
    this.mirror = new SqliteStreamBackend(deps.store);
    this.origin = deps.origin;
    this.connection = new ConnectionState(deps.logger);
  }

  // --- names -----------------------------------------------------------------------------------

  streamName(streamId: string): string {
    return `${this.deps.settings.stream_prefix}_${streamId}`;
  }

  private subject(streamId: string): string {
    return `${this.deps.settings.stream_prefix}.${streamId}`;
  }

  // --- StreamBackend: reads answer from the mirror ---------------------------------------------

  ensure(streamId: string, appendedMs: number): void {
    this.mirror.ensure(streamId, appendedMs);
  }

  exists(streamId: string): boolean {
    return this.mirror.exists(streamId);
  }

  append(): BackendAppendResult {
    throw new Error('the jetstream backend publishes appends (remote.publish); nothing appends to it inside a transaction');
  }

  read(streamId: string, afterOffset: number, limit: number): StoredEvent[] {
    return this.mirror.read(streamId, afterOffset, limit);
  }

  offsetAtTime(streamId: string, timeMs: number): number {
    return this.mirror.offsetAtTime(streamId, timeMs);
  }

  /** The mirror's retained range, up to JetStream's last sequence as last seen (an ack or stream info), which the mirror may not hold yet. */
  bounds(streamId: string): StreamBounds {
    const b = this.mirror.bounds(streamId);
    return { retainedFromOffset: b.retainedFromOffset, highWatermarkOffset: Math.max(b.highWatermarkOffset, this.lastSeq.get(streamId) ?? 0) };
  }

  /** JetStream's range (firstSeq .. lastSeq); no compaction fields. */
  stats(streamId: string): StreamStats | null {
    if (!this.mirror.stats(streamId)) return null;
    const b = this.bounds(streamId);
    const retained = b.highWatermarkOffset - b.retainedFromOffset + 1;
    return { eventCount: retained, replayableEventCount: retained, ...b };
  }

  private sawSeq(streamId: string, seq: number): void {
    if (seq > (this.lastSeq.get(streamId) ?? 0)) this.lastSeq.set(streamId, seq);
  }

  /** Inside the source's delete transaction: the mirror goes; after commit the follower stops and, unless the catalogue deleted it, the remote stream and its catalogue entry go too. */
  drop(streamId: string): void {
    this.mirror.drop(streamId);
    const remoteToo = !this.forgetting.has(streamId);
    this.deps.store.afterCommit(() => {
      this.unfollow(streamId);
      this.unshared.delete(streamId);
      this.lastSeq.delete(streamId);
      if (remoteToo) void this.destroy(streamId);
    });
  }

  // --- RemoteStreams ---------------------------------------------------------------------------

  async open(): Promise<void> {
    const { servers } = this.deps.settings;
    // A missing or unreadable credential profile is its own error, before any connection.
    const material = this.deps.credential();
    const nats = (this.nats = await natsLibrary());
    const auth = credentialOptions(material, nats.transport);
    try {
      this.nc = await nats.transport.connect({ servers, name: `svc ${this.origin}`, maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: REQUEST_TIMEOUT_MS, ...auth });
    } catch (err) {
      throw new Error(`inbox.streams: cannot connect to NATS at ${servers.join(', ')}: ${(err as Error).message}`);
    }
    try {
      this.jsm = await nats.jetstream.jetstreamManager(this.nc, { timeout: REQUEST_TIMEOUT_MS });
      this.js = nats.jetstream.jetstream(this.nc, { timeout: REQUEST_TIMEOUT_MS });
      this.catalog = await new nats.kv.Kvm(this.js).create(`${this.deps.settings.stream_prefix}_catalog`, { replicas: this.deps.settings.replicas, history: 1 });
    } catch (err) {
      await this.nc.close().catch(() => {});
      throw new Error(`inbox.streams: JetStream at ${servers.join(', ')} is not usable: ${(err as Error).message}`);
    }
    void this.connection.watch(this.nc, () => this.closed, () => {
      for (const f of this.followers.values()) f.stopConsumer?.();
    });
    await this.loadHeads();
  }

  /** Before serving: every stream's last sequence, so stats and `latest` starts are JetStream's even while the mirror catches up. */
  private async loadHeads(): Promise<void> {
    await this.eachStream((id, _first, last) => this.sawSeq(id, last)).catch(() => {});
  }

  /** Every stream of this prefix with its range, from one listing (256 streams a page). */
  private async eachStream(fn: (streamId: string, first: number, last: number) => unknown): Promise<void> {
    const prefix = `${this.deps.settings.stream_prefix}_`;
    for await (const info of this.jsm!.streams.list(`${this.deps.settings.stream_prefix}.>`)) {
      if (info.config.name.startsWith(prefix)) await fn(info.config.name.slice(prefix.length), info.state.first_seq, info.state.last_seq);
    }
  }

  start(hooks: RemoteHooks): void {
    this.hooks = hooks;
    for (const id of hooks.sourceIds()) this.follow(id);
    void this.watchCatalog();
    this.refreshTimer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.refreshTimer.unref();
  }

  async created(source: SharedSource): Promise<void> {
    this.follow(source.sourceId);
    try {
      await this.share(source);
    } catch (err) {
      this.unshared.set(source.sourceId, source);
      this.deps.logger.warn({ sourceId: source.sourceId, err: (err as Error).message }, 'inbox.streams: source not shared yet; retrying');
    }
  }

  /**
   * Refused at once (503) while the connection is down. What counts as appended is what this
   * append stored: an id the mirror already held, a copy JetStream dropped as a duplicate (the same
   * id appended through another daemon at the same moment) and a copy the mirror skips (the id's
   * first offset wins) are `deduped`. Each copy names its append (`appendId`), so once the mirror
   * has caught up the kept copy of each id tells whose it is.
   */
  async publish(streamId: string, events: PreparedEvent[], appendedMs: number): Promise<BackendAppendResult> {
    const js = this.js;
    if (!js || this.closed) throw errors.streamBackendUnavailable(streamId, 'not connected to NATS');
    if (this.connection.down) throw errors.streamBackendUnavailable(streamId, new ConnectionDown().message);
    const follower = this.follow(streamId);
    const known = new Set(this.mirror.offsetsOf(streamId, events.map((e) => e.id)).keys());
    const fresh: PreparedEvent[] = [];
    for (const e of events) {
      if (known.has(e.id)) continue;
      known.add(e.id);
      fresh.push(e);
    }
    if (fresh.length === 0) return { stored: [], deduped: events.length };
    const appendId = randomBytes(12).toString('base64url');
    const outgoing = encodeAll(streamId, fresh, appendedMs, appendId, this.nc?.info?.max_payload ?? Infinity);
    const copies = new Map<string, number>();
    follower.copies.set(appendId, copies);
    try {
      const { offsets, acked } = await this.send(js, follower, outgoing);
      const mine = fresh.filter((e) => acked.has(e.id) || (offsets.has(e.id) && copies.get(e.id) === offsets.get(e.id)));
      // Read from the mirror when it holds them; else (it lags) built from the acknowledgements.
      const mirrored = this.mirror.at(streamId, mine.map((e) => offsets.get(e.id)!));
      const stored: StoredEvent[] =
        mirrored.length === mine.length
          ? mirrored
          : mine.map((e) => ({ sourceId: streamId, offset: offsets.get(e.id)!, id: e.id, type: e.type, subject: e.subject, time: e.time, data: e.data, metadata: e.metadata, appendedAt: isoAt(appendedMs), pruned: false }));
      stored.sort((x, y) => x.offset - y.offset);
      return { stored, deduped: events.length - stored.length };
    } finally {
      follower.copies.delete(appendId);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    for (const id of [...this.followers.keys()]) this.unfollow(id);
    await this.nc?.drain().catch(() => {});
  }

  // --- publishing ------------------------------------------------------------------------------

  /**
   * Publish `events` and wait for the mirror. Returns each id's offset in the mirror (the id's first
   * offset); if the mirror has not caught up in time, what it does not hold yet has its acknowledged
   * sequence instead and is listed in `acked` (counted as appended: the mirror cannot tell yet).
   */
  private async send(js: JetStreamClient, follower: Follower, events: Outgoing[]): Promise<{ offsets: Map<string, number>; acked: Set<string> }> {
    const streamId = follower.streamId;
    const ids = events.map((o) => o.id);
    const last = await this.withStream(streamId, () => this.sendBatch(js, streamId, events));
    this.sawSeq(streamId, last.seq);
    await this.caughtUp(follower, last.seq);
    const offsets = this.mirror.offsetsOf(streamId, ids);
    const retry = events.filter((o) => !offsets.has(o.id));
    if (retry.length === 0) return { offsets, acked: new Set() };
    // Dropped on the way (a leader change) or not mirrored in time: one acknowledged publish
    // each; a copy JetStream already holds is answered as a duplicate with its sequence.
    const acks = await this.withStream(streamId, () => this.connection.whileUp(() => Promise.all(retry.map((o) => this.sendOne(js, streamId, o)))));
    const through = Math.max(...acks.map((a) => a.seq));
    this.sawSeq(streamId, through);
    if (await this.caughtUp(follower, through)) return { offsets: this.mirror.offsetsOf(streamId, ids), acked: new Set() };
    acks.forEach((a, i) => offsets.set(retry[i]!.id, a.seq));
    return { offsets, acked: new Set(retry.map((o) => o.id)) };
  }

  /**
   * A batch in order on one connection with one acknowledgement, for its last event: JetStream
   * stores a connection's messages in order, so once the last one is stored every earlier one is
   * stored or was dropped (send() finds those in the mirror and sends them again). Refused as soon
   * as the connection drops.
   */
  private sendBatch(js: JetStreamClient, streamId: string, events: Outgoing[]): Promise<PubAck> {
    const subject = this.subject(streamId);
    return this.connection.whileUp(() => {
      for (let i = 0; i < events.length - 1; i++) {
        const h = this.nats!.transport.headers();
        h.set('Nats-Msg-Id', events[i]!.id);
        this.nc!.publish(subject, events[i]!.body, { headers: h });
      }
      return this.sendOne(js, streamId, events[events.length - 1]!);
    });
  }

  private sendOne(js: JetStreamClient, streamId: string, e: Outgoing): Promise<PubAck> {
    return js.publish(this.subject(streamId), e.body, { msgID: e.id, timeout: REQUEST_TIMEOUT_MS });
  }

  /** Run a publish; a stream missing in JetStream (created while NATS was unreachable) is created and the publish retried once. Failures are 503. */
  private async withStream<T>(streamId: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (first) {
      if (!isNoStream(first)) throw errors.streamBackendUnavailable(streamId, (first as Error).message);
      try {
        await this.ensureStream(streamId);
        return await send();
      } catch (err) {
        throw errors.streamBackendUnavailable(streamId, (err as Error).message);
      }
    }
  }

  private async ensureStream(streamId: string): Promise<void> {
    const config = streamConfig(this.deps.settings, this.streamName(streamId), this.subject(streamId), this.nats!);
    try {
      await this.jsm!.streams.add(config);
    } catch (err) {
      // Created earlier with other limits (the configuration changed): take the current ones.
      if (!/already in use/i.test((err as Error).message)) throw err;
      await this.jsm!.streams.update(config.name, config);
    }
  }

  private async share(source: SharedSource): Promise<void> {
    await this.ensureStream(source.sourceId);
    await this.catalog!.put(`source.${source.sourceId}`, JSON.stringify(source));
    this.unshared.delete(source.sourceId);
  }

  private async destroy(streamId: string): Promise<void> {
    try {
      await this.catalog?.delete(`source.${streamId}`);
      await this.jsm?.streams.delete(this.streamName(streamId));
    } catch (err) {
      if (!isNoStream(err)) this.deps.logger.warn({ sourceId: streamId, err: (err as Error).message }, 'inbox.streams: remote stream not deleted');
    }
  }

  // --- mirroring -------------------------------------------------------------------------------

  private follow(streamId: string): Follower {
    let f = this.followers.get(streamId);
    if (f) return f;
    f = new Follower(streamId, this.mirror.bounds(streamId).highWatermarkOffset);
    this.followers.set(streamId, f);
    if (this.js && !this.closed) void this.consume(f);
    return f;
  }

  private unfollow(streamId: string): void {
    const f = this.followers.get(streamId);
    if (!f) return;
    f.stop();
    this.followers.delete(streamId);
  }

  /** An ordered consumer from the mirror's head, recreated after errors (a stream not created yet, a lost leader). */
  private async consume(f: Follower): Promise<void> {
    while (!f.stopped && !this.closed) {
      try {
        f.resetting = false;
        f.resumed = true;
        const consumer = await this.js!.consumers.get(this.streamName(f.streamId), { deliver_policy: this.nats!.jetstream.DeliverPolicy.StartSequence, opt_start_seq: f.received + 1 });
        // Short pulls: a consumer whose server went away notices within seconds (missed heartbeats).
        const messages = await consumer.consume({ callback: (m) => this.receive(f, m), expires: CONSUMER_EXPIRES_MS });
        f.stopConsumer = () => messages.stop();
        if (f.stopped) messages.stop();
        await this.refreshOne(f.streamId);
        const end = await messages.closed();
        if (end instanceof Error) throw end;
      } catch (err) {
        if (!isNoStream(err)) this.deps.logger.debug({ sourceId: f.streamId, err: (err as Error).message }, 'inbox.streams: consumer restarting');
      }
      f.stopConsumer = null;
      if (!f.stopped && !this.closed) await new Promise((r) => setTimeout(r, RETRY_MS).unref());
    }
  }

  private receive(f: Follower, m: JsMsg): void {
    if (f.stopped || f.resetting || m.seq <= f.received) return;
    f.received = m.seq;
    f.take(decode(m));
    if (f.flushScheduled) return;
    f.flushScheduled = true;
    setImmediate(() => this.flush(f));
  }

  /** One group-committed transaction: the mirror, and the matching the inbox does on the new events. */
  private flush(f: Follower): void {
    f.flushScheduled = false;
    if (this.closed) return;
    const items = f.pending.splice(0);
    if (items.length === 0) return;
    const through = items[items.length - 1]!.offset;
    const epoch = f.epoch;
    this.deps.store
      .write(() => {
        if (f.stopped || epoch !== f.epoch || !this.hooks?.hasSource(f.streamId)) return;
        const stored = this.mirror.mirror(f.streamId, items);
        if (stored.length > 0) this.hooks.deliver(f.streamId, stored);
      })
      .then(
        () => {
          if (epoch !== f.epoch) return;
          f.ingested = Math.max(f.ingested, through);
          f.settle();
        },
        (err: Error) => {
          if (epoch !== f.epoch) return;
          // Nothing of this batch committed: start again after what did.
          this.deps.logger.error({ sourceId: f.streamId, err: err.message }, 'inbox.streams: mirror write failed; the consumer restarts');
          f.epoch++;
          f.pending = [];
          f.received = f.ingested;
          f.resetting = true;
          f.stopConsumer?.();
        },
      );
  }

  /**
   * Resolves when the mirror holds `through`; false after MIRROR_WAIT_MS, and then the consumer is
   * started again: a consumer whose server went away (a node lost, its stream's leader moving) may
   * stall without an error while JetStream holds newer events.
   */
  private caughtUp(f: Follower, through: number): Promise<boolean> {
    return f.holds(through, MIRROR_WAIT_MS, () => f.restartStalled(this.deps.logger, 'an append waited for the mirror'));
  }

  // --- catalogue and retention -----------------------------------------------------------------

  /** Every source in the catalogue (current values, then changes): import and follow, or forget. */
  private watchCatalog(): Promise<void> {
    return watchCatalog(this.catalog!, {
      logger: this.deps.logger,
      closed: () => this.closed,
      retryMs: RETRY_MS,
      put: (source) => {
        if (!this.hooks) return;
        if (source.origin === this.origin || this.hooks.hasSource(source.sourceId) || this.hooks.importSource(source)) this.follow(source.sourceId);
      },
      deleted: (sourceId) => this.forget(sourceId),
    });
  }

  private forget(sourceId: string): void {
    if (!this.hooks?.hasSource(sourceId)) return;
    this.forgetting.add(sourceId);
    try {
      this.hooks.forgetSource(sourceId);
    } finally {
      this.forgetting.delete(sourceId);
    }
  }

  /** Every stream's state in one listing (256 streams a page), not one request per stream. */
  private async refresh(): Promise<void> {
    for (const source of [...this.unshared.values()]) await this.share(source).catch(() => {});
    try {
      await this.eachStream((id, first, last) => this.followers.has(id) && this.retained(id, first, last));
    } catch (err) {
      if (!this.closed) this.deps.logger.debug({ err: (err as Error).message }, 'inbox.streams: stream listing failed; next time');
    }
  }

  private async refreshOne(streamId: string): Promise<void> {
    const info = await this.jsm!.streams.info(this.streamName(streamId));
    await this.retained(streamId, info.state.first_seq, info.state.last_seq);
  }

  /** JetStream's first sequence is the start of the retained range (its limits dropped what is before). */
  private async retained(streamId: string, first: number, last: number): Promise<void> {
    this.sawSeq(streamId, last);
    const f = this.followers.get(streamId);
    // JetStream holds events the consumer has not delivered since the last look: it stalled.
    if (f && last > f.received && f.received === f.receivedAtLastLook) f.restartStalled(this.deps.logger, `JetStream is at ${last}`);
    if (f) f.receivedAtLastLook = f.received;
    if (first > this.mirror.bounds(streamId).retainedFromOffset && this.followers.has(streamId)) {
      await this.deps.store.write(() => {
        if (this.hooks?.hasSource(streamId)) this.mirror.retainFrom(streamId, Math.min(first, last + 1));
      });
    }
  }
}

function isNoStream(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /stream not found|no responders|no stream matches/i.test(message);
}
