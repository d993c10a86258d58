/**
 * Delivery against the real daemon over its Unix socket: signed webhook notifications from a
 * direct item, pause and deliveryOnly catch-up counted exactly, runtime targets landing in the
 * control-plane queue, timers firing and surviving a restart, validation answers, the CLI.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, runSvc, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { requireTmux, tmuxAt } from '../helpers/inbox-delivery.js';
import { activationProblems, RECORDED, shapeDifferences } from '../helpers/agentinbox-activation.js';
import { startReceiver, verifySignature, type Receiver } from '../helpers/webhook-receiver.js';

const pool = daemonPool();
let d: RunningDaemon;
let rx: Receiver;

const CONFIG = '[delivery]\nretry_initial_ms = 200\nretry_max_ms = 1000\nmax_failures = 5\n';

/**
 * The daemon's own tmux server ($TMUX names it), private to this file: terminal registrations type
 * into its panes, never into a tmux server of whoever runs the tests.
 */
let daemonTmux: string;
const startDaemon = (home?: string) => pool.start({ home, configToml: CONFIG, env: { TMUX: `${daemonTmux},0,0` } });

beforeAll(async () => {
  rx = await startReceiver();
  daemonTmux = path.join(pool.home(), 'tmux.sock');
  d = await startDaemon();
});
afterEach(() => {
  rx.received.length = 0;
});
afterAll(async () => {
  pool.cleanup();
  await rx.close();
});

const api = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });

async function newAgent(): Promise<string> {
  const res = await api('POST', '/agents', { name: 'delivery' });
  expect(res.status).toBe(201);
  return res.json.agentId;
}

