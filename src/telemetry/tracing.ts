/**
 * A small tracer of our own (no global OpenTelemetry SDK): spans with W3C-sized ids, grouped by
 * trace into a bounded in-memory ring of recently completed traces (GET
 * /api/control/runtime/traces). Every ended span is handed to the span listeners (the OTLP
 * exporter's queue), every completed trace to the trace listeners (the diagnostics store).
 * Listeners only enqueue: nothing here waits on I/O, so tracing never slows the traced work.
 *
 * Calling it from new code (turns, provider rounds, tool calls, inbox deliveries):
 *
 *   const span = tracer.startSpan('tool.call', { 'svc.tool': name }, parentSpan);
 *   try { ...; span.end('ok'); } catch (err) { span.end('error', err); throw err; }
 *
 * or `await tracer.trace('turn', attrs, async (span) => ...)`, which ends the span with the
 * outcome and makes it the implicit parent of spans started inside `fn` (AsyncLocalStorage).
 *
 * Attributes are span data, never metric labels (the metric series stay label-free).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { randomHex } from '../core/index.js';

export type SpanStatus = 'ok' | 'error' | 'cancelled';
export type SpanKind = 'internal' | 'server';
export type AttrValue = string | number | boolean;
export type Attrs = Record<string, AttrValue | null | undefined>;

/** A finished span as it is kept, served and exported. Times are epoch milliseconds (fractional). */
export interface SpanRecord {
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: SpanKind;
  start_ms: number;
  end_ms: number;
  duration_ms: number;
  status: SpanStatus;
  status_message: string | null;
  attributes: Record<string, AttrValue>;
}

export interface TraceSummary {
  trace_id: string;
  root_name: string;
  started_at: string;
  duration_ms: number;
  status: SpanStatus;
  span_count: number;
}

export interface CompletedTrace {
  summary: TraceSummary;
  spans: SpanRecord[];
}

export interface SpanContext {
  traceId: string;
  spanId: string;
}

export interface Span extends SpanContext {
  readonly name: string;
  readonly ended: boolean;
  setAttribute(key: string, value: AttrValue | null | undefined): this;
  setAttributes(attrs: Attrs): this;
  /** End the span (idempotent: only the first call counts). An error becomes the status message. */
  end(status?: SpanStatus, error?: unknown): void;
  /** Forget the span: it is never recorded (the traced work turned out to be a no-op). */
  discard(): void;
}

export interface TracerOptions {
  /** Completed traces kept in the ring (oldest evicted first). */
  ringSize?: number;
  /** Spans kept per trace; later ones are counted in the root's `svc.dropped_spans`. */
  maxSpansPerTrace?: number;
  /** Traces whose root has not ended yet, at most (oldest forgotten beyond it). */
  maxOpenTraces?: number;
  /** Epoch milliseconds, fractional. Injected by tests. */
  now?: () => number;
}

export const DEFAULT_RING_SIZE = 256;
const DEFAULT_MAX_SPANS = 512;
const DEFAULT_MAX_OPEN = 4096;
const MAX_MESSAGE = 512;

const hiResNow = () => performance.timeOrigin + performance.now();

export function newTraceId(): string {
  return randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
}

interface OpenTrace {
  rootSpanId: string | null;
  spans: SpanRecord[];
  dropped: number;
  firstStart: number;
}

class LiveSpan implements Span {
  readonly spanId = newSpanId();
  readonly traceId: string;
  readonly parentSpanId: string | null;
  readonly startMs: number;
  private readonly attributes: Record<string, AttrValue> = {};
  private done = false;

  constructor(
    private readonly tracer: Tracer,
    readonly name: string,
    readonly kind: SpanKind,
    attrs: Attrs,
    parent: SpanContext | null,
  ) {
    this.traceId = parent?.traceId ?? newTraceId();
    this.parentSpanId = parent?.spanId ?? null;
    this.startMs = tracer.now();
    this.setAttributes(attrs);
  }

  get ended(): boolean {
    return this.done;
  }

  setAttribute(key: string, value: AttrValue | null | undefined): this {
    if (!this.done && value !== null && value !== undefined) this.attributes[key] = value;
    return this;
  }

  setAttributes(attrs: Attrs): this {
    if (this.done) return this;
    // for-in rather than Object.entries: no array per attribute on every request's span.
    for (const k in attrs) {
      const v = attrs[k];
      if (v !== null && v !== undefined) this.attributes[k] = v;
    }
    return this;
  }

