import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { DiagnosticsStore, retainReason } from '../../src/telemetry/diagnostics.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { Metrics } from '../../src/telemetry/metrics.js';
import { OtlpExporter, OtlpStartupError, readCredentialToken, toReadableSpan, type OtlpConfig, type SpanExportClient } from '../../src/telemetry/otlp.js';
import { Tracer, type CompletedTrace, type TraceSummary } from '../../src/telemetry/tracing.js';
import { waitFor } from '../helpers/daemon.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-trace-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A tracer on a hand-driven clock. */
function fakeClockTracer(opts: { ringSize?: number; maxSpansPerTrace?: number } = {}) {
  let t = 1_900_000_000_000;
  const tracer = new Tracer({ ...opts, now: () => t });
  return { tracer, advance: (ms: number) => (t += ms) };
}

async function counter(metrics: Metrics, name: string): Promise<number> {
  const m = await metrics.registry.getSingleMetric(name)!.get();
  return m.values[0]?.value ?? 0;
}

describe('Tracer', () => {
  it('uses 16-byte trace ids and 8-byte span ids in hex, children share the trace', () => {
    const { tracer } = fakeClockTracer();
    const root = tracer.startSpan('root');
    const child = tracer.startSpan('child', {}, root);
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.traceId).toBe(root.traceId);
    expect(child.spanId).not.toBe(root.spanId);
    expect(tracer.startSpan('other').traceId).not.toBe(root.traceId);
  });

  it('groups spans by trace and completes the trace when its root ends', () => {
    const { tracer, advance } = fakeClockTracer();
    const completed: CompletedTrace[] = [];
    tracer.onTraceComplete((t) => completed.push(t));
    const root = tracer.startSpan('HTTP GET /x', { 'http.route': '/x' }, null, 'server');
    const a = tracer.startSpan('a', {}, root);
    const b = tracer.startSpan('b', {}, a);
    const unrelated = tracer.startSpan('unrelated');
    advance(5);
    b.end('error', new Error('boom'));
    a.end();
    expect(tracer.size).toBe(0);
    advance(5);
    root.end('ok');
    expect(tracer.size).toBe(1);
    expect(completed).toHaveLength(1);
    const got = tracer.get(root.traceId)!;
    expect(got.spans.map((s) => s.name).sort()).toEqual(['HTTP GET /x', 'a', 'b']);
    expect(got.spans.find((s) => s.name === 'b')!.parent_span_id).toBe(a.spanId);
    expect(got.spans.find((s) => s.name === 'b')!.status_message).toBe('boom');
    // The root was ok but a child failed: the trace is an error trace.
    expect(got.summary).toMatchObject({ trace_id: root.traceId, root_name: 'HTTP GET /x', status: 'error', span_count: 3, duration_ms: 10 });
    expect(tracer.get(unrelated.traceId)).toBeNull();
    unrelated.end('cancelled');
    expect(tracer.get(unrelated.traceId)!.summary.status).toBe('cancelled');
  });

  it('end is idempotent, discard forgets a span, late children join the completed trace', () => {
    const { tracer } = fakeClockTracer();
    const ended: string[] = [];
    tracer.onSpanEnd((s) => ended.push(s.name));
    const root = tracer.startSpan('root');
    const late = tracer.startSpan('late', {}, root);
    root.end();
    root.end('error');
    expect(tracer.get(root.traceId)!.summary.status).toBe('ok');
    late.end();
    expect(tracer.get(root.traceId)!.summary.span_count).toBe(2);
    const gone = tracer.startSpan('nothing to do');
    gone.discard();
    gone.end();
    expect(tracer.get(gone.traceId)).toBeNull();
    expect(ended).toEqual(['root', 'late']);
  });

  it('keeps a bounded ring of recent traces, newest first, oldest evicted', () => {
    const { tracer } = fakeClockTracer({ ringSize: 4 });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const s = tracer.startSpan(`t${i}`);
      ids.push(s.traceId);
      s.end();
    }
    expect(tracer.size).toBe(4);
    expect(tracer.recent().map((t) => t.root_name)).toEqual(['t9', 't8', 't7', 't6']);
    expect(tracer.recent(2).map((t) => t.root_name)).toEqual(['t9', 't8']);
    expect(tracer.get(ids[0]!)).toBeNull();
    expect(tracer.get(ids[9]!)).not.toBeNull();
  });

  it('bounds the spans kept per trace and records how many were dropped', () => {
    const { tracer } = fakeClockTracer({ maxSpansPerTrace: 3 });
    const root = tracer.startSpan('root');
    for (let i = 0; i < 5; i++) tracer.startSpan(`c${i}`, {}, root).end();
    root.end();
    const t = tracer.get(root.traceId)!;
    expect(t.spans).toHaveLength(3);
    // The root itself did not fit either: 6 spans, 3 kept.
    expect(t.summary.span_count).toBe(3);
  });

  it('trace() ends its span with the outcome and parents spans started inside', async () => {
    const { tracer } = fakeClockTracer();
    let inner = '';
    const result = await tracer.trace('turn', { 'svc.agent_id': 'main' }, async (span) => {
      await Promise.resolve();
      const child = tracer.startSpan('tool.call');
      inner = child.traceId;
      child.end();
      expect(tracer.active()).toBe(span);
      return 42;
    });
    expect(result).toBe(42);
    const t = tracer.recent(1)[0]!;
    expect(t).toMatchObject({ root_name: 'turn', status: 'ok', span_count: 2, trace_id: inner });
    await expect(tracer.trace('failing', {}, () => Promise.reject(new Error('nope')))).rejects.toThrow('nope');
    expect(tracer.recent(1)[0]).toMatchObject({ root_name: 'failing', status: 'error' });
  });

  it('a listener that throws never reaches the traced work', () => {
    const { tracer } = fakeClockTracer();
    tracer.onSpanEnd(() => {
      throw new Error('listener');
    });
    const s = tracer.startSpan('x');
    expect(() => s.end()).not.toThrow();
    expect(tracer.size).toBe(1);
  });
});

