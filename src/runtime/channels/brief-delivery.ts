/**
 * Delivery of briefs to operators (issue 4 item 6; spec "Operator binding fields", Authentication 5).
 *
 * When a `result` or `failure` brief is created for a message that came in through operator
 * ingress (its metadata names the binding and the reply route, see bindings.ts), a durable row
 * in `brief_deliveries` is written in the brief's own transaction (BriefService.onCreated). A
 * worker then POSTs `{brief, agent_id, binding_id, reply_route_id, correlation_id, message_id}`
 * as JSON to the binding's `delivery_callback_url` with `Authorization: Bearer <credential>` and
 * `Idempotency-Key: <brief_id>`. Any 2xx delivers; anything else (a timeout of
 * `delivery.timeout_ms`, a connection error, another status, a redirect, which is never followed
 * so the credential goes nowhere else) is retried after `delivery.retry_initial_ms` doubling per
 * attempt, jittered into [d/2, d], capped at `delivery.retry_max_ms`, or after the server's
 * Retry-After (capped the same); after `delivery.max_failures` attempts, or at once on 410 Gone
 * or when the binding is gone, inactive or has no callback, the delivery is `failed`.
 *
 * Delivery is at least once: an attempt cut short by a crash is repeated at the next start, so
 * receivers deduplicate by brief id. Each outcome commits with its event in the agent's log
 * (`brief_delivered`, `brief_delivery_failed`), which never carries the credential or the
 * callback URL; log lines name the callback's origin only. Retries are scheduled against the
 * injected clock (TimerSchedule); tests advance a ManualClock and call `runDue()`.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../config/index.js';
import { isoAt, type Clock } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { Tracer } from '../../telemetry/index.js';
import type { BindingService } from './bindings.js';
import type { Brief, BriefKind, BriefService } from './briefs.js';
import type { ResourceService } from '../deps.js';
import type { MessageQueue } from '../agents/index.js';
import { TimerSchedule } from '../timers/index.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** Briefs that answer an operator's message: what a turn ended with. */
const DELIVERED_KINDS: ReadonlySet<BriefKind> = new Set(['result', 'failure']);
/** Attempts in flight at once (all agents); the rest wait in the schedule. */
const MAX_IN_FLIGHT = 8;
const STATE_LIMIT = 50;

export interface BriefDeliveryDeps {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  store: Store;
  events: EventLog;
  queue: MessageQueue;
  bindings: BindingService;
  briefs: BriefService;
  tracer?: Tracer;
  /** Jitter source in [0, 1); tests pin it. */
  random?: () => number;
}

/** The JSON body POSTed to the callback. */
export interface DeliveryPayload {
  brief: Brief;
  agent_id: string;
  binding_id: string;
  reply_route_id: string | null;
  correlation_id: string | null;
  message_id: string;
}

interface Row {
  brief_id: string;
  agent_id: string;
  binding_id: string;
  status: DeliveryStatus;
  payload: string;
  attempts: number;
  next_attempt_ms: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What one attempt came to. `retryAfterMs` from the server; `final` gives up whatever the count. */
interface Outcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  retryAfterMs?: number | null;
  final?: boolean;
}

export class BriefDelivery implements ResourceService {
  private readonly stmt;
  private readonly schedule: TimerSchedule;
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly random: () => number;
  private stopped = false;