  end(status: SpanStatus = 'ok', error?: unknown): void {
    if (this.done) return;
    this.done = true;
    const endMs = Math.max(this.tracer.now(), this.startMs);
    const message = error === undefined || error === null ? null : String(error instanceof Error ? error.message : error).slice(0, MAX_MESSAGE);
    this.tracer.record({
      trace_id: this.traceId,
      span_id: this.spanId,
      parent_span_id: this.parentSpanId,
      name: this.name,
      kind: this.kind,
      start_ms: this.startMs,
      end_ms: endMs,
      duration_ms: endMs - this.startMs,
      status,
      status_message: message,
      attributes: this.attributes,
    });
  }

  discard(): void {
    if (this.done) return;
    this.done = true;
    this.tracer.forget(this);
  }
}

export class Tracer {
  readonly now: () => number;
  readonly ringSize: number;
  private readonly maxSpans: number;
  private readonly maxOpen: number;
  /** Completed traces by id, oldest first (Map keeps insertion order). */
  private readonly ring = new Map<string, CompletedTrace & { dropped: number }>();
  /**
   * The ring's trace ids in a circular array, for eviction: the Map's oldest entry is not taken
   * with `keys().next()`, because a Map that keeps deleting its first entries walks over every
   * deleted slot to find it (until it rehashes), which on every request adds up.
   */
  private readonly order: Array<string | undefined>;
  private orderAt = 0;
  private readonly open = new Map<string, OpenTrace>();
  private readonly spanListeners: Array<(span: SpanRecord) => void> = [];
  private readonly traceListeners: Array<(trace: CompletedTrace) => void> = [];
  private readonly als = new AsyncLocalStorage<Span>();

  constructor(opts: TracerOptions = {}) {
    this.now = opts.now ?? hiResNow;
    this.ringSize = opts.ringSize ?? DEFAULT_RING_SIZE;
    this.maxSpans = opts.maxSpansPerTrace ?? DEFAULT_MAX_SPANS;
    this.maxOpen = opts.maxOpenTraces ?? DEFAULT_MAX_OPEN;
    this.order = new Array<string | undefined>(this.ringSize);
  }

  /**
   * Start a span. `parent` undefined: the span active in this async context (see `trace`), else a
   * new trace; `null`: always a new trace (a root).
   */
  startSpan(name: string, attrs: Attrs = {}, parent?: SpanContext | null, kind: SpanKind = 'internal'): Span {
    const p = parent === undefined ? (this.als.getStore() ?? null) : parent;
    const span = new LiveSpan(this, name, kind, attrs, p);
    let trace = this.open.get(span.traceId);
    if (!trace) {
      trace = { rootSpanId: p ? null : span.spanId, spans: [], dropped: 0, firstStart: span.startMs };
      // A span joining a trace that already completed (a late child) goes straight to the ring.
      if (!this.ring.has(span.traceId)) {
        this.open.set(span.traceId, trace);
        while (this.open.size > this.maxOpen) this.open.delete(this.open.keys().next().value!);
      }
    }
    return span;
  }

  /** Run fn inside a new span (the implicit parent of spans started within); ends it with the outcome. */
  async trace<T>(name: string, attrs: Attrs, fn: (span: Span) => Promise<T> | T, parent?: SpanContext | null): Promise<T> {
    const span = this.startSpan(name, attrs, parent);
    try {
      const result = await this.als.run(span, () => fn(span));
      span.end('ok');
      return result;
    } catch (err) {
      span.end(isAbort(err) ? 'cancelled' : 'error', err);
      throw err;
    }
  }

  /** The span active in this async context, if any. */
  active(): Span | undefined {
    return this.als.getStore();
  }

  onSpanEnd(listener: (span: SpanRecord) => void): void {
    this.spanListeners.push(listener);
  }

  onTraceComplete(listener: (trace: CompletedTrace) => void): void {
    this.traceListeners.push(listener);
  }

