/**
 * AgentInbox's filter language through the real daemon's Unix socket, with AgentInbox's request
 * bodies: every filter of test/unit/fixtures/agentinbox-filters.json is created as AgentInbox's
 * client creates it (one agent each), the fixture's events are posted as its `source event`
 * posts them, and each agent's inbox holds exactly the events AgentInbox's own daemon matched
 * (svc's documented differences aside). svc's CEL over `event` works beside it on the same source.
 * Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Case {
  name: string;
  filter: Record<string, unknown>;
  agentinbox: { matched?: string[]; status?: number };
  svc?: { matched?: string[]; code?: string };
}
const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'unit', 'fixtures', 'agentinbox-filters.json');
const fixture = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { sourceKey: string; events: Json[]; filters: Case[] };

const pool = daemonPool();
let d: RunningDaemon;
let sourceId: string;
const created = new Map<string, { status: number; json: Json }>();

const api = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });

/** The native ids of an agent's inbox entries, in event order. */
async function matchedOf(agentId: string): Promise<string[]> {
  const res = await api('GET', `/agents/${agentId}/inbox/items?limit=1000`);
  expect(res.status, res.text).toBe(200);
  const ids = (res.json.entries as Json[]).map((e) => e.sourceNativeId ?? String(e.event.id).slice(String(e.event.id).indexOf(':') + 1));
  return fixture.events.map((e) => e.sourceNativeId as string).filter((id) => ids.includes(id));
}

beforeAll(async () => {
  d = await pool.start();
  // AgentInbox's bodies: host, then a source (its stream) keyed as the fixture's sourceKey.
  const host = await api('POST', '/hosts', { hostType: 'local_event', hostKey: 'filters' });
  const source = await api('POST', '/sources', { hostId: host.json.hostId, streamKind: 'events', streamKey: fixture.sourceKey });
  expect(source.status, source.text).toBe(201);
  sourceId = source.json.sourceId;
  for (const [i, c] of fixture.filters.entries()) {
    const agentId = `filter-${i}`;
    const agent = await api('POST', '/agents', { agentId });
    expect(agent.status, agent.text).toBe(201);
    const res = await api('POST', '/subscriptions', { agentId, sourceId, filter: c.filter });
    created.set(c.name, { status: res.status, json: res.json });
  }
  for (const e of fixture.events) {
    const res = await api('POST', `/sources/${sourceId}/events`, e);
    expect(res.status, res.text).toBe(200);
  }
}, 60_000);
afterAll(() => pool.cleanup());

describe("AgentInbox's filters created and matched through the socket", () => {
  it.each(fixture.filters.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const res = created.get(c.name)!;
    const want = c.svc ?? c.agentinbox;
    if (want.matched === undefined) {
      // An expr that is not a string is refused by the route's schema already (invalid_request).
      const code = typeof c.filter.expr === 'number' ? 'invalid_request' : (c.svc?.code ?? 'invalid_filter');
      expect([res.status, res.json.code]).toEqual([400, code]);
      return;
    }
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    // The created subscription echoes the filter as sent.
    expect(res.json.subscriptions[0].filter).toEqual(c.filter);
    expect(await matchedOf(`filter-${i}`)).toEqual(want.matched);
  });
});

describe('beside CEL over event, on the same source', () => {
  it('a CEL filter still matches as before; a filter mixing the two is refused and creates nothing', async () => {
    await api('POST', '/agents', { agentId: 'cel' });
    const cel = await api('POST', '/subscriptions', { agentId: 'cel', sourceId, filter: { expr: 'event.type == "ping" || event.metadata.priority == "high"' }, startPolicy: 'earliest' });
    expect(cel.status, cel.text).toBe(201);
    expect(await matchedOf('cel')).toEqual(['ci-main-fail', 'pr-comment', 'bare']);
    const before = (await api('GET', '/subscriptions?agentId=cel')).json.subscriptions.length;
    const mixed = await api('POST', '/subscriptions', { agentId: 'cel', sourceId, filter: { expr: 'event.type == "ping" && metadata.priority == "high"' } });
    expect([mixed.status, mixed.json.code]).toEqual([400, 'invalid_filter']);
    expect(mixed.json.error).toContain('mixes');
    expect((await api('GET', '/subscriptions?agentId=cel')).json.subscriptions).toHaveLength(before);
  });

  it('a regex that backtracks for ever in JavaScript neither matches nor trips the cost limit', async () => {
    await api('POST', '/agents', { agentId: 'redos' });
    const sub = await api('POST', '/subscriptions', { agentId: 'redos', sourceId, filter: { expr: 'matches(payload.text, "(a|a)*b")' } });
    expect(sub.status, sub.text).toBe(201);
    const posted = await api('POST', `/sources/${sourceId}/events`, { sourceNativeId: 'redos', eventVariant: 'note', rawPayload: { text: 'a'.repeat(4096) } });
    expect(posted.status, posted.text).toBe(200);
    expect(await matchedOf('redos')).toEqual([]);
    expect((await api('GET', `/subscriptions/${sub.json.subscriptions[0].subscriptionId}`)).json.filterError).toBeNull();
  });
});
