/**
 * Operator brief delivery against the real daemon (issue 4 item 6): an operator message through a
 * binding is answered by a turn, and its result brief is POSTed to the binding's callback (a
 * receiver on loopback in this test) with the bearer credential; failures are retried and the
 * outcome is in the event log without the credential or the callback URL; a delivery pending when
 * the daemon is killed is made after the restart.
 *
 * The last test drives a whole tool round trip (model asks for run_command -> the task runs ->
 * its output goes back to the model -> the reply reaches the operator) through the openai provider
 * and a fake OpenAI-compatible server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

const SECRET = 'op-deliver-secret-4b9e2c71';
const HOOK_PATH = '/relay/hook-5c2d77';
const CONFIG = `
[delivery]
timeout_ms = 3000
retry_initial_ms = 50
retry_max_ms = 200
max_failures = 100
`;

/** A callback receiver on loopback; answers `status` (changeable) and records every request. */
class Receiver {
  readonly received: Array<{ headers: http.IncomingHttpHeaders; url: string; body: any }> = [];
  status = 200;
  private readonly server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, url: req.url ?? '', body: JSON.parse(data) });
      res.writeHead(this.status, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  url = '';
  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${HOOK_PATH}`;
    return this;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});
async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

async function bind(d: RunningDaemon, url: string) {
  const res = await request(d, 'POST', '/api/control/agents/main/operator-bindings', {
    body: {
      binding_id: 'relay',
      transport: 'remote-operator',
      operator_actor_id: 'alice',
      default_route_id: 'chat-7',
      delivery_callback_url: url,
      delivery_auth: { kind: 'bearer', bearer_token: SECRET },
    },
  });
  expect(res.status, res.text).toBe(201);
}

async function ask(d: RunningDaemon, text: string): Promise<string> {
  const res = await request(d, 'POST', '/api/control/agents/main/operator-ingress', {
    body: { text, actor_id: 'alice', binding_id: 'relay', correlation_id: 'corr-1' },
  });
  expect(res.status, res.text).toBe(202);
  return res.json.message_id;
}

async function events(d: RunningDaemon) {
  const res = await request(d, 'GET', '/api/agents/main/events?order=asc&limit=1000');
  expect(res.status).toBe(200);
  return res.json.events as Array<{ type: string; payload: Record<string, any> }>;
}

function expectNothingLeaked(d: RunningDaemon, all: Array<{ type: string; payload: unknown }>) {
  expect(JSON.stringify(all)).not.toContain(SECRET);
  const delivery = all.filter((e) => e.type.startsWith('brief_deliver'));
  expect(JSON.stringify(delivery)).not.toContain(HOOK_PATH);
  expect(d.logs()).not.toContain(SECRET);
  expect(d.logs()).not.toContain(HOOK_PATH);
}

describe('brief delivery to an operator binding', () => {
  it("POSTs the turn's result brief to the callback with the bearer credential and records brief_delivered", async () => {
    const r = await receiver();
    const d = await pool.start({ configToml: CONFIG, args: ['--log-level', 'debug'] });
    await bind(d, r.url);
    const messageId = await ask(d, 'what is the status of the deploy?');

    await waitFor(() => r.received.length > 0, 20_000);
    const req = r.received[0]!;
    expect(req.url).toBe(HOOK_PATH);
    expect(req.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(req.body).toMatchObject({
      agent_id: 'main',
      binding_id: 'relay',
      reply_route_id: 'chat-7',
      correlation_id: 'corr-1',
      message_id: messageId,
      brief: { kind: 'result', message_id: messageId, agent_id: 'main' },
    });
    expect(req.body.brief.text).toContain('what is the status of the deploy?');
    expect(req.headers['idempotency-key']).toBe(req.body.brief.brief_id);

    const all = await waitFor(async () => {
      const ev = await events(d);
      return ev.some((e) => e.type === 'brief_delivered') && ev;
    }, 10_000);
    expect(all.find((e) => e.type === 'brief_delivered')!.payload).toEqual({
      brief_id: req.body.brief.brief_id,
      binding_id: 'relay',
      attempts: 1,
      status_code: 200,
    });
    expect(r.received).toHaveLength(1);
    expectNothingLeaked(d, all);
  });

  it('retries a failing callback and delivers once it answers 2xx', async () => {
    const r = await receiver();
    r.status = 500;
    const d = await pool.start({ configToml: CONFIG });
    await bind(d, r.url);
    await ask(d, 'retry me');
    await waitFor(() => r.received.length >= 2, 20_000);
    r.status = 204;
    const all = await waitFor(async () => {
      const ev = await events(d);
      return ev.some((e) => e.type === 'brief_delivered') && ev;
    }, 10_000);
    const failed = all.filter((e) => e.type === 'brief_delivery_failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed[0]!.payload).toMatchObject({ binding_id: 'relay', attempt: 1, error: 'HTTP 500', status_code: 500, next_attempt_at: expect.any(String) });
    const delivered = all.find((e) => e.type === 'brief_delivered')!.payload;
    expect(delivered).toMatchObject({ status_code: 204, attempts: failed.length + 1 });
    expect(new Set(r.received.map((x) => x.headers['idempotency-key'])).size).toBe(1);
    expectNothingLeaked(d, all);
  });

  it('delivers after a SIGKILL and restart what was still pending', async () => {
    const r = await receiver();
    r.status = 503;
    const home = pool.home();
    const d1 = await pool.start({ home, configToml: CONFIG });
    await bind(d1, r.url);
    await ask(d1, 'survive the crash');
    await waitFor(async () => (await events(d1)).some((e) => e.type === 'brief_delivery_failed'), 20_000);
    await d1.stop('SIGKILL');

    r.status = 200;
    const before = r.received.length;
    const d2 = await pool.start({ home });
    const all = await waitFor(async () => {
      const ev = await events(d2);
      return ev.some((e) => e.type === 'brief_delivered') && ev;
    }, 20_000);
    expect(r.received.length).toBeGreaterThan(before);
    expect(all.filter((e) => e.type === 'brief_delivered')).toHaveLength(1);
    // One brief, one delivery: the message's turn was not run again.
    expect(new Set(r.received.map((x) => x.body.brief.brief_id)).size).toBe(1);
  });
});

// --- end to end through a model that calls a tool ----------------------------------------------

describe('a model tool round trip reaches the operator', () => {
  it('model asks for run_command, the task runs, the output goes back to the model, the reply is delivered', async () => {
    // A real OpenAI-compatible server on loopback, streaming: a tool call whose arguments arrive
    // in fragments, then (once the tool result is back) the answer.
    const model = await startFakeOpenAI();
    model.enqueue({ toolCalls: [{ name: 'run_command', args: ['{"cmd":"echo e2e-', '$((6*7))"}'] }] }, { text: ['The check ', 'printed e2e-42'] });
    try {
      const r = await receiver();
      const d = await pool.start({
        configToml: `${CONFIG}\n[model]\ndefault = "fake/tool-model"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${model.url}"\napi_key_env = ""\nmodels = ["tool-model"]\n`,
      });
      await bind(d, r.url);
      await ask(d, 'run the check');
      await waitFor(() => r.received.length > 0, 30_000);
      // The tools were offered, and the second call carried the command's output as the tool result.
      const [first, second] = model.completions();
      expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('run_command');
      // The command's real output went back to the model as the tool result.
      const toolResult = second!.body.messages.find((m: { role: string }) => m.role === 'tool');
      expect(toolResult.content).toContain('e2e-42');
      expect(r.received[0]!.body.brief.text).toContain('e2e-42');
      const all = await events(d);
      const types = all.map((e) => e.type);
      for (const t of ['tool_called', 'task_create_requested', 'tool_result', 'brief_created']) expect(types).toContain(t);
      expect(all.find((e) => e.type === 'task_create_requested')!.payload.authority_class).toBe('runtime_instruction');
    } finally {
      await model.close();
    }
  });
});