async function webhookTarget(agentId: string, name: string): Promise<string> {
  const res = await api('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: `${rx.url}?t=${name}` });
  expect(res.status, res.text).toBe(201);
  rx.setSecret(res.json.secret);
  return res.json.targetId;
}

const item = (agentId: string, message: string) => api('POST', `/agents/${agentId}/inbox/items`, { message });
const got = (name: string) => rx.received.filter((r) => r.url.endsWith(`?t=${name}`));

describe('webhook targets over the socket', () => {
  it('should notify a burst of direct items as one signed notification', async () => {
    const agentId = await newAgent();
    const targetId = await webhookTarget(agentId, 'burst');
    const listed = await api('GET', `/agents/${agentId}/targets`);
    expect(listed.status).toBe(200);
    expect(listed.json.targets).toEqual([expect.objectContaining({ targetId, kind: 'webhook', status: 'active' })]);
    expect(listed.text).not.toContain('whsec_');
    await Promise.all([item(agentId, 'one'), item(agentId, 'two'), item(agentId, 'three')]);
    await waitFor(() => got('burst').length >= 1, 10_000);
    // Give a second notification time to show up if coalescing were broken.
    await new Promise((r) => setTimeout(r, 600));
    expect(got('burst')).toHaveLength(1);
    const req = got('burst')[0]!;
    expect(req.signatureValid).toBe(true);
    expect(req.json).toMatchObject({ type: 'inbox.entries', agentId, targetId, entryCount: 3 });
  });

  it('should hold notifications while paused and catch up once on resume {deliveryOnly:true}', async () => {
    const agentId = await newAgent();
    await webhookTarget(agentId, 'pause');
    const paused = await api('POST', `/agents/${agentId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.json.deliveryPaused).toBe(true);
    await item(agentId, 'a');
    await item(agentId, 'b');
    const summary = await api('GET', `/agents/${agentId}/inbox`);
    expect(summary.json).toMatchObject({ unackedCount: 2, deliveryPaused: true });
    await new Promise((r) => setTimeout(r, 600));
    expect(got('pause')).toHaveLength(0);
    const resumed = await api('POST', `/agents/${agentId}/resume`, { deliveryOnly: true });
    expect(resumed.status).toBe(200);
    expect(resumed.json).toMatchObject({ deliveryPaused: false, recoveredTargets: [], catchUp: [expect.objectContaining({ reason: 'catch_up', entryCount: 2 })] });
    await waitFor(() => got('pause').length >= 1, 10_000);
    const again = await api('POST', `/agents/${agentId}/resume`, { deliveryOnly: true });
    expect(again.json.catchUp).toEqual([]);
    await new Promise((r) => setTimeout(r, 600));
    expect(got('pause')).toHaveLength(1);
    expect(got('pause')[0]!.json.entries.map((e: { message: string }) => e.message)).toEqual(['a', 'b']);
  });

  it('should retry after a failure and take the target offline on 410 until resumed', async () => {
    const agentId = await newAgent();
    const targetId = await webhookTarget(agentId, 'gone');
    rx.answer({ status: 500, headers: { 'retry-after': '1' } }, { status: 410 });
    await item(agentId, 'x');
    await waitFor(async () => (await api('GET', `/agents/${agentId}/targets`)).json.targets[0].status === 'offline', 10_000);
    expect(got('gone')).toHaveLength(2);
    const target = (await api('GET', `/agents/${agentId}/targets`)).json.targets[0];
    expect(target).toMatchObject({ status: 'offline', offlineReason: 'gone' });
    const resumed = await api('POST', `/agents/${agentId}/targets/${targetId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.json).toMatchObject({ status: 'active', recovered: true });
    await waitFor(() => got('gone').length === 3, 10_000);
    expect(new Set(got('gone').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });
});

describe("agent registration, AgentInbox's way", () => {
  it('should register a chosen id with its webhook target once, notify it signed, and list it with its targets', async () => {
    const url = `${rx.url}?t=register`;
    const first = await api('POST', '/agents', { agentId: 'reg-alpha', forceRebind: false, webhook: { url } });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toMatchObject({
      agentId: 'reg-alpha',
      name: null,
      deliveryPaused: false,
      agent: { agentId: 'reg-alpha', status: 'active' },
      webhookTarget: { kind: 'webhook', url, status: 'active', secret: expect.stringMatching(/^whsec_/) },
      terminalTarget: null,
      activationChannel: 'webhook',
    });
    rx.setSecret(first.json.webhookTarget.secret);
    const again = await api('POST', '/agents', { agentId: 'reg-alpha', webhook: { url } });
    expect(again.status).toBe(200);
    expect(again.json.webhookTarget.targetId).toBe(first.json.webhookTarget.targetId);
    expect(again.text).not.toContain('whsec_');
    expect((await api('GET', '/agents/reg-alpha/targets')).json.targets).toHaveLength(1);

    await item('reg-alpha', 'hello');
    await waitFor(() => got('register').length >= 1, 10_000);
    expect(got('register')[0]!.signatureValid).toBe(true);

    // Another URL adds a target and leaves the first one as it was.
    const second = await api('POST', '/agents', { agentId: 'reg-alpha', webhook: { url: `${rx.url}?t=register-2` } });
    expect(second.status).toBe(200);
    const listed = (await api('GET', '/agents?include_targets=true')).json.agents.find((a: { agentId: string }) => a.agentId === 'reg-alpha');
    expect(listed).toMatchObject({ agentId: 'reg-alpha', agent: { agentId: 'reg-alpha', status: 'active', deliveryPaused: false } });
    expect(listed.activationTargets.map((t: { url: string }) => t.url)).toEqual([url, `${rx.url}?t=register-2`]);
    expect((await api('GET', '/agents?includeTargets=false')).json.agents.find((a: { agentId: string }) => a.agentId === 'reg-alpha')).toEqual({
      agentId: 'reg-alpha',
      name: null,
      deliveryPaused: false,
      createdAt: expect.any(String),
      status: 'active',
      offlineSince: null,
      runtimeKind: 'unknown',
      runtimeSessionId: null,
      updatedAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    // svc's own form answers the agent, AgentInbox's Agent fields beside, without the registration's.
    const plain = await api('POST', '/agents', { name: 'plain' });
    expect(Object.keys(plain.json).sort()).toEqual(['agentId', 'createdAt', 'deliveryPaused', 'lastSeenAt', 'name', 'offlineSince', 'runtimeKind', 'runtimeSessionId', 'status', 'updatedAt']);
  });

  it('should refuse bad registrations with 400 and create nothing', async () => {
    const before = (await api('GET', '/agents')).json.agents.length;
    const bad: Array<[unknown, string]> = [
      [{ agentId: 'bad id!', webhook: { url: rx.url } }, 'invalid_agent_id'],
      [{ agentId: '-x', webhook: { url: rx.url } }, 'invalid_agent_id'],
      [{ agentId: 'reg-bad', webhook: { url: 'ftp://127.0.0.1/x' } }, 'invalid_request'],
      [{ agentId: 'reg-bad', webhook: { url: 'not a url' } }, 'invalid_request'],
      [{ agentId: 'reg-bad', webhook: { url: rx.url, activationMode: 'activation_everything' } }, 'invalid_request'],
      [{ agentId: 'reg-bad', webhook: { url: rx.url, notifyLeaseMs: 1000 } }, 'invalid_request'],
      [{ agentId: 'bad id!', backend: 'tmux', tmuxPaneId: '%1' }, 'invalid_agent_id'],
      [{ agentId: 5 }, 'invalid_request'],
      // Terminal registrations: only a pane id of the form %<digits> ever names a pane.
      ...['', '%', '1', '%-1', '%1 ', ' %1', '%1\n', '%1;id', '%1$(id)', '`id`', 'work:0.1', '%1.0', '%%1', '%1234567890', '-t%1'].map(
        (tmuxPaneId): [unknown, string] => [{ backend: 'tmux', tmuxPaneId }, 'invalid_request'],
      ),
      [{ backend: 'tmux', tmuxPaneId: 3 }, 'invalid_request'],
      [{ backend: 'tmux' }, 'invalid_request'],
      [{ backend: 'screen', tmuxPaneId: '%1' }, 'invalid_request'],
      [{ backend: 'iterm2', itermSessionId: 'w0t0p0:ABC' }, 'terminal_backend_unsupported'],
      [{ tmuxPaneId: '%1' }, 'invalid_request'],
      [{ agentId: 'reg-bad', runtimeKind: 'codex' }, 'invalid_request'],
      [{ agentId: 'reg-bad', backend: 'tmux', tmuxPaneId: '%1', webhook: { url: rx.url } }, 'invalid_request'],
      [{ backend: 'tmux', tmuxPaneId: '%1', runtimeKind: 'Codex; rm -rf /' }, 'invalid_request'],
      [{ backend: 'tmux', tmuxPaneId: '%1', runtimeSessionId: 'a\u001b]0;x\u0007' }, 'invalid_request'],
      [{ backend: 'tmux', tmuxPaneId: '%1', tty: '/etc/passwd\n' }, 'invalid_request'],
      [{ backend: 'tmux', tmuxPaneId: '%1', runtimePid: -1 }, 'invalid_request'],
      [{ backend: 'tmux', tmuxPaneId: '%1', notifyLeaseMs: 1000 }, 'invalid_request'],
      [{ backend: 'tmux', tmuxPaneId: '%1', forceRebind: 'yes' }, 'invalid_request'],
    ];
    for (const [body, code] of bad) {
      const res = await api('POST', '/agents', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ ok: false, code, error: expect.any(String) });
    }
    expect((await api('GET', '/agents')).json.agents).toHaveLength(before);
    const terminals = (await api('GET', '/agents?include_targets=true')).json.agents.flatMap((a: { activationTargets: Array<{ kind: string }> }) => a.activationTargets);
    expect(terminals.filter((t: { kind: string }) => t.kind === 'terminal')).toEqual([]);
    const policy = await api('POST', '/agents', { backend: 'tmux', tmuxPaneId: '%1', runtimeKind: 'unknown', minUnackedItems: 2 });
    expect(policy.json.hint).toMatch(/no per-target notification policies.*notify_lease_ms/);
    expect((await api('GET', '/agents?include_targets=maybe')).status).toBe(400);
    expect((await api('GET', '/agents?include_targets=true&includeTargets=false')).status).toBe(400);
  });
});

describe("AgentInbox's activation webhook", () => {
  /** Registered AgentInbox's way (`agent register --agent-id ID --webhook-url URL`), its secret known to the receiver. */
  async function register(agentId: string): Promise<{ targetId: string; secret: string }> {
    const res = await api('POST', '/agents', { agentId, forceRebind: false, webhook: { url: `${rx.url}?t=${agentId}` } });
    expect(res.status, res.text).toBe(201);
    return res.json.webhookTarget;
  }

  it('should be accepted by a receiver written for AgentInbox, signed as before, carrying only its own agent\'s data', async () => {
    const { targetId: alphaTarget, secret } = await register('ai-alpha');
    const { targetId: betaTarget } = await register('ai-beta');
    const hostId = (await api('POST', '/hosts', { hostType: 'local_event', hostKey: 'activation', config: {} })).json.hostId;
    const sourceId = (await api('POST', '/sources', { hostId, streamKind: 'events', streamKey: 'activation', config: {} })).json.sourceId;
    const subscribe = async (agentId: string) => (await api('POST', '/subscriptions', { agentId, sourceId, filter: {} })).json.subscriptions[0].subscriptionId as string;
    const alphaSub = await subscribe('ai-alpha');
    const betaSub = await subscribe('ai-beta');
    // Held back, then one catch-up notification of everything (one body to look at).
    await api('POST', '/agents/ai-alpha/pause');
    const event = (nativeId: string, rawPayload: object) => api('POST', `/sources/${sourceId}/events`, { sourceNativeId: nativeId, eventVariant: 'local.demo', metadata: { channel: 'eng' }, rawPayload });
    expect((await event('a-1', { text: 'hello from a producer' })).status).toBe(200);
    expect((await event('a-2', { title: 'second' })).status).toBe(200);
    const direct = await api('POST', '/agents/ai-alpha/inbox/items', { message: 'Please review PR #87', sender: 'operator' });
    expect(direct.status).toBe(201);
    await api('POST', '/agents/ai-alpha/resume', { deliveryOnly: true });
    await waitFor(() => got('ai-alpha').length >= 1 && got('ai-beta').length >= 1, 10_000);

    const alpha = got('ai-alpha')[0]!;
    expect(verifySignature(secret, alpha.headers, alpha.body)).toBe(true);
    expect(activationProblems(alpha.json)).toEqual([]);
    expect(shapeDifferences(RECORDED.activationOnly, alpha.json)).toEqual([]);
    expect(shapeDifferences(RECORDED.withItemsEvents, alpha.json)).toEqual([]);
    expect(alpha.json).toMatchObject({
      kind: 'agentinbox.activation',
      agentId: 'ai-alpha',
      targetId: alphaTarget,
      targetKind: 'webhook',
      subscriptionIds: [alphaSub],
      sourceIds: ['__agentinbox_direct_text__', sourceId],
      latestEntryId: direct.json.entryId,
      newEntryCount: 3,
      newItemCount: 3,
      summary: '3 new items for agent ai-alpha from direct_text_message:operator',
      deliveredAt: null,
      // svc's own fields beside them
      type: 'inbox.entries',
      reason: 'catch_up',
      entryCount: 3,
    });
    expect(alpha.json.activationId).toBe(alpha.headers['webhook-id']!.toString().replace(/^ntf_/, 'act_'));
    expect(alpha.json.items.map((i: { sourceNativeId: string; eventVariant: string; rawPayload: object }) => [i.sourceNativeId, i.eventVariant, i.rawPayload])).toEqual([
      ['a-1', 'local.demo', { text: 'hello from a producer' }],
      ['a-2', 'local.demo', { title: 'second' }],
      [expect.stringMatching(/^direct_/), 'agentinbox.direct_text_message', { type: 'direct_text_message', message: 'Please review PR #87', sender: 'operator' }],
    ]);
    expect(alpha.json.entries).toHaveLength(3);

    const beta = got('ai-beta')[0]!;
    expect(activationProblems(beta.json)).toEqual([]);
    expect(beta.json).toMatchObject({ agentId: 'ai-beta', subscriptionIds: [betaSub], sourceIds: [sourceId], newItemCount: 2 });
    expect(beta.json.inboxId).not.toBe(alpha.json.inboxId);
    // Neither body names the other agent, its subscription, its target or its direct item.
    for (const leak of ['ai-beta', betaSub, betaTarget]) expect(alpha.body).not.toContain(leak);
    for (const leak of ['ai-alpha', alphaSub, alphaTarget, 'PR #87', direct.json.entryId]) expect(beta.body).not.toContain(leak);
  });
});

describe('runtime targets over the socket', () => {
  it('should put a webhook_event with the inbox provenance into the control-plane queue', async () => {
    const agentId = await newAgent();
    const created = await api('POST', `/agents/${agentId}/targets`, { kind: 'runtime', runtimeAgentId: 'main' });
    expect(created.status, created.text).toBe(201);
    await item(agentId, 'for the runtime');
    const enqueued = await waitFor(async () => {
      const page = await request({ base: d.base }, 'GET', '/api/agents/main/events?limit=1000');
      return (page.json.events as Array<{ type: string; provenance?: { delivery_surface?: string } }>).find(
        (e) => e.type === 'message_enqueued' && e.provenance?.delivery_surface === 'inbox',
      );
    }, 10_000);
    expect(enqueued!.provenance).toMatchObject({
      kind: 'webhook_event',
      origin: { kind: 'webhook', source: 'inbox' },
      trust: 'trusted_integration',
      authority_class: 'integration_signal',
    });
  });

  it('should refuse an unknown control-plane agent', async () => {
    const agentId = await newAgent();
    const res = await api('POST', `/agents/${agentId}/targets`, { kind: 'runtime', runtimeAgentId: 'ghost' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ ok: false, code: 'runtime_agent_not_found' });
  });
});

describe('validation answers', () => {
  it('should answer 4xx envelopes for bad target and timer requests', async () => {
    const agentId = await newAgent();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', `/agents/${agentId}/targets`, { kind: 'webhook' }, 400, 'invalid_request'],
      ['POST', `/agents/${agentId}/targets`, { kind: 'fax', number: '1' }, 400, 'invalid_request'],
      ['POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: 'ftp://x/' }, 400, 'invalid_request'],
      ['POST', '/agents/agt_nope/targets', { kind: 'terminal', tmuxTarget: 'x' }, 404, 'agent_not_found'],
      ['DELETE', `/agents/${agentId}/targets/tgt_nope`, undefined, 404, 'target_not_found'],
      ['POST', `/agents/${agentId}/targets/tgt_nope/resume`, undefined, 404, 'target_not_found'],
      ['POST', '/agents/agt_nope/pause', undefined, 404, 'agent_not_found'],
      ['POST', `/agents/${agentId}/resume`, { deliveryOnly: 'yes' }, 400, 'invalid_request'],
      ['POST', '/timers', { agentId, message: 'm' }, 400, 'invalid_request'],
      ['POST', '/timers', { agentId, every: 1000, cron: '* * * * *', message: 'm' }, 400, 'invalid_request'],
      ['POST', '/timers', { agentId, every: 999, message: 'm' }, 400, 'invalid_request'],
      ['POST', '/timers', { agentId, cron: '0 9 * * *', timezone: 'Nowhere/Land', message: 'm' }, 400, 'invalid_timezone'],
      ['POST', '/timers', { agentId, cron: 'every day', message: 'm' }, 400, 'invalid_cron'],
      ['POST', '/timers', { agentId, at: '2030-01-01T00:00:00', message: 'm' }, 400, 'invalid_request'],
      ['POST', '/timers/sch_nope/pause', undefined, 404, 'timer_not_found'],
      ['DELETE', '/timers/sch_nope', undefined, 404, 'timer_not_found'],
    ];
    for (const [method, url, body, status, code] of cases) {
      const res = await api(method, url, body);
      expect({ url, body, status: res.status, code: res.json?.code }).toEqual({ url, body, status, code });
    }
    expect((await api('GET', '/timers?agentId=' + agentId)).json.timers).toEqual([]);
  });
});

describe('timers', () => {
  it('should materialise entries per occurrence and keep the timer across a restart', async () => {
    const agentId = await newAgent();
    const created = await api('POST', '/timers', { agentId, every: 1000, message: 'tick', sender: 'clock' });
    expect(created.status, created.text).toBe(201);
    const { scheduleId } = created.json;
    expect(created.json).toMatchObject({ kind: 'every', every: 1000, status: 'active', fireCount: 0 });
    await waitFor(async () => (await api('GET', `/agents/${agentId}/inbox`)).json.unackedCount >= 1, 10_000);
    const paused = await api('POST', `/timers/${scheduleId}/pause`);
    expect(paused.json).toMatchObject({ updated: true, status: 'paused', nextFireAt: null, timer: { status: 'paused' } });
    const count = (await api('GET', `/agents/${agentId}/inbox`)).json.unackedCount;
    await d.stop();
    d = await startDaemon(d.home);
    const listed = await api('GET', `/timers?agentId=${agentId}`);
    expect(listed.json.timers).toEqual([expect.objectContaining({ scheduleId, status: 'paused' })]);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api('GET', `/agents/${agentId}/inbox`)).json.unackedCount).toBe(count);
    expect((await api('POST', `/timers/${scheduleId}/resume`)).json.status).toBe('active');
    await waitFor(async () => (await api('GET', `/agents/${agentId}/inbox`)).json.unackedCount > count, 10_000);
    const items = await api('GET', `/agents/${agentId}/inbox/items?limit=100`);
    expect(items.json.entries[0]).toMatchObject({ kind: 'item', itemKind: 'timer', message: 'tick', sender: 'clock', scheduleId, rawPayload: { type: 'timer_fired', scheduleId, message: 'tick', sender: 'clock' } });
    expect((await api('DELETE', `/timers/${scheduleId}`)).json).toEqual({ scheduleId, deleted: true, removed: true });
  });
});

describe('gc', () => {
  it('should report what it removed', async () => {
    const res = await api('POST', '/gc');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ removed: { notificationsRemoved: expect.any(Number) } });
  });
});

describe('svc inbox CLI (delivery commands)', () => {
  const svc = (...args: string[]) => runSvc([...args, '--socket', d.socket, '--json'], {}, 30_000);
  const json = async (...args: string[]) => {
    const r = await svc(...args);
    expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('should create, list, pause, resume and delete through the CLI', async () => {
    const agentId = await newAgent();
    const target = await json('inbox', 'targets', 'create', agentId, '--kind', 'webhook', '--webhook-url', `${rx.url}?t=cli`);
    expect(target.secret).toMatch(/^whsec_/);
    expect((await json('inbox', 'targets', 'list', agentId)).targets).toHaveLength(1);
    expect((await json('inbox', 'agents', 'pause', agentId)).deliveryPaused).toBe(true);
    expect((await json('inbox', 'agents', 'resume', agentId, '--delivery-only')).deliveryPaused).toBe(false);
    expect((await json('inbox', 'targets', 'resume', agentId, target.targetId)).recovered).toBe(false);
    const timer = await json('inbox', 'timers', 'create', '--agent', agentId, '--cron', '0 9 * * 1-5', '--timezone', 'Europe/Berlin', '--message', 'standup');
    expect(timer).toMatchObject({ kind: 'cron', timezone: 'Europe/Berlin' });
    expect((await json('inbox', 'timers', 'list', '--agent', agentId)).timers).toHaveLength(1);
    expect((await json('inbox', 'timers', 'pause', timer.scheduleId)).status).toBe('paused');
    expect((await json('inbox', 'timers', 'resume', timer.scheduleId)).status).toBe('active');
    expect((await json('inbox', 'timers', 'delete', timer.scheduleId)).deleted).toBe(true);
    expect((await json('inbox', 'targets', 'delete', agentId, target.targetId)).deleted).toBe(true);
    expect(await json('inbox', 'gc')).toHaveProperty('removed');
    const bad = await runSvc(['inbox', 'timers', 'create', '--agent', agentId, '--cron', 'nope', '--message', 'm', '--socket', d.socket]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/^svc: invalid_cron: /m);
  });

  it('should set aggregation policies: at creation, per agent and per target, and back to the default', async () => {
    const digest = { mode: 'digest', cron: '0 9 * * *', timezone: 'Europe/Berlin' };
    const agent = await json('inbox', 'agents', 'create', '--name', 'digesting', '--aggregation', JSON.stringify(digest));
    expect(agent.aggregation).toMatchObject({ ...digest, maxEntries: 50 });
    const target = await json('inbox', 'targets', 'create', agent.agentId, '--kind', 'webhook', '--webhook-url', `${rx.url}?t=agg`, '--aggregation', '{"mode":"immediate"}');
    expect(target.aggregation).toEqual({ mode: 'immediate' });
    expect((await json('inbox', 'agents', 'aggregation', agent.agentId, '{"mode":"coalesce","windowMs":1000}')).aggregation).toMatchObject({ mode: 'coalesce', windowMs: 1000 });
    expect((await json('inbox', 'agents', 'aggregation', agent.agentId, 'null', '--target', target.targetId)).aggregation).toBeNull();
    expect(await json('inbox', 'agents', 'aggregation', agent.agentId, 'null')).not.toHaveProperty('aggregation');
    const bad = await runSvc(['inbox', 'agents', 'aggregation', agent.agentId, '{"mode":"digest","every":5}', '--socket', d.socket, '--json']);
    expect([bad.code, JSON.parse(bad.stdout).code]).toEqual([1, 'invalid_request']);
  });
});

describe('terminal target through the daemon', () => {
  let tmux: ReturnType<typeof tmuxAt> | undefined;
  beforeAll(() => {
    requireTmux();
    tmux = tmuxAt(daemonTmux);
    tmux('new-session', '-d', '-s', 'inbox', '-x', '200', '-y', '50', 'cat');
  });
  afterAll(() => {
    try {
      tmux?.('kill-server');
    } catch {
      /* already gone */
    }
  });
  const screen = () => tmux!('capture-pane', '-p', '-J', '-t', 'inbox:0.0');

  it('should type the notification into a real tmux pane', async () => {
    const agentId = await newAgent();
    const res = await api('POST', `/agents/${agentId}/targets`, { kind: 'terminal', tmuxTarget: 'inbox:0.0', tmuxSocket: daemonTmux });
    expect(res.status, res.text).toBe(201);
    await item(agentId, 'deploy done');
    await waitFor(() => screen().includes('deploy done'), 10_000);
  });

  it("should bind a terminal registration to its pane on the daemon's tmux server and type into it", async () => {
    const pane = tmux!('display-message', '-p', '-t', 'inbox:0.0', '#{pane_id}').trim();
    const res = await api('POST', '/agents', { forceRebind: false, backend: 'tmux', runtimeKind: 'unknown', tmuxPaneId: pane, termProgram: 'tmux' });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ activationChannel: 'terminal', terminalTarget: { kind: 'terminal', tmuxTarget: pane, tmuxSocket: null, tmuxPaneId: pane, backend: 'tmux' } });
    const typed = await item(res.json.agentId, 'typed into the registered pane');
    await waitFor(() => screen().includes('typed into the registered pane'), 10_000);
    expect(screen()).toContain(
      `AgentInbox: 1 unacked item for agent ${res.json.agentId}. Latest entryId: ${typed.json.entryId}. Preview: typed into the registered pane. Read the inbox for full details if needed.`,
    );
  });
});