  /** Recent completed traces, newest first. */
  recent(limit = this.ringSize): TraceSummary[] {
    const out: TraceSummary[] = [];
    const all = [...this.ring.values()];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) out.push(all[i]!.summary);
    return out;
  }

  get(traceId: string): CompletedTrace | null {
    const t = this.ring.get(traceId);
    return t ? { summary: t.summary, spans: t.spans } : null;
  }

  get size(): number {
    return this.ring.size;
  }

  /** Called by a span when it ends. */
  record(span: SpanRecord): void {
    for (const l of this.spanListeners) safely(l, span);
    const done = this.ring.get(span.trace_id);
    if (done) {
      // A child that ended after its root: join the completed trace (bounded).
      if (done.spans.length < this.maxSpans) done.spans.push(span);
      else done.dropped++;
      done.summary = summarize(done.spans, done.summary.root_name);
      return;
    }
    const trace = this.open.get(span.trace_id);
    if (!trace) return; // forgotten (too many open traces)
    if (trace.spans.length < this.maxSpans) trace.spans.push(span);
    else trace.dropped++;
    if (trace.rootSpanId === span.span_id || (trace.rootSpanId === null && span.parent_span_id === null)) this.complete(span, trace);
  }

  /** Called by a discarded span: a root that is discarded takes its trace with it. */
  forget(span: LiveSpan): void {
    const trace = this.open.get(span.traceId);
    if (trace && trace.rootSpanId === span.spanId) this.open.delete(span.traceId);
  }

  private complete(root: SpanRecord, trace: OpenTrace): void {
    this.open.delete(root.trace_id);
    if (trace.dropped > 0) root.attributes['svc.dropped_spans'] = trace.dropped;
    const completed = { summary: summarize(trace.spans, root.name, root), spans: trace.spans, dropped: trace.dropped };
    this.remember(root.trace_id, completed);
    if (this.traceListeners.length === 0) return;
    const view: CompletedTrace = { summary: completed.summary, spans: completed.spans };
    for (const l of this.traceListeners) safely(l, view);
  }

  private remember(traceId: string, completed: CompletedTrace & { dropped: number }): void {
    if (this.ringSize <= 0) return;
    if (this.ring.has(traceId)) {
      this.ring.set(traceId, completed);
      return;
    }
    const evicted = this.order[this.orderAt];
    if (evicted !== undefined) this.ring.delete(evicted);
    this.order[this.orderAt] = traceId;
    this.orderAt = (this.orderAt + 1) % this.ringSize;
    this.ring.set(traceId, completed);
  }
}

/**
 * The trace's summary: the root's name, start and duration; its status is the root's unless the
 * root is ok and some span failed (then `error`).
 */
export function summarize(spans: SpanRecord[], rootName: string, root?: SpanRecord): TraceSummary {
  const r = root ?? spans.find((s) => s.parent_span_id === null) ?? spans[0]!;
  // One pass, no spread: this runs for every request's trace.
  let start = Infinity;
  let end = -Infinity;
  let failed = false;
  for (const s of spans) {
    if (s.start_ms < start) start = s.start_ms;
    if (s.end_ms > end) end = s.end_ms;
    if (s.status === 'error') failed = true;
  }
  let status: SpanStatus = r.status;
  if (status === 'ok' && failed) status = 'error';
  return {
    trace_id: r.trace_id,
    root_name: rootName,
    started_at: isoMillis(start),
    duration_ms: round3(Math.max(end - start, r.duration_ms)),
    status,
    span_count: spans.length,
  };
}

/** A span as served over HTTP (ISO times, rounded durations). */
export function spanView(s: SpanRecord) {
  return {
    trace_id: s.trace_id,
    span_id: s.span_id,
    parent_span_id: s.parent_span_id,
    name: s.name,
    kind: s.kind,
    started_at: new Date(Math.floor(s.start_ms)).toISOString(),
    ended_at: new Date(Math.floor(s.end_ms)).toISOString(),
    duration_ms: round3(s.duration_ms),
    status: s.status,
    status_message: s.status_message,
    attributes: s.attributes,
  };
}

let lastIsoMs = NaN;
let lastIso = '';
/** `new Date(floor(ms)).toISOString()`, remembered for the last millisecond (many traces share one). */
function isoMillis(ms: number): string {
  const whole = Math.floor(ms);
  if (whole !== lastIsoMs) {
    lastIso = new Date(whole).toISOString();
    lastIsoMs = whole;
  }
  return lastIso;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');
}

function safely<T>(listener: (value: T) => void, value: T): void {
  try {
    listener(value);
  } catch {
    // A listener's failure never reaches the traced work (listeners count their own failures).
  }
}