  constructor(private readonly deps: BriefDeliveryDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO brief_deliveries (brief_id, agent_id, binding_id, status, payload, attempts, next_attempt_ms, created_at, updated_at)
         VALUES (@brief_id, @agent_id, @binding_id, 'pending', @payload, 0, @next_attempt_ms, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM brief_deliveries WHERE brief_id = ?'),
      pending: db.prepare("SELECT brief_id, next_attempt_ms FROM brief_deliveries WHERE status = 'pending'"),
      ofAgent: db.prepare('SELECT * FROM brief_deliveries WHERE agent_id = ? ORDER BY created_at DESC, brief_id DESC LIMIT ?'),
      record: db.prepare(
        `UPDATE brief_deliveries SET status = @status, attempts = @attempts, next_attempt_ms = @next_attempt_ms,
           last_status_code = @last_status_code, last_error = @last_error, updated_at = @now WHERE brief_id = @brief_id`,
      ),
      purge: db.prepare('DELETE FROM brief_deliveries WHERE agent_id = ?'),
    };
    this.random = deps.random ?? Math.random;
    this.schedule = new TimerSchedule(deps.clock, () => this.runDue());
    deps.briefs.onCreated((brief) => this.onBriefCreated(brief));
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Pending deliveries (also those cut short by a crash) resume; overdue ones go now. */
  start(): void {
    this.stopped = false;
    let n = 0;
    for (const row of this.stmt.pending.iterate() as Iterable<Pick<Row, 'brief_id' | 'next_attempt_ms'>>) {
      this.schedule.set(row.brief_id, row.next_attempt_ms ?? this.deps.clock.now());
      n++;
    }
    if (n > 0) this.deps.logger.info({ pending: n }, 'brief deliveries resumed');
    this.runDue();
  }

  /** Shutdown: attempts in flight are abandoned unrecorded (they are repeated at the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.schedule.stop();
    const all = [...this.inFlight.values()];
    for (const f of all) f.abort.abort();
    await Promise.all(all.map((f) => f.done));
  }

  /** The agent is being deleted: its deliveries stop and are forgotten. */
  async stopAgent(agentId: string): Promise<void> {
    const rows = this.stmt.ofAgent.all(agentId, Number.MAX_SAFE_INTEGER) as Row[];
    this.deps.store.tx(() => this.stmt.purge.run(agentId));
    for (const row of rows) {
      this.schedule.remove(row.brief_id);
      this.inFlight.get(row.brief_id)?.abort.abort();
    }
    await Promise.all(rows.map((r) => this.inFlight.get(r.brief_id)?.done));
  }

  /** Recent deliveries of the agent (no URL, no credential). */
  stateFor(agentId: string): unknown[] {
    return (this.stmt.ofAgent.all(agentId, STATE_LIMIT) as Row[]).map(view);
  }

  /** One delivery's record, or null. */
  get(briefId: string) {
    const row = this.stmt.get.get(briefId) as Row | undefined;
    return row ? view(row) : null;
  }

  // --- creation (inside the brief's transaction) -----------------------------------------------

  private onBriefCreated(brief: Brief): void {
    if (!DELIVERED_KINDS.has(brief.kind) || brief.message_id === null) return;
    const message = this.deps.queue.get(brief.message_id);
    if (!message || message.delivery_surface !== 'operator_ingress') return;
    const bindingId = message.metadata.binding_id;
    if (typeof bindingId !== 'string') return;
    // A binding without a callback has nowhere to deliver to: the brief stays readable through the API.
    if (!this.deps.bindings.deliveryTarget(bindingId)?.delivery_callback_url) return;
    const replyRoute = message.metadata.reply_route_id;
    const payload: DeliveryPayload = {
      brief,
      agent_id: brief.agent_id,
      binding_id: bindingId,
      reply_route_id: typeof replyRoute === 'string' ? replyRoute : null,
      correlation_id: message.correlation_id,
      message_id: message.message_id,
    };
    const now = this.deps.clock.now();
    this.stmt.insert.run({
      brief_id: brief.brief_id,
      agent_id: brief.agent_id,
      binding_id: bindingId,
      payload: JSON.stringify(payload),
      next_attempt_ms: now,
      now: isoAt(now),
    });
    this.deps.store.afterCommit(() => {
      if (!this.stopped) this.schedule.set(brief.brief_id, now);
    });
  }

  // --- the worker ------------------------------------------------------------------------------

  /**
   * Start every attempt that is due by the clock, as many as free slots allow; returns how many
   * started. The schedule's timeout calls this, so does every finished attempt; tests call it
   * after advancing a ManualClock and await `idle()`.
   */
  runDue(): number {
    if (this.stopped) return 0;
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    // Full: the next finished attempt calls back here (arming now would spin on due entries).
    if (free <= 0) return 0;
    const due = this.schedule.takeDue(this.deps.clock.now(), free);
    for (const e of due) this.launch(e.timerId);
    this.schedule.arm();
    return due.length;
  }

  /** Resolves when no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  private launch(briefId: string): void {
    if (this.inFlight.has(briefId)) return;
    const abort = new AbortController();
    const done = this.attempt(briefId, abort.signal)
      .catch((err) => this.deps.logger.error({ err, brief_id: briefId }, 'brief delivery attempt failed unexpectedly'))
      .finally(() => {
        this.inFlight.delete(briefId);
        this.runDue();
      });
    this.inFlight.set(briefId, { abort, done });
  }

  private async attempt(briefId: string, signal: AbortSignal): Promise<void> {
    const row = this.stmt.get.get(briefId) as Row | undefined;
    if (!row || row.status !== 'pending') return;
    const attempt = row.attempts + 1;
    const target = this.deps.bindings.deliveryTarget(row.binding_id);
    const span = this.deps.tracer?.startSpan(
      'brief.delivery',
      { 'svc.agent_id': row.agent_id, 'svc.brief_id': briefId, 'svc.binding_id': row.binding_id, 'svc.delivery.attempt': attempt },
      null,
    );
    let outcome: Outcome;
    if (!target || target.agent_id !== row.agent_id) outcome = { delivered: false, statusCode: null, error: 'the binding no longer exists', final: true };
    else if (target.status !== 'active') outcome = { delivered: false, statusCode: null, error: 'the binding is inactive', final: true };
    else if (!target.delivery_callback_url) outcome = { delivered: false, statusCode: null, error: 'the binding has no delivery_callback_url', final: true };
    else outcome = await this.post(target.delivery_callback_url, target.delivery_auth?.bearer_token ?? null, row, signal);
    if (signal.aborted) {
      // Shutdown or agent deletion, not the receiver's doing: nothing is recorded.
      span?.end('cancelled');
      return;
    }
    span?.setAttribute('http.response.status_code', outcome.statusCode);
    span?.end(outcome.delivered ? 'ok' : 'error', outcome.error ?? undefined);
    this.record(row, attempt, outcome, target?.delivery_callback_url ?? null);
  }

  /** One POST. Never throws; the error text never holds the URL or the credential. */
  private async post(url: string, token: string | null, row: Row, signal: AbortSignal): Promise<Outcome> {
    const timeoutMs = this.deps.config.values.delivery.timeout_ms;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': row.brief_id };
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body: row.payload,
        redirect: 'manual',
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      await res.body?.cancel().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return { delivered: true, statusCode: res.status, error: null };
      const redirect = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
      return {
        delivered: false,
        statusCode: res.status,
        error: `HTTP ${res.status}${redirect}`,
        retryAfterMs: retryAfterMs(res.headers.get('retry-after'), this.deps.clock.now()),
        final: res.status === 410,
      };
    } catch (err) {
      if (signal.aborted) return { delivered: false, statusCode: null, error: 'aborted' };
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const text = e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : [e.message, e.cause?.code ?? e.cause?.message].filter(Boolean).join(': ');
      return { delivered: false, statusCode: null, error: scrub(text, url, token) };
    }
  }