describe('diagnostics selection', () => {
  const base: TraceSummary = { trace_id: 'ff'.repeat(16), root_name: 'r', started_at: '', duration_ms: 5, status: 'ok', span_count: 1 };
  it('keeps failed, cancelled, slow and sampled traces, nothing else', () => {
    expect(retainReason({ ...base, status: 'error' }, 1000, 0)).toBe('failed');
    expect(retainReason({ ...base, status: 'cancelled' }, 1000, 0)).toBe('cancelled');
    expect(retainReason({ ...base, duration_ms: 1000 }, 1000, 0)).toBe('slow');
    expect(retainReason({ ...base, duration_ms: 999 }, 1000, 0)).toBeNull();
    // Sampling is decided by the trace id: 00... is always in, ff... never (below 1.0).
    expect(retainReason({ ...base, trace_id: '00'.repeat(16) }, 1000, 0.01)).toBe('sampled');
    expect(retainReason({ ...base }, 1000, 0.99)).toBeNull();
    expect(retainReason({ ...base }, 1000, 1)).toBe('sampled');
  });
});

describe('DiagnosticsStore', () => {
  function setup(opts: { maxRows?: number; maxPending?: number } = {}) {
    const store = Store.open(path.join(tempDir(), 'svc.db'));
    const metrics = new Metrics(0, () => 0);
    const { tracer, advance } = fakeClockTracer();
    const diag = new DiagnosticsStore({ store, metrics }, { slowMs: 100, sampleRate: 0, ...opts });
    tracer.onTraceComplete((t) => diag.offer(t));
    return { store, metrics, tracer, advance, diag };
  }

  it('writes only selected traces, off the caller (on flush), with their spans and reason', () => {
    const { store, tracer, advance, diag } = setup();
    const fast = tracer.startSpan('fast');
    fast.end();
    const slow = tracer.startSpan('slow');
    advance(150);
    slow.end();
    const failed = tracer.startSpan('failed');
    tracer.startSpan('child', {}, failed).end('error', 'broken');
    failed.end();
    const cancelled = tracer.startSpan('cancelled');
    cancelled.end('cancelled');
    expect(diag.count()).toBe(0); // nothing written on the traced path
    expect(diag.pendingCount).toBe(3);
    expect(diag.flush()).toBe(3);
    expect(diag.list().map((t) => [t.root_name, t.reason])).toEqual([
      ['cancelled', 'cancelled'],
      ['failed', 'failed'],
      ['slow', 'slow'],
    ]);
    const kept = diag.get(failed.traceId)!;
    expect(kept.spans.map((s) => s.name).sort()).toEqual(['child', 'failed']);
    expect(kept.spans.find((s) => s.name === 'child')!.status_message).toBe('broken');
    expect(diag.get(fast.traceId)).toBeNull();
    store.close();
  });

  it('bounds the table to the newest maxRows', () => {
    const { store, tracer, diag } = setup({ maxRows: 5 });
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) {
        const s = tracer.startSpan(`f${round * 4 + i}`);
        ids.push(s.traceId);
        s.end('error');
      }
      diag.flush();
    }
    expect(diag.count()).toBe(5);
    expect(diag.list().map((t) => t.root_name)).toEqual(['f11', 'f10', 'f9', 'f8', 'f7']);
    expect(diag.get(ids[0]!)).toBeNull();
    store.close();
  });

  it('a full queue drops (counted); a failed write counts a failure and drops its traces', async () => {
    const { store, metrics, tracer, diag } = setup({ maxPending: 2 });
    for (let i = 0; i < 5; i++) tracer.startSpan(`f${i}`).end('error');
    expect(diag.pendingCount).toBe(2);
    expect(await counter(metrics, 'svc_diagnostics_writer_dropped_traces')).toBe(3);
    store.db.exec('DROP TABLE diagnostic_traces');
    expect(diag.flush()).toBe(0);
    expect(await counter(metrics, 'svc_diagnostics_writer_failures')).toBe(1);
    expect(await counter(metrics, 'svc_diagnostics_writer_dropped_traces')).toBe(5);
    store.close();
  });
});

