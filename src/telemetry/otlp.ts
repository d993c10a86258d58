/**
 * OTLP/HTTP JSON trace export (spec "Events" item 8, docs/configuration.md#traces
 * `[runtime.observability.otlp]`), with the OpenTelemetry exporter
 * (`OTLPTraceExporter` from @opentelemetry/exporter-trace-otlp-http).
 *
 * We feed the library ReadableSpan-shaped objects built from our own span records: its JSON
 * serializer only reads plain fields (ids, times as HrTime, attributes, status, resource
 * attributes, scope), so no SDK tracer is needed, and we keep its transport (timeouts, bounded
 * retries inside `timeout_ms`, concurrency limit, JSON encoding) instead of rewriting it.
 *
 * Never blocks the traced work: `enqueue` is an array push into a bounded queue (full: the span
 * is dropped and counted); a timer (unref'd) sends at most one batch at a time, each bounded by
 * `timeout_ms` (plus our own guard in case the library never calls back). Failed batches count
 * svc_otlp_exporter_failed_batches_total and their spans svc_otlp_exporter_dropped_spans_total;
 * svc_otlp_exporter_queue_depth follows the queue.
 *
 * Credentials: `credential_profile` names a profile in `<home>/credentials.json` (mode 0600,
 * `{"profiles": {"NAME": {"token": "..."}}}`), sent as `Authorization: Bearer <token>`. A missing
 * file or profile, or a file readable by group/others, is a start-up error. The token is never
 * logged (only the profile name is).
 */
import { createRequire } from 'node:module';
import type { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { VERSION } from '../version.js';
import { CredentialStore } from '../store/index.js';
import type { Metrics } from './metrics.js';
import type { SpanRecord } from './tracing.js';

export type OtlpConfig = Config['runtime']['observability']['otlp'];
type ReadableSpan = Parameters<OTLPTraceExporter['export']>[0][number];

/** The slice of the library's exporter we use (a fake in tests). */
export interface SpanExportClient {
  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

/**
 * The library (a dozen @opentelemetry packages) is loaded when export is turned on, not with every
 * daemon and CLI start that never uses it.
 */
function libraryExporter(opts: { url: string; headers: Record<string, string>; timeoutMillis: number }): SpanExportClient {
  const lib = createRequire(import.meta.url)('@opentelemetry/exporter-trace-otlp-http') as { OTLPTraceExporter: typeof OTLPTraceExporter };
  return new lib.OTLPTraceExporter({ ...opts, concurrencyLimit: 2 });
}

const SHUTDOWN_DEADLINE_MS = 1000;
/** Extra time past `timeout_ms` before a batch the library never answered counts as failed. */
const CALLBACK_GRACE_MS = 1000;

export class OtlpStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpStartupError';
  }
}

/** Read a bearer token from the credential store; throws OtlpStartupError with a one-line reason. */
export function readCredentialToken(home: string, profile: string): string {
  try {
    return new CredentialStore(home).required(profile, 'runtime.observability.otlp.credential_profile');
  } catch (err) {
    throw new OtlpStartupError((err as Error).message);
  }
}

export interface OtlpDeps {
  config: OtlpConfig;
  home: string;
  metrics: Metrics;
  logger: Logger;
  /** Tests inject a fake client; the daemon uses the library's exporter. */
  createClient?: (opts: { url: string; headers: Record<string, string>; timeoutMillis: number }) => SpanExportClient;
}

export class OtlpExporter {
  private queue: SpanRecord[] = [];
  private client: SpanExportClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;
  readonly stats = { exportedSpans: 0, exportedBatches: 0 };

  constructor(private readonly deps: OtlpDeps) {}

  get enabled(): boolean {
    return this.deps.config.enabled;
  }

  get queueDepth(): number {
    return this.queue.length;
  }

