/**
 * The local diagnostics store: completed traces worth keeping after they leave the in-memory ring
 * (slow, failed, cancelled, or sampled) go to the `diagnostic_traces` table (migration 008).
 *
 * Off the request path: `offer` only selects and queues (bounded; a full queue drops the trace and
 * counts it in svc_diagnostics_writer_dropped_traces_total); a timer (unref'd) writes the queue
 * in one transaction per tick and trims the table to the newest `maxRows`. A failed write counts
 * svc_diagnostics_writer_failures_total and its traces as dropped; it never throws to a caller.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Store } from '../store/index.js';
import type { Metrics } from './metrics.js';
import { spanView, type CompletedTrace, type TraceSummary } from './tracing.js';

export type RetainReason = 'failed' | 'cancelled' | 'slow' | 'sampled';

export interface DiagnosticsOptions {
  /** A trace at least this long is `slow`. */
  slowMs?: number;
  /** Fraction of the remaining traces kept as `sampled` (0..1), decided by the trace id. */
  sampleRate?: number;
  /** Rows kept in the table (oldest deleted beyond it). */
  maxRows?: number;
  /** Traces waiting for the writer, at most. */
  maxPending?: number;
  /** Writer tick. */
  intervalMs?: number;
}

export const DIAGNOSTICS_DEFAULTS = { slowMs: 1000, sampleRate: 0.01, maxRows: 1000, maxPending: 512, intervalMs: 1000 } as const;

/** Why a trace is kept, or null. Failed beats cancelled beats slow beats sampled. */
export function retainReason(t: TraceSummary, slowMs: number, sampleRate: number): RetainReason | null {
  if (t.status === 'error') return 'failed';
  if (t.status === 'cancelled') return 'cancelled';
  if (t.duration_ms >= slowMs) return 'slow';
  // Deterministic on the (random) trace id: the first 4 bytes as a fraction of 2^32.
  if (sampleRate > 0 && parseInt(t.trace_id.slice(0, 8), 16) / 0x1_0000_0000 < sampleRate) return 'sampled';
  return null;
}

export interface StoredTraceSummary extends TraceSummary {
  reason: RetainReason;
  recorded_at: string;
}

export class DiagnosticsStore {
  readonly slowMs: number;
  readonly sampleRate: number;
  readonly maxRows: number;
  private readonly maxPending: number;
  private readonly intervalMs: number;
  private pending: Array<{ trace: CompletedTrace; reason: RetainReason }> = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly stmt;

  constructor(
    private readonly deps: { store: Store; metrics: Metrics; logger?: Logger; now?: () => number },
    opts: DiagnosticsOptions = {},
  ) {
    this.slowMs = opts.slowMs ?? DIAGNOSTICS_DEFAULTS.slowMs;
    this.sampleRate = opts.sampleRate ?? DIAGNOSTICS_DEFAULTS.sampleRate;
    this.maxRows = opts.maxRows ?? DIAGNOSTICS_DEFAULTS.maxRows;
    this.maxPending = opts.maxPending ?? DIAGNOSTICS_DEFAULTS.maxPending;
    this.intervalMs = opts.intervalMs ?? DIAGNOSTICS_DEFAULTS.intervalMs;
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO diagnostic_traces (trace_id, root_name, started_at, duration_ms, status, reason, span_count, spans, recorded_at)
         VALUES (@trace_id, @root_name, @started_at, @duration_ms, @status, @reason, @span_count, @spans, @recorded_at)`,
      ),
      trim: db.prepare(
        'DELETE FROM diagnostic_traces WHERE seq <= (SELECT seq FROM diagnostic_traces ORDER BY seq DESC LIMIT 1 OFFSET ?)',
      ),
      count: db.prepare('SELECT COUNT(*) AS n FROM diagnostic_traces'),
      list: db.prepare(
        'SELECT trace_id, root_name, started_at, duration_ms, status, reason, span_count, recorded_at FROM diagnostic_traces ORDER BY seq DESC LIMIT ?',
      ),
      get: db.prepare('SELECT * FROM diagnostic_traces WHERE trace_id = ?'),
    };
  }

  /** Tracer listener: select and queue (never blocks, never throws). */
  offer(trace: CompletedTrace): RetainReason | null {
    if (this.closed) return null;
    const reason = retainReason(trace.summary, this.slowMs, this.sampleRate);
    if (!reason) return null;
    if (this.pending.length >= this.maxPending) {
      this.deps.metrics.diagnosticsDropped.inc();
      return null;
    }
    this.pending.push({ trace, reason });
    return reason;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Write the queue in one transaction and trim the table. Returns the traces written. */
  flush(): number {
    if (this.pending.length === 0) return 0;
    const batch = this.pending;
    this.pending = [];
    const recordedAt = new Date(this.deps.now?.() ?? Date.now()).toISOString();
    try {
      this.deps.store.tx(() => {
        for (const { trace, reason } of batch) {
          const s = trace.summary;
          this.stmt.insert.run({
            trace_id: s.trace_id,
            root_name: s.root_name,
            started_at: s.started_at,
            duration_ms: s.duration_ms,
            status: s.status,
            reason,
            span_count: s.span_count,
            spans: JSON.stringify(trace.spans.map(spanView)),
            recorded_at: recordedAt,
          });
        }
        this.stmt.trim.run(this.maxRows);
      });
      return batch.length;
    } catch (err) {
      this.deps.metrics.diagnosticsFailures.inc();
      this.deps.metrics.diagnosticsDropped.inc(batch.length);
      this.deps.logger?.warn({ err: { message: (err as Error).message }, traces: batch.length }, 'diagnostics write failed; traces dropped');
      return 0;
    }
  }

  /** Newest first. */
  list(limit = 100): StoredTraceSummary[] {
    return this.stmt.list.all(limit) as StoredTraceSummary[];
  }

  count(): number {
    return (this.stmt.count.get() as { n: number }).n;
  }

  get(traceId: string): (StoredTraceSummary & { spans: ReturnType<typeof spanView>[] }) | null {
    const row = this.stmt.get.get(traceId) as (StoredTraceSummary & { spans: string; seq: number }) | undefined;
    if (!row) return null;
    const { seq: _seq, spans, ...rest } = row;
    return { ...rest, spans: JSON.parse(spans) };
  }

  /** Last write before the store closes; afterwards offers are ignored. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.closed) this.flush();
    this.closed = true;
  }
}
