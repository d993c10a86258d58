/**
 * Aggregation policies: validation and records through the inbox routes (inject; every refused
 * request changes nothing), AgentInbox's `inbox policy` (its own fields, beside svc's), and what each mode does to the
 * notifications of new entries. In-process services with a ManualClock; webhook targets on a real
 * loopback receiver.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInboxSurface, type Surface } from '../../src/http/surfaces.js';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { tick as tickAll } from '../helpers/inbox-delivery.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestServices;
let rx: Receiver;
let inbox: Surface;

beforeEach(async () => {
  // inject has no socket peer to check: trust loopback clients as the route tests do.
  t = testServices({ configToml: '[auth]\ntrust_loopback_peers = true\n' });
  rx = await startReceiver();
  inbox = await buildInboxSurface(t.s);
});
afterEach(async () => {
  await inbox.app.close();
  await t.close();
  await rx.close();
});

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function api(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await inbox.app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: res.statusCode, json: res.json() };
}

const tick = (ms: number) => tickAll(t, ms);
const direct = (agentId: string, message: string) => t.s.inbox.entries.create(agentId, { kind: 'direct', message });

function setup() {
  const { agentId } = t.s.inbox.agents.create({});
  const { targetId } = t.s.inbox.targets.create(agentId, { kind: 'webhook', url: rx.url });
  return { agentId, targetId };
}

describe('policy records', () => {
  it("should show no policy of its own on a new agent: AgentInbox's inbox policy defaults and the default coalesce 250 ms in its policy view", async () => {
    const { agentId, targetId } = setup();
    const agent = await api('GET', `/agents/${agentId}`);
    expect(agent.json).not.toHaveProperty('aggregation');
    const view = await api('GET', `/agents/${agentId}/inbox/policy`);
    expect(view.status).toBe(200);
    expect(view.json).toEqual({
      enabled: false,
      windowMs: 30_000,
      maxItems: 20,
      maxThreadAgeMs: 86_400_000,
      agentId,
      aggregation: { mode: 'coalesce', windowMs: 250, maxEntries: null },
      isDefault: true,
      targets: [{ targetId, kind: 'webhook', aggregation: null, effective: { mode: 'coalesce', windowMs: 250, maxEntries: null }, digest: null }],
    });
    expect(Object.keys(view.json).slice(0, 4)).toEqual(['enabled', 'windowMs', 'maxItems', 'maxThreadAgeMs']);
    expect((await api('GET', `/agents/${agentId}/targets`)).json.targets[0].aggregation).toBeNull();
  });

  it('should store each mode normalized, show it on the agent, and clear it with null', async () => {
    const { agentId } = setup();
    const cases: Array<[unknown, unknown]> = [
      [{ mode: 'immediate' }, { mode: 'immediate' }],
      [{ mode: 'coalesce', windowMs: 0 }, { mode: 'coalesce', windowMs: 0, maxEntries: null }],
      [{ mode: 'coalesce', windowMs: 3_600_000, maxEntries: 7 }, { mode: 'coalesce', windowMs: 3_600_000, maxEntries: 7 }],
      [{ mode: 'digest', every: 60_000, timezone: 'UTC' }, { mode: 'digest', every: 60_000, cron: null, timezone: 'UTC', maxEntries: 50 }],
      [
        { mode: 'digest', cron: ' 0 9 * * 1-5 ', timezone: 'Europe/Berlin', maxEntries: 1000 },
        { mode: 'digest', every: null, cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', maxEntries: 1000 },
      ],
    ];
    for (const [sent, stored] of cases) {
      const res = await api('PATCH', `/agents/${agentId}`, { aggregation: sent });
      expect(res.status, JSON.stringify(sent)).toBe(200);
      expect(res.json.aggregation).toEqual(stored);
      expect((await api('GET', `/agents/${agentId}`)).json.aggregation).toEqual(stored);
      expect((await api('GET', `/agents/${agentId}/inbox/policy`)).json).toMatchObject({ aggregation: stored, isDefault: false });
    }
    const cleared = await api('PATCH', `/agents/${agentId}`, { aggregation: null });
    expect(cleared.status).toBe(200);
    expect(cleared.json).not.toHaveProperty('aggregation');
    expect((await api('GET', `/agents/${agentId}/inbox/policy`)).json.isDefault).toBe(true);
  });

  it('should default a digest time zone to the host zone, resolved when set', async () => {
    const { agentId } = setup();
    const res = await api('PATCH', `/agents/${agentId}`, { aggregation: { mode: 'digest', cron: '0 * * * *' } });
    expect(res.json.aggregation.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  });

  it('should refuse bad policies with a 400 envelope and change nothing', async () => {
    const { agentId, targetId } = setup();
    await api('PATCH', `/agents/${agentId}`, { aggregation: { mode: 'coalesce', windowMs: 500 } });
    const before = (await api('GET', `/agents/${agentId}/inbox/policy`)).json;
    const bad: Array<[unknown, string]> = [
      [{}, 'invalid_request'],
      [{ aggregation: { mode: 'batch' } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce' } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce', windowMs: -1 } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce', windowMs: 3_600_001 } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce', windowMs: 1.5 } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce', windowMs: '250' } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce', windowMs: 10, maxEntries: 0 } }, 'invalid_request'],
      [{ aggregation: { mode: 'coalesce', windowMs: 10, every: 60_000 } }, 'invalid_request'],
      [{ aggregation: { mode: 'immediate', windowMs: 10 } }, 'invalid_request'],
      [{ aggregation: { mode: 'digest' } }, 'invalid_request'],
      [{ aggregation: { mode: 'digest', every: 59_999 } }, 'invalid_request'],
      [{ aggregation: { mode: 'digest', every: 60_000, cron: '* * * * *' } }, 'invalid_request'],
      [{ aggregation: { mode: 'digest', every: 60_000, maxEntries: 1001 } }, 'invalid_request'],
      [{ aggregation: { mode: 'digest', every: 60_000, maxEntries: 0 } }, 'invalid_request'],
      [{ aggregation: { mode: 'digest', cron: 'every hour' } }, 'invalid_cron'],
      [{ aggregation: { mode: 'digest', cron: '0 0 * * * *' } }, 'invalid_cron'],
      [{ aggregation: { mode: 'digest', cron: '61 * * * *' } }, 'invalid_cron'],
      [{ aggregation: { mode: 'digest', cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, 'invalid_timezone'],
      [{ aggregation: { mode: 'digest', every: 60_000, timezone: 'Nowhere' } }, 'invalid_timezone'],
      [{ aggregation: { mode: 'immediate' }, name: 'x' }, 'invalid_request'],
    ];
    for (const [body, code] of bad) {
      for (const url of [`/agents/${agentId}`, `/agents/${agentId}/targets/${targetId}`]) {
        const res = await api('PATCH', url, body);
        expect({ url, body, status: res.status, code: res.json.code, ok: res.json.ok }).toEqual({ url, body, status: 400, code, ok: false });
      }
    }
    expect((await api('GET', `/agents/${agentId}/inbox/policy`)).json).toEqual(before);
    expect(t.s.inbox.digests.scheduleOf(targetId)).toBeNull();
  });

  it('should answer 404 for a change of an unknown agent or target, and the defaults for an unknown agent\'s policy (as AgentInbox)', async () => {
    const { agentId } = setup();
    const body = { aggregation: { mode: 'immediate' } };
    expect((await api('PATCH', '/agents/agt_nope', body)).json.code).toBe('agent_not_found');
    expect((await api('PATCH', `/agents/${agentId}/targets/tgt_nope`, body)).json.code).toBe('target_not_found');
    expect(await api('GET', '/agents/agt_nope/inbox/policy')).toMatchObject({
      status: 200,
      json: { enabled: false, windowMs: 30_000, maxItems: 20, maxThreadAgeMs: 86_400_000, agentId: 'agt_nope', isDefault: true, targets: [] },
    });
    expect((await api('POST', '/agents/agt_nope/inbox/policy', { enabled: true })).json.code).toBe('agent_not_found');
    expect((await api('POST', '/agents/agt_nope/inbox/policy', body)).json.code).toBe('agent_not_found');
    expect(t.s.inbox.agents.exists('agt_nope')).toBe(false);
  });

  it("should take a target's own policy at creation and by PATCH, and show the effective one", async () => {
    const { agentId, targetId } = setup();
    const created = await api('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: `${rx.url}?t=d`, aggregation: { mode: 'digest', every: 3_600_000, timezone: 'UTC' } });
    expect(created.status).toBe(201);
    expect(created.json.aggregation).toEqual({ mode: 'digest', every: 3_600_000, cron: null, timezone: 'UTC', maxEntries: 50 });
    const patched = await api('PATCH', `/agents/${agentId}/targets/${targetId}`, { aggregation: { mode: 'immediate' } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ targetId, aggregation: { mode: 'immediate' } });
    await api('PATCH', `/agents/${agentId}`, { aggregation: { mode: 'coalesce', windowMs: 1000 } });
    const view = (await api('GET', `/agents/${agentId}/inbox/policy`)).json;
    expect(view.targets).toEqual([
      { targetId, kind: 'webhook', aggregation: { mode: 'immediate' }, effective: { mode: 'immediate' }, digest: null },
      {
        targetId: created.json.targetId,
        kind: 'webhook',
        aggregation: created.json.aggregation,
        effective: created.json.aggregation,
        digest: { nextDigestAt: new Date(t.clock.now() + 3_600_000).toISOString(), lastDigestAt: null, digestCount: 0 },
      },
    ]);
    const back = await api('PATCH', `/agents/${agentId}/targets/${targetId}`, { aggregation: null });
    expect(back.json.aggregation).toBeNull();
    expect((await api('GET', `/agents/${agentId}/inbox/policy`)).json.targets[0].effective).toEqual({ mode: 'coalesce', windowMs: 1000, maxEntries: null });
  });

  it('should refuse a target with a bad policy and create none', async () => {
    const { agentId } = setup();
    const res = await api('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: rx.url, aggregation: { mode: 'digest', cron: 'nope' } });
    expect(res).toMatchObject({ status: 400, json: { ok: false, code: 'invalid_cron' } });
    expect(t.s.inbox.targets.list(agentId)).toHaveLength(1);
  });

  it('should set a policy at agent creation and registration, and refuse a bad one creating nothing', async () => {
    const plain = await api('POST', '/agents', { name: 'p', aggregation: { mode: 'immediate' } });
    expect(plain.status).toBe(201);
    expect(plain.json.aggregation).toEqual({ mode: 'immediate' });
    const reg = await api('POST', '/agents', { agentId: 'dig-1', webhook: { url: rx.url }, aggregation: { mode: 'digest', every: 60_000, timezone: 'UTC' } });
    expect(reg.status).toBe(201);
    expect(reg.json.agent.aggregation).toMatchObject({ mode: 'digest', every: 60_000 });
    // The webhook target created with the agent follows its digest policy.
    expect(t.s.inbox.digests.scheduleOf(reg.json.webhookTarget.targetId)).toMatchObject({ digestCount: 0 });
    // Registering again changes nothing, the policy included.
    const again = await api('POST', '/agents', { agentId: 'dig-1', aggregation: { mode: 'immediate' } });
    expect(again.status).toBe(200);
    expect(again.json.aggregation).toMatchObject({ mode: 'digest' });
    const count = t.s.inbox.agents.list().length;
    for (const aggregation of [{ mode: 'digest', cron: 'x' }, { mode: 'digest', every: 60_000, timezone: 'X/Y' }, { mode: 'coalesce', windowMs: -5 }]) {
      const res = await api('POST', '/agents', { agentId: 'dig-2', webhook: { url: rx.url }, aggregation });
      expect(res.status).toBe(400);
    }
    expect(t.s.inbox.agents.list()).toHaveLength(count);
  });
});

describe("AgentInbox's inbox policy", () => {
  it("should change the inbox policy as AgentInbox does: enabled kept unless sent, numbers not sent back to their defaults; svc's notification policy untouched", async () => {
    const { agentId } = setup();
    const set = (body: unknown) => api('POST', `/agents/${agentId}/inbox/policy`, body);
    const svcDefault = { mode: 'coalesce', windowMs: 250, maxEntries: null };
    expect((await set({ enabled: true, windowMs: 5000, maxItems: 20 })).json).toMatchObject({ enabled: true, windowMs: 5000, maxItems: 20, maxThreadAgeMs: 86_400_000, aggregation: svcDefault });
    expect((await set({ maxThreadAgeMs: 60_000 })).json).toMatchObject({ enabled: true, windowMs: 30_000, maxItems: 20, maxThreadAgeMs: 60_000 });
    expect((await set({ windowMs: 800 })).json).toMatchObject({ enabled: true, windowMs: 800, maxThreadAgeMs: 86_400_000 });
    expect((await set({})).json).toMatchObject({ enabled: true, windowMs: 30_000 });
    expect((await set(undefined)).json).toMatchObject({ enabled: true, windowMs: 30_000 });
    expect((await set({ enabled: false, maxItems: 5 })).json).toMatchObject({ enabled: false, windowMs: 30_000, maxItems: 5, aggregation: svcDefault, isDefault: true });
    expect(t.s.inbox.agents.inbox(agentId)).toMatchObject({ inboxId: expect.stringMatching(/^inb_[23456789abcdefghjkmnpqrstvwxyz]{12}$/), aggregationEnabled: false, aggregationWindowMs: null, aggregationMaxItems: 5, aggregationMaxThreadAgeMs: null });
    expect((await set({ aggregation: { mode: 'digest', every: 120_000, timezone: 'UTC' } })).json).toMatchObject({ enabled: false, maxItems: 5, aggregation: { mode: 'digest', every: 120_000 } });
    expect((await set({ aggregation: null })).json.isDefault).toBe(true);
    const show = await api('GET', `/agents/${agentId}/inbox/policy`);
    expect(show.json).toMatchObject({ enabled: false, windowMs: 30_000, maxItems: 5, isDefault: true });
  });

  it('should refuse bad AgentInbox bodies and change nothing', async () => {
    const { agentId } = setup();
    const before = (await api('GET', `/agents/${agentId}/inbox/policy`)).json;
    const huge = Number.MAX_SAFE_INTEGER;
    for (const body of [{ enabled: 'yes' }, { windowMs: 0 }, { maxItems: 0 }, { maxThreadAgeMs: 0 }, { windowMs: huge }, { maxItems: huge }, { maxThreadAgeMs: huge }, { windowMs: 1.5 }, { other: 1 }, { enabled: true, aggregation: { mode: 'immediate' } }]) {
      const res = await api('POST', `/agents/${agentId}/inbox/policy`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ ok: false, code: 'invalid_request' });
    }
    const proto = await inbox.app.inject({ method: 'POST', url: `/agents/${agentId}/inbox/policy`, headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"enabled":true},"maxItems":3}' });
    expect(proto.statusCode).toBe(400);
    expect((await api('GET', `/agents/${agentId}/inbox/policy`)).json).toEqual(before);
  });
});

describe('what each mode does to new-entry notifications', () => {
  it('should keep the default: a burst within 250 ms is one notification', async () => {
    const { agentId } = setup();
    direct(agentId, 'a');
    await tick(COALESCE_MS - 1);
    direct(agentId, 'b');
    expect(rx.received).toHaveLength(0);
    await tick(1);
    expect(rx.received.map((r) => r.json.entryCount)).toEqual([2]);
  });

  it('immediate: should notify each commit without waiting', async () => {
    const { agentId } = setup();
    t.s.inbox.aggregation.setAgent(agentId, { mode: 'immediate' });
    direct(agentId, 'a');
    await tick(0);
    // Acknowledged: the notify lease ends, so the next commit is notified as the first was.
    await t.s.inbox.entries.ack(agentId, { all: true });
    direct(agentId, 'b');
    await tick(0);
    expect(rx.received.map((r) => r.json.entries.map((e: Json) => e.message))).toEqual([['a'], ['b']]);
  });

  it('coalesce: should hold the window for windowMs, never extending it', async () => {
    const { agentId } = setup();
    t.s.inbox.aggregation.setAgent(agentId, { mode: 'coalesce', windowMs: 10_000 });
    direct(agentId, 'a');
    await tick(9_000);
    direct(agentId, 'b');
    await tick(999);
    expect(rx.received).toHaveLength(0);
    await tick(1);
    expect(rx.received.map((r) => r.json.entryCount)).toEqual([2]);
  });

  it('coalesce with maxEntries: should close the window early once that many entries wait', async () => {
    const { agentId } = setup();
    t.s.inbox.aggregation.setAgent(agentId, { mode: 'coalesce', windowMs: 60_000, maxEntries: 3 });
    direct(agentId, 'a');
    direct(agentId, 'b');
    await tick(0);
    expect(rx.received).toHaveLength(0);
    direct(agentId, 'c');
    await tick(0);
    expect(rx.received.map((r) => r.json.entryCount)).toEqual([3]);
    await t.s.inbox.entries.ack(agentId, { all: true });
    direct(agentId, 'd');
    await tick(59_999);
    expect(rx.received).toHaveLength(1);
    await tick(1);
    expect(rx.received.map((r) => r.json.entryCount)).toEqual([3, 1]);
  });

  it("a target's own policy should win over the agent's", async () => {
    const { agentId, targetId } = setup();
    const other = t.s.inbox.targets.create(agentId, { kind: 'webhook', url: `${rx.url}?t=slow` });
    t.s.inbox.aggregation.setAgent(agentId, { mode: 'coalesce', windowMs: 60_000 });
    t.s.inbox.aggregation.setTarget(agentId, targetId, { mode: 'immediate' });
    direct(agentId, 'a');
    await tick(0);
    expect(rx.received.map((r) => r.json.targetId)).toEqual([targetId]);
    await tick(60_000);
    expect(rx.received.map((r) => r.json.targetId)).toEqual([targetId, other.targetId]);
  });
});