  /** Commit the attempt's outcome with its event; schedule the retry after the commit. */
  private record(row: Row, attempt: number, o: Outcome, url: string | null): void {
    const now = this.deps.clock.now();
    const maxFailures = this.deps.config.values.delivery.max_failures;
    const giveUp = !o.delivered && (o.final === true || attempt >= maxFailures);
    const next = o.delivered || giveUp ? null : now + this.delay(attempt, o.retryAfterMs ?? null);
    const status: DeliveryStatus = o.delivered ? 'delivered' : giveUp ? 'failed' : 'pending';
    const committed = this.deps.store.tx(() => {
      const current = this.stmt.get.get(row.brief_id) as Row | undefined;
      if (!current || current.status !== 'pending') return false; // purged (agent deleted) meanwhile
      this.stmt.record.run({
        brief_id: row.brief_id,
        status,
        attempts: attempt,
        next_attempt_ms: next,
        last_status_code: o.statusCode,
        last_error: o.error,
        now: isoAt(now),
      });
      if (o.delivered) {
        this.deps.events.append(row.agent_id, 'brief_delivered', {
          brief_id: row.brief_id,
          binding_id: row.binding_id,
          attempts: attempt,
          status_code: o.statusCode,
        });
      } else {
        this.deps.events.append(row.agent_id, 'brief_delivery_failed', {
          brief_id: row.brief_id,
          binding_id: row.binding_id,
          attempt,
          error: o.error,
          status_code: o.statusCode,
          next_attempt_at: next === null ? null : isoAt(next),
        });
      }
      return true;
    });
    if (!committed) return;
    if (next !== null) this.schedule.set(row.brief_id, next);
    const log = { brief_id: row.brief_id, binding_id: row.binding_id, agent_id: row.agent_id, target: originOf(url), attempt };
    if (o.delivered) this.deps.logger.debug({ ...log, status_code: o.statusCode }, 'brief delivered');
    else this.deps.logger.warn({ ...log, error: o.error, next_attempt_at: next === null ? null : isoAt(next) }, giveUp ? 'brief delivery failed; giving up' : 'brief delivery failed; will retry');
  }

  /** Retry-After when the server sent one, else retry_initial_ms * 2^(attempt-1) jittered into [d/2, d]; both capped. */
  private delay(attempt: number, retryAfter: number | null): number {
    const { retry_initial_ms: initial, retry_max_ms: max } = this.deps.config.values.delivery;
    if (retryAfter !== null) return Math.min(max, retryAfter);
    const d = Math.min(max, initial * 2 ** Math.min(attempt - 1, 52));
    return Math.round(d / 2 + (this.random() * d) / 2);
  }
}

function view(row: Row) {
  return {
    brief_id: row.brief_id,
    binding_id: row.binding_id,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_ms === null || row.status !== 'pending' ? null : isoAt(row.next_attempt_ms),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The callback's origin (scheme, host, port) for logs: paths and queries may hold secrets. */
function originOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).origin;
  } catch {
    return '[invalid url]';
  }
}

function scrub(text: string, url: string, token: string | null): string {
  let out = text.replaceAll(url, originOf(url) ?? '');
  if (token) out = out.replaceAll(token, '[redacted]');
  return out;
}