  /** Resolve credentials and create the client; throws OtlpStartupError (a start-up failure). */
  start(): void {
    const c = this.deps.config;
    if (!c.enabled || this.client) return;
    const headers: Record<string, string> = { ...c.headers };
    if (c.credential_profile) {
      if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
        throw new OtlpStartupError('runtime.observability.otlp: credential_profile cannot be combined with an authorization header');
      }
      headers.Authorization = `Bearer ${readCredentialToken(this.deps.home, c.credential_profile)}`;
    }
    const opts = { url: c.endpoint, headers, timeoutMillis: c.timeout_ms };
    this.client = (this.deps.createClient ?? libraryExporter)(opts);
    this.timer = setInterval(() => this.tick(), c.batch_interval_ms);
    this.timer.unref();
    this.deps.logger.info(
      { endpoint: redactUrl(c.endpoint), credential_profile: c.credential_profile || null, header_names: Object.keys(c.headers) },
      'OTLP trace export enabled',
    );
  }

  /** Span listener: O(1), never blocks, never throws. */
  enqueue(span: SpanRecord): void {
    if (!this.client || this.stopped) return;
    if (this.queue.length >= this.deps.config.queue_capacity) {
      this.deps.metrics.otlpDroppedSpans.inc();
      return;
    }
    this.queue.push(span);
    this.deps.metrics.otlpQueueDepth.set(this.queue.length);
  }

  /** Send one batch unless one is already on its way. */
  tick(): void {
    if (this.inFlight || this.queue.length === 0 || !this.client) return;
    const batch = this.queue.splice(0, this.deps.config.batch_size);
    this.deps.metrics.otlpQueueDepth.set(this.queue.length);
    this.inFlight = this.send(batch).finally(() => {
      this.inFlight = null;
      // A backlog goes out without waiting for the next tick.
      if (!this.stopped && this.queue.length >= this.deps.config.batch_size) setImmediate(() => this.tick());
    });
  }

  private send(batch: SpanRecord[]): Promise<void> {
    const client = this.client!;
    return new Promise<void>((resolve) => {
      let settled = false;
      const finish = (ok: boolean, error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(guard);
        if (ok) {
          this.stats.exportedBatches++;
          this.stats.exportedSpans += batch.length;
        } else {
          this.deps.metrics.otlpFailedBatches.inc();
          this.deps.metrics.otlpDroppedSpans.inc(batch.length);
          // The error text may carry the collector's answer; never the token (not in errors).
          this.deps.logger.debug({ spans: batch.length, error: error?.message }, 'OTLP export batch failed');
        }
        resolve();
      };
      const guard = setTimeout(() => finish(false, new Error('export did not complete in time')), this.deps.config.timeout_ms + CALLBACK_GRACE_MS);
      guard.unref();
      try {
        client.export(batch.map(toReadableSpan), (result) => finish(result.code === 0, result.error));
      } catch (err) {
        finish(false, err as Error);
      }
    });
  }

  /**
   * Shutdown: stop the timer, send what is queued within a short deadline, then drop the rest
   * (counted) and close the client without waiting past the deadline.
   */
  async stop(deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<void> {
    if (this.stopped || !this.client) {
      this.stopped = true;
      return;
    }
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const deadline = Date.now() + deadlineMs;
    const remaining = () => Math.max(0, deadline - Date.now());
    const flush = async () => {
      for (;;) {
        if (this.inFlight) await this.inFlight;
        if (this.queue.length === 0) return;
        this.tick();
      }
    };
    await raceDeadline(flush(), remaining());
    if (this.queue.length > 0) {
      this.deps.metrics.otlpDroppedSpans.inc(this.queue.length);
      this.queue = [];
      this.deps.metrics.otlpQueueDepth.set(0);
    }
    await raceDeadline(this.client.shutdown().catch(() => undefined), Math.min(remaining(), 200));
  }
}

const RESOURCE = {
  attributes: { 'service.name': 'svc', 'service.version': VERSION, 'process.pid': process.pid },
  schemaUrl: undefined,
};
const SCOPE = { name: 'svc', version: VERSION };

/** Our span record as the ReadableSpan shape the library's JSON serializer reads. */
export function toReadableSpan(s: SpanRecord): ReadableSpan {
  const readable = {
    name: s.name,
    kind: s.kind === 'server' ? 1 : 0, // SpanKind.SERVER / INTERNAL
    spanContext: () => ({ traceId: s.trace_id, spanId: s.span_id, traceFlags: 1 }),
    parentSpanContext: s.parent_span_id ? { traceId: s.trace_id, spanId: s.parent_span_id, traceFlags: 1 } : undefined,
    startTime: hrTime(s.start_ms),
    endTime: hrTime(s.end_ms),
    duration: hrTime(s.duration_ms),
    // SpanStatusCode: UNSET 0, OK 1, ERROR 2. A cancelled span is not an error.
    status: s.status === 'error' ? { code: 2, message: s.status_message ?? undefined } : { code: s.status === 'ok' ? 1 : 0, message: s.status_message ?? undefined },
    attributes: s.status === 'cancelled' ? { ...s.attributes, 'svc.cancelled': true } : s.attributes,
    links: [],
    events: [],
    ended: true,
    resource: RESOURCE,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  // The library types `resource` as its full Resource class; the serializer reads only
  // `attributes` and `schemaUrl` (and uses the object as a grouping key: one shared object).
  return readable as unknown as ReadableSpan;
}

function hrTime(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.round((ms - seconds * 1000) * 1e6);
  return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
}

/** Endpoint for log lines: no userinfo, no query string. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '[invalid url]';
  }
}

function raceDeadline(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
    p.then(
      () => {
        clearTimeout(t);
        resolve();
      },
      () => {
        clearTimeout(t);
        resolve();
      },
    );
  });
}