describe('OtlpExporter (fake client)', () => {
  const logger = createLogger('silent');
  function config(over: Partial<OtlpConfig> = {}): OtlpConfig {
    return {
      enabled: true,
      endpoint: 'http://127.0.0.1:1/v1/traces',
      queue_capacity: 4,
      batch_size: 2,
      batch_interval_ms: 60_000,
      timeout_ms: 50,
      headers: {},
      credential_profile: '',
      ...over,
    };
  }

  function fakeClient(behaviour: 'ok' | 'fail' | 'hang') {
    const calls: { spans: number; headers: Record<string, string> }[] = [];
    let headers: Record<string, string> = {};
    const create = (opts: { headers: Record<string, string> }): SpanExportClient => {
      headers = opts.headers;
      return {
        export(spans, done) {
          calls.push({ spans: spans.length, headers });
          if (behaviour === 'ok') setImmediate(() => done({ code: 0 }));
          if (behaviour === 'fail') setImmediate(() => done({ code: 1, error: new Error('503') }));
        },
        shutdown: async () => undefined,
      };
    };
    return { calls, create };
  }

  function spans(tracer: Tracer, n: number) {
    for (let i = 0; i < n; i++) tracer.startSpan(`s${i}`).end();
  }

  it('bounds the queue (drops counted), keeps the depth gauge current, sends batches of batch_size', async () => {
    const metrics = new Metrics(0, () => 0);
    const fake = fakeClient('ok');
    const otlp = new OtlpExporter({ config: config(), home: tempDir(), metrics, logger, createClient: fake.create });
    const { tracer } = fakeClockTracer();
    tracer.onSpanEnd((s) => otlp.enqueue(s));
    otlp.start();
    spans(tracer, 7);
    expect(otlp.queueDepth).toBe(4);
    expect(await counter(metrics, 'svc_otlp_exporter_dropped_spans')).toBe(3);
    expect(await counter(metrics, 'svc_otlp_exporter_queue_depth')).toBe(4);
    otlp.tick();
    // The first batch, then the backlog without waiting for the interval (whose timer is 60 s away).
    await waitFor(() => fake.calls.length === 2 && otlp.stats.exportedSpans === 4);
    expect(fake.calls.map((c) => c.spans)).toEqual([2, 2]);
    expect(otlp.stats.exportedSpans).toBe(4);
    expect(await counter(metrics, 'svc_otlp_exporter_queue_depth')).toBe(0);
    await otlp.stop();
  });

  it('counts failed and never-answered batches, their spans as dropped', async () => {
    for (const behaviour of ['fail', 'hang'] as const) {
      const metrics = new Metrics(0, () => 0);
      const fake = fakeClient(behaviour);
      const otlp = new OtlpExporter({ config: config({ timeout_ms: 10 }), home: tempDir(), metrics, logger, createClient: fake.create });
      otlp.start();
      const { tracer } = fakeClockTracer();
      tracer.onSpanEnd((s) => otlp.enqueue(s));
      spans(tracer, 2);
      otlp.tick();
      // A hanging client is given up after timeout_ms plus a grace second.
      await new Promise((r) => setTimeout(r, behaviour === 'hang' ? 1100 : 20));
      expect(await counter(metrics, 'svc_otlp_exporter_failed_batches')).toBe(1);
      expect(await counter(metrics, 'svc_otlp_exporter_dropped_spans')).toBe(2);
      await otlp.stop(50);
    }
  });

  it('stop() keeps to its deadline with a hanging collector and counts what it could not send', async () => {
    const metrics = new Metrics(0, () => 0);
    const otlp = new OtlpExporter({ config: config({ timeout_ms: 60_000 }), home: tempDir(), metrics, logger, createClient: fakeClient('hang').create });
    otlp.start();
    const { tracer } = fakeClockTracer();
    tracer.onSpanEnd((s) => otlp.enqueue(s));
    spans(tracer, 4);
    const t0 = performance.now();
    await otlp.stop(100);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(await counter(metrics, 'svc_otlp_exporter_dropped_spans')).toBe(2); // the batch after the hung one
    expect(otlp.queueDepth).toBe(0);
  });

  it('disabled: nothing is queued', async () => {
    const metrics = new Metrics(0, () => 0);
    const fake = fakeClient('ok');
    const otlp = new OtlpExporter({ config: config({ enabled: false }), home: tempDir(), metrics, logger, createClient: fake.create });
    otlp.start();
    otlp.enqueue(new Tracer().startSpan('x') as never);
    expect(otlp.queueDepth).toBe(0);
    expect(fake.calls).toHaveLength(0);
  });

  it('sends the credential profile as a bearer header next to the static headers', () => {
    const home = tempDir();
    fs.writeFileSync(path.join(home, 'credentials.json'), JSON.stringify({ profiles: { collector: { token: 'tok-123' } } }), { mode: 0o600 });
    let seen: Record<string, string> = {};
    const otlp = new OtlpExporter({
      config: config({ credential_profile: 'collector', headers: { 'x-team': 'infra' } }),
      home,
      metrics: new Metrics(0, () => 0),
      logger,
      createClient: (o) => {
        seen = o.headers;
        return fakeClient('ok').create(o);
      },
    });
    otlp.start();
    expect(seen).toEqual({ 'x-team': 'infra', Authorization: 'Bearer tok-123' });
    void otlp.stop(10);
  });

  it('refuses a missing store, a missing profile, a loose file mode, and profile + authorization header', () => {
    const home = tempDir();
    expect(() => readCredentialToken(home, 'p')).toThrow(/does not exist/);
    const file = path.join(home, 'credentials.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: { p: { token: 't' } } }), { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(() => readCredentialToken(home, 'p')).toThrow(/chmod 600/);
    fs.chmodSync(file, 0o600);
    expect(readCredentialToken(home, 'p')).toBe('t');
    expect(() => readCredentialToken(home, 'other')).toThrow(OtlpStartupError);
    const otlp = new OtlpExporter({
      config: config({ credential_profile: 'p', headers: { AUTHORIZATION: 'Bearer x' } }),
      home,
      metrics: new Metrics(0, () => 0),
      logger,
      createClient: fakeClient('ok').create,
    });
    expect(() => otlp.start()).toThrow(/cannot be combined/);
  });

  it('maps our span record to the ReadableSpan shape (ids, nanosecond times, parent, status)', () => {
    const { tracer, advance } = fakeClockTracer();
    let rec: Parameters<typeof toReadableSpan>[0] | undefined;
    tracer.onSpanEnd((s) => (rec = s));
    const root = tracer.startSpan('r');
    const child = tracer.startSpan('c', { k: 'v' }, root);
    advance(1.5);
    child.end('error', 'bad');
    const r = toReadableSpan(rec!);
    expect(r.spanContext()).toMatchObject({ traceId: root.traceId, spanId: child.spanId });
    expect(r.parentSpanContext?.spanId).toBe(root.spanId);
    expect(r.startTime).toEqual([1_900_000_000, 0]);
    expect(r.endTime).toEqual([1_900_000_000, 1_500_000]);
    expect(r.status).toEqual({ code: 2, message: 'bad' });
    expect(r.attributes).toEqual({ k: 'v' });
  });
});
