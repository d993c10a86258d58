/**
 * Brief delivery to operator bindings (issue 4 item 6) in process, against a receiver on loopback:
 * what is delivered (result and failure briefs of operator-ingress messages only), the request
 * (bearer credential, idempotency key, body), retries on a ManualClock (exponential backoff with
 * jitter, Retry-After, give-up after delivery.max_failures, 410), timeouts and refused
 * connections, redirects never followed, events and logs without the credential or the URL,
 * durability across restarts, spans.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { retryAfterMs } from '../../src/runtime/channels/brief-delivery.js';
import type { BriefKind } from '../../src/runtime/channels/briefs.js';
import type { CompletionRequest, CompletionResult, ModelProvider } from '../../src/runtime/providers/types.js';
import { createServices, startServices, stopServices, type Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';

const SECRET = 'dlv-secret-7d1f0c9b2a';
const SECRET_PATH = '/deliver/hook-3e8a91/x';
const CONFIG = `
[delivery]
timeout_ms = 400
retry_initial_ms = 1000
retry_max_ms = 8000
max_failures = 4
`;

// --- a receiver on loopback that answers from a script -----------------------------------------

interface Received {
  headers: http.IncomingHttpHeaders;
  url: string;
  body: any;
}
type Answer = { status: number; headers?: Record<string, string> } | 'hang';

class Receiver {
  readonly received: Received[] = [];
  /** Answers in order; when empty, 200. */
  readonly script: Answer[] = [];
  private readonly server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, url: req.url ?? '', body: data ? JSON.parse(data) : null });
      const answer = this.script.shift() ?? { status: 200 };
      if (answer === 'hang') return; // never answers
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end('{"ok":true}');
    });
  });
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

// --- services on a temporary home, restartable, with the log captured --------------------------

let home: string;
let clock: ManualClock;
let s: Services;
let logs: string[];
let receiver: Receiver;
let base: string;

function open(runLoop = false): Services {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const svc = createServices(loadConfig({ home }, {}), clock, createLogger('debug', sink));
  // Most tests play the run loop: they create the briefs themselves.
  if (!runLoop) svc.runLoop.scheduler.disable();
  startServices(svc);
  return svc;
}

async function restart(): Promise<void> {
  await stopServices(s);
  s = open();
}

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-unit-'));
  fs.writeFileSync(path.join(home, 'config.toml'), CONFIG);
  clock = new ManualClock();
  logs = [];
  s = open();
  receiver = new Receiver();
  base = await receiver.start();
});
afterEach(async () => {
  await stopServices(s);
  await receiver.close();
  fs.rmSync(home, { recursive: true, force: true });
});

function bind(extra: Record<string, unknown> = {}) {
  return s.bindings.upsert('main', {
    binding_id: 'b1',
    transport: 'remote_operator',
    operator_actor_id: 'alice',
    provider: 'slack',
    default_route_id: 'route-default',
    delivery_callback_url: `${base}${SECRET_PATH}?sig=q1`,
    delivery_auth: { kind: 'bearer', bearer_token: SECRET },
    ...extra,
  });
}

async function operatorMessage(extra: { reply_route_id?: string; correlation_id?: string } = {}): Promise<string> {
  const out = await s.bindings.ingress('main', { text: 'deploy please', actor_id: 'alice', binding_id: 'b1', provider: 'slack', ...extra });
  return out.message_id;
}

/** What the run loop does at the end of a turn: a brief for the message, in a transaction. */
function brief(messageId: string | null, kind: BriefKind = 'result') {
  return s.store.tx(() => s.briefs.create({ agentId: 'main', kind, title: 'Deployed', text: 'all green', turnId: 'turn_1', messageId }));
}

/** Start what is due and wait for those attempts to finish. */
async function tick(): Promise<number> {
  const started = s.briefDelivery.runDue();
  await s.briefDelivery.idle();
  return started;
}

function events(type?: string) {
  return s.events
    .page('main', { limit: 1000, order: 'asc', max_level: 'debug' })
    .events.filter((e) => type === undefined || e.type === type);
}

