/**
 * Attempts: one notification row sent to its target by the deliverer of the target's kind
 * (webhook.ts, terminal.ts, runtime.ts), at most one attempt per target at a time, and what its
 * outcome does. A success marks the row sent; a failure keeps it pending and due again after
 * `delivery.retry_initial_ms` doubling per consecutive failure up to `delivery.retry_max_ms`,
 * with jitter (a delay d is drawn from [d/2, d]), or after the answer's `Retry-After`. A 410 (or
 * a deleted runtime agent) or `delivery.max_failures` consecutive failures take the target
 * offline: its rows stay pending, unattempted, until a resume recovers it. A deferred attempt (a
 * terminal whose agent is busy) keeps the row pending until `retryAfterMs` without counting a failure.
 * Which row is attempted when is the notifier's decision (notifier.ts).
 */
import type { Logger } from 'pino';
import type { Clock } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { Tracer } from '../../telemetry/index.js';
import type { NotificationRow, NotificationRows } from './notifications.js';
import type { TargetService } from './targets.js';
import type { AttemptOutcome, Deliverer, DeliverySettings, NotificationPayload, PendingNotification, TargetKind, TargetRow } from './types.js';

export interface DeliveryAttemptsDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  settings: () => DeliverySettings;
  targets: TargetService;
  rows: NotificationRows;
  deliverers: Record<TargetKind, Deliverer>;
  /** Jitter source in [0, 1). */
  random: () => number;
  tracer?: Tracer | undefined;
  /** After each attempt, recorded or not: the target's next moment is scheduled again. */
  settled: (targetId: string) => void;
}

export class DeliveryAttempts {
  private readonly inFlight = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  /** Aborted at stop: attempts under way end at once instead of holding up shutdown. */
  private readonly shutdown = new AbortController();

  constructor(private readonly deps: DeliveryAttemptsDeps) {}

  /** An attempt of this target is under way. */
  busy(targetId: string): boolean {
    return this.inFlight.has(targetId);
  }

  /** Attempt the target's head row now; resolves when its outcome is recorded. */
  run(row: TargetRow, head: NotificationRow): Promise<void> {
    const targetId = row.target_id;
    const deliverer = this.deps.deliverers[row.kind];
    const pending: PendingNotification = {
      notificationId: head.notification_id,
      targetId,
      agentId: row.agent_id,
      attempts: head.attempts + 1,
      payload: JSON.parse(head.payload) as NotificationPayload,
      body: head.payload,
    };
    const target = this.deps.targets.withSecret(row);
    this.inFlight.add(targetId);
    // Ids and kinds only: never the URL, the secret or the pane.
    const span = this.deps.tracer?.startSpan('inbox.delivery', {
      'svc.inbox.agent_id': row.agent_id,
      'svc.inbox.target_id': targetId,
      'svc.inbox.target_kind': row.kind,
      'svc.inbox.notification_id': head.notification_id,
      'svc.inbox.attempt': pending.attempts,
    });
    const run = (async () => {
      let outcome: AttemptOutcome = { ok: false, error: 'not attempted' };
      try {
        if (deliverer.transactional) {
          this.deps.store.tx(() => {
            this.markAttempted(head);
            try {
              outcome = this.deps.store.tx(() => deliverer.deliver(target, pending, this.shutdown.signal) as AttemptOutcome);
            } catch (err) {
              outcome = { ok: false, error: (err as Error).message };
            }
            this.record(head, outcome);
          });
        } else {
          this.deps.store.tx(() => this.markAttempted(head));
          try {
            outcome = await deliverer.deliver(target, pending, this.shutdown.signal);
          } catch (err) {
            outcome = { ok: false, error: (err as Error).message };
          }
          this.deps.store.tx(() => this.record(head, outcome));
        }
      } catch (err) {
        this.deps.logger.error({ err, targetId }, 'recording an inbox notification attempt failed');
      } finally {
        span?.end(outcome.ok ? 'ok' : 'error', outcome.ok ? undefined : outcome.error);
        this.inFlight.delete(targetId);
        this.deps.settled(targetId);
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }

  /** Resolves when every attempt under way has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Shutdown: deliverers see their signal aborted. */
  abort(): void {
    this.shutdown.abort();
  }

  private markAttempted(head: NotificationRow): void {
    this.deps.rows.attempted(head.notification_id);
    this.deps.targets.markAttempted(head.target_id);
  }

  /** The outcome of one attempt, in a transaction. The target row may be gone (deleted meanwhile). */
  private record(head: NotificationRow, outcome: AttemptOutcome): void {
    const now = this.deps.clock.now();
    if (!this.deps.targets.find(head.target_id)) return;
    if (outcome.ok) {
      this.deps.rows.sent(head.notification_id, now);
      this.deps.targets.markSucceeded(head.target_id, head.last_entry_id);
      return;
    }
    // A busy terminal (terminal-gate.ts) is not a failure: the row waits, the failure count stays.
    if (outcome.deferred) {
      this.deps.rows.retryAt(head.notification_id, now + (outcome.retryAfterMs ?? 0), outcome.error, now);
      return;
    }
    const { max_failures, retry_initial_ms, retry_max_ms } = this.deps.settings();
    const failures = this.deps.targets.markFailed(head.target_id, outcome.error);
    const offline = outcome.gone ? 'gone' : failures >= max_failures ? 'max_failures' : null;
    if (offline) {
      this.deps.targets.markOffline(head.target_id, offline);
      // Due at once when a resume recovers the target.
      this.deps.rows.retryAt(head.notification_id, now, outcome.error, now);
      this.deps.logger.warn({ targetId: head.target_id, reason: offline, failures }, 'inbox target went offline');
      return;
    }
    const delay =
      outcome.retryAfterMs !== undefined
        ? Math.min(outcome.retryAfterMs, retry_max_ms)
        : backoffDelay(failures, retry_initial_ms, retry_max_ms, this.deps.random);
    this.deps.rows.retryAt(head.notification_id, now + delay, outcome.error, now);
  }
}

/**
 * Delay before the next attempt after `failures` consecutive failures: retry_initial_ms doubling
 * per failure, capped at retry_max_ms, drawn from [d/2, d] ("equal jitter") so that many targets
 * failing together do not retry in lockstep, while a delay never exceeds its cap.
 */
export function backoffDelay(failures: number, initialMs: number, maxMs: number, random: () => number): number {
  const exp = Math.min(maxMs, initialMs * 2 ** Math.min(Math.max(0, failures - 1), 40));
  return Math.round(exp / 2 + (random() * exp) / 2);
}
