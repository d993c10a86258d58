/**
 * Approval requests announced in an inbox (`[policy] notify_inbox`), against the real daemon: a
 * scripted OpenAI-compatible model asks for run_command in a turn answering a public enqueue
 * (untrusted_external: the policy asks), the inbox agent's webhook target gets the request with
 * its secret redacted, and deciding it acknowledges the entry; a missing inbox agent is logged once
 * while the turn waits as usual.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import type { FakeModelServer } from '../helpers/fake-model-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const SECRET = 'sk-abcdefghijklmnopqrstuvwx';
const pool = daemonPool();
let fake: FakeModelServer;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
});
afterEach(async () => {
  pool.killAll();
  await fake?.close();
  rx.received.length = 0;
});
afterAll(async () => {
  pool.cleanup();
  await rx.close();
});

const config = (notifyInbox: string) =>
  `[model]\ndefault = "fake/m"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${fake.url}"\napi_key_env = ""\nmodels = ["m"]\n\n` +
  `[policy]\nnotify_inbox = "${notifyInbox}"\n\n[delivery]\nretry_initial_ms = 200\nretry_max_ms = 1000\n`;

async function start(notifyInbox: string): Promise<RunningDaemon> {
  fake = await startFakeOpenAI();
  fake.enqueue({ toolCalls: [{ name: 'run_command', args: [JSON.stringify({ cmd: `echo ${SECRET}` })] }] }, { text: ['done'] });
  return pool.start({ configToml: config(notifyInbox) });
}

/** A public enqueue: its turn runs at untrusted_external, where run_command asks. */
async function enqueue(d: RunningDaemon): Promise<void> {
  const res = await request(d, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'test' }, text: 'please run it' } });
  expect(res.status, res.text).toBe(202);
}

async function pendingApproval(d: RunningDaemon): Promise<{ approval_id: string; tool: string }> {
  return waitFor(async () => (await request(d, 'GET', '/api/agents/main/approvals?status=pending')).json?.approvals?.[0], 15_000);
}

describe('approval notifications', () => {
  it('should send the request to the inbox agent named by policy.notify_inbox, redacted, and acknowledge it once decided', async () => {
    const d = await start('ops');
    const inbox = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
    expect((await inbox('POST', '/agents', { agentId: 'ops' })).status).toBe(201);
    const target = await inbox('POST', '/agents/ops/targets', { kind: 'webhook', url: rx.url });
    expect(target.status, target.text).toBe(201);
    rx.setSecret(target.json.secret);

    await enqueue(d);
    const approval = await pendingApproval(d);
    expect(approval.tool).toBe('run_command');
    const hook = await waitFor(() => rx.received.find((r) => r.json?.type === 'inbox.entries'), 15_000);
    expect(hook.signatureValid).toBe(true);
    expect(hook.body).not.toContain(SECRET);
    expect(hook.json.agentId).toBe('ops');
    const [entry] = hook.json.entries;
    expect(entry).toMatchObject({
      kind: 'item',
      itemKind: 'direct',
      sender: 'svc approvals',
      metadata: { type: 'svc.approval_requested', approval_id: approval.approval_id, agent_id: 'main', tool: 'run_command', trust: 'untrusted_external' },
    });
    expect(entry.metadata.tainted_by).toMatchObject({ kind: 'channel_event', trust: 'untrusted_external' });
    expect(entry.metadata.arguments_preview).toBe('{"cmd":"echo [redacted]"}');
    expect(entry.message).toContain('run_command');
    expect(entry.message).toContain('echo [redacted]');
    expect(entry.message).toContain(`svc approvals approve ${approval.approval_id} --agent main`);
    expect(entry.message).toContain(`svc approvals deny ${approval.approval_id} --agent main`);
    expect(entry.message).toContain(`POST /api/control/agents/main/approvals/${approval.approval_id}`);
    expect((await inbox('GET', '/agents/ops/inbox')).json.unackedCount).toBe(1);

    const decided = await request(d, 'POST', `/api/control/agents/main/approvals/${approval.approval_id}`, { body: { decision: 'deny', note: 'not now' } });
    expect(decided.status, decided.text).toBe(200);
    await waitFor(async () => (await inbox('GET', '/agents/ops/inbox')).json.unackedCount === 0, 10_000);
    const items = await inbox('GET', '/agents/ops/inbox/items?includeAcked=true');
    expect(items.json.entries).toEqual([expect.objectContaining({ entryId: entry.entryId, ackedAt: expect.any(String) })]);
    // The turn went on: the model heard the denial and answered.
    const second = await waitFor(() => fake.completions()[1], 10_000);
    expect(JSON.stringify(second.body)).toContain('not now');
  });

  it('should acknowledge the entry of a request decided after a restart', async () => {
    let d = await start('ops');
    const inbox = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
    expect((await inbox('POST', '/agents', { agentId: 'ops' })).status).toBe(201);
    await enqueue(d);
    const approval = await pendingApproval(d);
    await waitFor(async () => (await inbox('GET', '/agents/ops/inbox')).json.unackedCount === 1, 10_000);
    expect(await d.stop()).toBe(0);
    d = await pool.start({ home: d.home, configToml: config('ops') });
    const decided = await request(d, 'POST', `/api/control/agents/main/approvals/${approval.approval_id}`, { body: { decision: 'deny' } });
    expect(decided.status, decided.text).toBe(200);
    await waitFor(async () => (await inbox('GET', '/agents/ops/inbox')).json.unackedCount === 0, 10_000);
  });

  it('should log one line and leave the turn waiting when policy.notify_inbox names a missing inbox agent', async () => {
    const d = await start('nobody');
    await enqueue(d);
    const approval = await pendingApproval(d);
    const lines = () => d.logLines().filter((l) => String(l.msg).includes('notify_inbox names an inbox agent that does not exist'));
    const [line] = await waitFor(() => (lines().length > 0 ? lines() : null), 10_000);
    expect(line).toMatchObject({ inbox_agent_id: 'nobody', approval_id: approval.approval_id });
    const state = await request(d, 'GET', `/api/agents/main/approvals/${approval.approval_id}`);
    expect(state.json.status).toBe('pending');
    expect(fake.completions()).toHaveLength(1);
    expect(lines()).toHaveLength(1);
    expect(rx.received).toEqual([]);
  });
});