/** The credential is nowhere; the callback URL's path is in no delivery event, row or log line. */
function expectNoSecretsAnywhere() {
  const stored = (s.store.db.prepare('SELECT payload FROM events').all() as Array<{ payload: string }>).map((r) => r.payload).join('\n');
  expect(stored).not.toContain(SECRET);
  const deliveryEvents = JSON.stringify([...events('brief_delivered'), ...events('brief_delivery_failed')]);
  const deliveries = JSON.stringify(s.store.db.prepare('SELECT * FROM brief_deliveries').all());
  for (const text of [deliveryEvents, deliveries, logs.join('')]) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hook-3e8a91');
  }
  expect(logs.join('')).toContain('brief deliver');
}

describe('what is delivered', () => {
  it('POSTs the result brief of an operator message with the bearer credential and records brief_delivered', async () => {
    bind();
    const messageId = await operatorMessage({ reply_route_id: 'thread-42', correlation_id: 'corr-9' });
    const b = brief(messageId);
    expect(s.briefDelivery.get(b.brief_id)).toMatchObject({ status: 'pending', attempts: 0, binding_id: 'b1' });
    expect(await tick()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0]!;
    expect(req.url).toBe(`${SECRET_PATH}?sig=q1`);
    expect(req.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['idempotency-key']).toBe(b.brief_id);
    expect(req.body).toEqual({
      brief: b,
      agent_id: 'main',
      binding_id: 'b1',
      reply_route_id: 'thread-42',
      correlation_id: 'corr-9',
      message_id: messageId,
    });
    expect(events('brief_delivered').map((e) => e.payload)).toEqual([{ brief_id: b.brief_id, binding_id: 'b1', attempts: 1, status_code: 200 }]);
    expect(s.briefDelivery.get(b.brief_id)).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200, next_attempt_at: null });
    expectNoSecretsAnywhere();
  });

  it("uses the binding's default route when the message named none, and delivers failure briefs too", async () => {
    bind();
    const b = brief(await operatorMessage(), 'failure');
    await tick();
    expect(receiver.received[0]!.body).toMatchObject({ reply_route_id: 'route-default', correlation_id: null, brief: { brief_id: b.brief_id, kind: 'failure' } });
  });

  it('delivers nothing for progress briefs, other messages, briefs without a message, or a binding without a callback', async () => {
    bind();
    brief(await operatorMessage(), 'progress');
    brief(await operatorMessage(), 'acknowledgement');
    const pub = await s.ingress.publicEnqueue('main', { text: 'from a webhook' });
    brief(pub.message_id);
    brief(null);
    bind({ delivery_callback_url: null });
    brief(await operatorMessage());
    expect(await tick()).toBe(0);
    expect(s.store.db.prepare('SELECT count(*) AS n FROM brief_deliveries').get()).toEqual({ n: 0 });
    expect(receiver.received).toHaveLength(0);
  });

  it('sends no Authorization header when the binding has no credential', async () => {
    bind({ delivery_auth: null });
    brief(await operatorMessage());
    await tick();
    expect(receiver.received[0]!.headers.authorization).toBeUndefined();
    expect(events('brief_delivered')).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries a 500 after the jittered first delay and then delivers', async () => {
    bind();
    receiver.script.push({ status: 500 });
    const b = brief(await operatorMessage());
    const t0 = clock.now();
    await tick();
    const [failed] = events('brief_delivery_failed');
    expect(failed!.payload).toMatchObject({ brief_id: b.brief_id, binding_id: 'b1', attempt: 1, error: 'HTTP 500', status_code: 500 });
    const next = Date.parse(failed!.payload.next_attempt_at as string);
    expect(next - t0).toBeGreaterThanOrEqual(500);
    expect(next - t0).toBeLessThanOrEqual(1000);

    clock.set(next - 1);
    expect(await tick()).toBe(0);
    clock.set(next);
    expect(await tick()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['idempotency-key']).toBe(b.brief_id);
    expect(events('brief_delivered').map((e) => e.payload)).toEqual([{ brief_id: b.brief_id, binding_id: 'b1', attempts: 2, status_code: 200 }]);
    expectNoSecretsAnywhere();
  });

  it('waits exactly as long as Retry-After says (capped at retry_max_ms)', async () => {
    bind();
    receiver.script.push({ status: 503, headers: { 'retry-after': '7' } }, { status: 429, headers: { 'retry-after': '3600' } });
    brief(await operatorMessage());
    const t0 = clock.now();
    await tick();
    expect(Date.parse(events('brief_delivery_failed')[0]!.payload.next_attempt_at as string)).toBe(t0 + 7000);
    clock.advance(6999);
    expect(await tick()).toBe(0);
    clock.advance(1);
    expect(await tick()).toBe(1);
    expect(Date.parse(events('brief_delivery_failed')[1]!.payload.next_attempt_at as string)).toBe(clock.now() + 8000);
    clock.advance(8000);
    await tick();
    expect(events('brief_delivered')).toHaveLength(1);
  });

  it('backs off exponentially and gives up after delivery.max_failures attempts', async () => {
    bind();
    for (let i = 0; i < 10; i++) receiver.script.push({ status: 500 });
    const b = brief(await operatorMessage());
    await tick();
    for (let attempt = 1; attempt < 4; attempt++) {
      const ev = events('brief_delivery_failed')[attempt - 1]!;
      const wait = Date.parse(ev.payload.next_attempt_at as string) - clock.now();
      const d = 1000 * 2 ** (attempt - 1);
      expect(wait).toBeGreaterThanOrEqual(d / 2);
      expect(wait).toBeLessThanOrEqual(d);
      clock.advance(wait);
      expect(await tick()).toBe(1);
    }
    const failed = events('brief_delivery_failed');
    expect(failed.map((e) => e.payload.attempt)).toEqual([1, 2, 3, 4]);
    expect(failed[3]!.payload.next_attempt_at).toBeNull();
    expect(s.briefDelivery.get(b.brief_id)).toMatchObject({ status: 'failed', attempts: 4, last_error: 'HTTP 500' });
    clock.advance(3_600_000);
    expect(await tick()).toBe(0);
    expect(receiver.received).toHaveLength(4);
  });

  it('gives up at once on 410 Gone, and on a binding that became inactive (without a request)', async () => {
    bind();
    receiver.script.push({ status: 410 });
    const gone = brief(await operatorMessage());
    await tick();
    expect(s.briefDelivery.get(gone.brief_id)).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });

    const later = brief(await operatorMessage());
    bind({ status: 'inactive' });
    await tick();
    expect(receiver.received).toHaveLength(1);
    expect(s.briefDelivery.get(later.brief_id)).toMatchObject({ status: 'failed', last_error: 'the binding is inactive' });
    expect(events('brief_delivery_failed').map((e) => e.payload.next_attempt_at)).toEqual([null, null]);
  });

  it('counts a timeout and an unfollowed redirect as failed attempts, naming no URL', async () => {
    bind();
    receiver.script.push('hang', { status: 302, headers: { location: `${base}/elsewhere` } });
    brief(await operatorMessage());
    await tick();
    clock.advance(1000);
    await tick();
    const errorsSeen = events('brief_delivery_failed').map((e) => e.payload.error);
    expect(errorsSeen).toEqual(['timed out after 400 ms', 'HTTP 302 (redirects are not followed)']);
    expect(receiver.received.map((r) => r.url)).toEqual([`${SECRET_PATH}?sig=q1`, `${SECRET_PATH}?sig=q1`]);
    expectNoSecretsAnywhere();
  });

  it('counts a refused connection as a failed attempt', async () => {
    const closed = new Receiver();
    const deadBase = await closed.start();
    await closed.close();
    bind({ delivery_callback_url: `${deadBase}${SECRET_PATH}` });
    brief(await operatorMessage());
    await tick();
    const refused = events('brief_delivery_failed')[0]!.payload;
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect(refused).toMatchObject({ attempt: 1, status_code: null, next_attempt_at: expect.any(String) });
    expectNoSecretsAnywhere();
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2030, 0, 1);
    expect(retryAfterMs('12', now)).toBe(12_000);
    expect(retryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(retryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('durability and tracing', () => {
  it('resumes a pending delivery after a restart, and a scheduled retry keeps its time', async () => {
    bind();
    const first = brief(await operatorMessage());
    await restart(); // the delivery was never attempted
    await s.briefDelivery.idle();
    await tick();
    expect(s.briefDelivery.get(first.brief_id)).toMatchObject({ status: 'delivered', attempts: 1 });

    receiver.script.push({ status: 500 });
    const second = brief(await operatorMessage());
    await tick();
    const next = Date.parse(events('brief_delivery_failed')[0]!.payload.next_attempt_at as string);
    await restart();
    expect(await tick()).toBe(0);
    clock.set(next);
    expect(await tick()).toBe(1);
    expect(s.briefDelivery.get(second.brief_id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('abandons an attempt in flight at shutdown unrecorded and repeats it at the next start', async () => {
    bind();
    receiver.script.push('hang');
    // A timeout long enough that only the shutdown can end the hanging attempt.
    fs.writeFileSync(path.join(home, 'config.toml'), CONFIG.replace('timeout_ms = 400', 'timeout_ms = 60000'));
    await restart();
    const b = brief(await operatorMessage());
    s.briefDelivery.runDue();
    for (let i = 0; i < 200 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(receiver.received).toHaveLength(1);
    await restart();
    await tick();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['idempotency-key']).toBe(b.brief_id);
    expect(events('brief_delivery_failed')).toHaveLength(0);
    expect(s.briefDelivery.get(b.brief_id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('forgets the deliveries of a deleted agent', async () => {
    s.agents.create('temp', {});
    s.bindings.upsert('temp', { binding_id: 'bt', transport: 'remote_operator', operator_actor_id: 'alice', delivery_callback_url: `${base}/t` });
    const { message_id } = await s.bindings.ingress('temp', { text: 'x', actor_id: 'alice', binding_id: 'bt' });
    s.store.tx(() => s.briefs.create({ agentId: 'temp', kind: 'result', title: 't', text: 't', messageId: message_id }));
    await s.briefDelivery.stopAgent('temp');
    expect(await tick()).toBe(0);
    expect(s.briefDelivery.stateFor('temp')).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });

  it('traces each attempt as a brief.delivery span', async () => {
    bind();
    receiver.script.push({ status: 500 });
    brief(await operatorMessage());
    await tick();
    clock.advance(1000);
    await tick();
    const spans = s.tracer.recent().filter((x) => x.root_name === 'brief.delivery');
    expect(spans.map((x) => x.status).sort()).toEqual(['error', 'ok']);
    const one = s.tracer.get(spans[0]!.trace_id)!.spans[0]!;
    expect(one.attributes).toMatchObject({ 'svc.agent_id': 'main', 'svc.binding_id': 'b1' });
    expect(JSON.stringify(one)).not.toContain(SECRET);
  });
});

describe('end to end in process', () => {
  /** Stands in for builtin/echo: asks for run_command, then answers with what the tool returned. */
  class ToolModel implements ModelProvider {
    readonly name = 'builtin';
    readonly kind = 'builtin';
    readonly seen: Array<CompletionRequest['messages']> = [];
    offered: string[] = [];
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      this.seen.push(JSON.parse(JSON.stringify(req.messages)));
      this.offered = req.tools.map((x) => x.name);
      const last = req.messages[req.messages.length - 1]!;
      if (last.role !== 'tool') {
        return { text: '', toolCalls: [{ id: 'call_1', name: 'run_command', arguments: { cmd: 'echo e2e-$((6*7))' } }], stopReason: 'tool_calls' };
      }
      return { text: `The command said: ${last.content}`, toolCalls: [], stopReason: 'stop' };
    }
    async listModels(): Promise<string[]> {
      return ['echo'];
    }
  }

  it('model asks for run_command, the task runs, its output goes back to the model, the reply reaches the operator', async () => {
    await stopServices(s);
    s = open(true);
    const model = new ToolModel();
    s.providers.register(model);
    bind();
    const messageId = await operatorMessage();
    for (let i = 0; i < 1000 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await s.briefDelivery.idle();

    expect(model.offered).toEqual(expect.arrayContaining(['run_command', 'read_task_output', 'send_brief']));
    const toolResult = model.seen[1]!.find((m) => m.role === 'tool')!;
    expect(JSON.parse((toolResult as { content: string }).content)).toMatchObject({ status: 'completed', exit_status: 0, output_preview: 'e2e-42\n' });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toMatchObject({ message_id: messageId, brief: { kind: 'result', message_id: messageId } });
    expect(receiver.received[0]!.body.brief.text).toContain('e2e-42');
    const types = events().map((e) => e.type);
    for (const k of ['turn_entry', 'tool_called', 'task_create_requested', 'tool_result', 'brief_created', 'brief_delivered']) expect(types).toContain(k);
    expect(types.indexOf('tool_called')).toBeLessThan(types.indexOf('task_create_requested'));
    expect(events('task_create_requested')[0]!.payload.authority_class).toBe('runtime_instruction');
    expectNoSecretsAnywhere();
  });
});
