/**
 * `svc inbox …` against a real daemon over its socket: inbox agents named by id or by name in
 * every command that takes one, the webhook URL as --webhook-url (--url is the control plane's
 * everywhere), durations with units, and table headers in the CLI's one style. Needs `npm run
 * build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, runSvc, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let d: RunningDaemon;
const HOOK = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
  d = await pool.start();
});
afterAll(() => pool.cleanup());

const svc = (...args: string[]) => runSvc([...args, '--socket', d.socket], {}, 30_000);
async function json(...args: string[]): Promise<Json> {
  const r = await svc(...args, '--json');
  expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('inbox agents by name', () => {
  let ops: string;
  beforeAll(async () => {
    ops = (await json('inbox', 'agents', 'create', '--name', 'ops')).agentId;
  });

  it('every command taking an agent accepts its name as well as its id', async () => {
    expect((await json('inbox', 'agents', 'get', 'ops')).agentId).toBe(ops);
    const host = await json('inbox', 'hosts', 'create', '--type', 'local_event', '--key', 'by-name');
    const source = await json('inbox', 'sources', 'create', '--host', host.hostId, '--kind', 'ci', '--key', 'builds');
    const [sub] = (await json('inbox', 'subscriptions', 'create', '--agent', 'ops', '--source', source.sourceId)).subscriptions;
    expect(sub.agentId).toBe(ops);
    expect((await json('inbox', 'subscriptions', 'list', '--agent', 'ops')).subscriptions.map((s: Json) => s.subscriptionId)).toEqual([sub.subscriptionId]);

    expect((await json('inbox', 'items', 'add', 'ops', 'call the vendor')).entryId).toMatch(/\S/);
    expect(await json('inbox', 'send', 'ops', 'and the bank', '--sender', 'me')).toMatchObject({ itemId: expect.stringMatching(/^itm_/), inboxId: expect.stringMatching(/^inb_[23456789abcdefghjkmnpqrstvwxyz]{12}$/), activated: false });
    expect((await json('inbox', 'read', 'ops')).entries.map((e: Json) => e.message)).toEqual(['call the vendor', 'and the bank']);
    expect((await json('inbox', 'ack', 'ops', '--all')).acked).toBe(2);
    expect(await json('inbox', 'compact', 'ops')).toEqual({ deleted: 0, retentionMs: 86_400_000, agentId: ops });
    expect(await json('inbox', 'compact', 'ops', '--retention', '0')).toEqual({ deleted: 2, retentionMs: 0, agentId: ops });
    expect(await json('inbox', 'policy', 'set', 'ops', '--enabled', '--window-ms', '5s', '--max-items', '3')).toMatchObject({ agentId: ops, enabled: true, windowMs: 5000, maxItems: 3 });
    expect(await json('inbox', 'policy', 'show', 'ops')).toMatchObject({ enabled: true, windowMs: 5000, maxItems: 3, maxThreadAgeMs: 86_400_000 });
    expect(await json('inbox', 'policy', 'set', 'ops', '--disabled')).toMatchObject({ enabled: false, windowMs: 30_000, maxItems: 20 });

    const target = await json('inbox', 'targets', 'create', 'ops', '--kind', 'webhook', '--webhook-url', HOOK);
    expect((await json('inbox', 'targets', 'list', 'ops')).targets.map((t: Json) => t.targetId)).toEqual([target.targetId]);
    expect((await json('inbox', 'agents', 'aggregation', 'ops', '{"mode":"immediate"}')).aggregation).toEqual({ mode: 'immediate' });
    expect((await json('inbox', 'agents', 'pause', 'ops')).deliveryPaused).toBe(true);
    expect((await json('inbox', 'agents', 'resume', 'ops', '--delivery-only')).deliveryPaused).toBe(false);
    expect((await json('inbox', 'targets', 'delete', 'ops', target.targetId)).deleted).toBe(true);

    const timer = await json('inbox', 'timers', 'create', '--agent', 'ops', '--every', '1h', '--message', 'check the queue');
    expect(timer).toMatchObject({ agentId: ops, kind: 'every', every: 3_600_000 });
    expect((await json('inbox', 'timers', 'list', '--agent', 'ops')).timers.map((t: Json) => t.scheduleId)).toEqual([timer.scheduleId]);
    // The id still works, and is what the name stands for.
    expect((await json('inbox', 'read', ops)).entries).toEqual([]);
  }, 90_000);

  it('an unknown name is agent_not_found, exit 1, in text and in JSON', async () => {
    for (const args of [['read', 'nobody'], ['watch', 'nobody'], ['subscriptions', 'list', '--agent', 'nobody'], ['timers', 'create', '--agent', 'nobody', '--every', '1h', '--message', 'm']]) {
      const r = await svc('inbox', ...args);
      expect([r.code, r.stdout], r.stderr).toEqual([1, '']);
      expect(r.stderr).toMatch(/^svc: agent_not_found: no inbox agent has the id or name 'nobody'$/m);
    }
    const j = await svc('inbox', 'read', 'nobody', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, code: 'agent_not_found', status: 404 });
  });

  it('a name two agents share is an error listing both ids', async () => {
    const ids = [(await json('inbox', 'agents', 'create', '--name', 'twin')).agentId, (await json('inbox', 'agents', 'create', '--name', 'twin')).agentId];
    const r = await svc('inbox', 'read', 'twin');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^svc: agent_name_ambiguous: 2 inbox agents are named 'twin': /m);
    for (const id of ids) expect(r.stderr).toContain(id);
    const j = await svc('inbox', 'agents', 'get', 'twin', '--json');
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, code: 'agent_name_ambiguous', ids: expect.arrayContaining(ids) });
    expect((await json('inbox', 'agents', 'get', ids[0])).agentId).toBe(ids[0]);
  });

  it('a target or schedule given as . or .. is refused, not resolved into the parent path', async () => {
    const agent = (await json('inbox', 'agents', 'create', '--name', 'dots')).agentId;
    for (const args of [['targets', 'delete', 'dots', '..'], ['targets', 'resume', 'dots', '.'], ['timers', 'delete', '..']]) {
      const r = await svc('inbox', ...args);
      expect([r.code, r.stdout], r.stderr).toEqual([1, '']);
      expect(r.stderr).toMatch(/^svc: invalid_argument: '\.{1,2}' is not a valid (targetId|scheduleId)$/m);
    }
    // DELETE /agents/{id}/targets/.. would have been DELETE /agents/{id}.
    expect((await json('inbox', 'agents', 'get', 'dots')).agentId).toBe(agent);
  });
});

describe('inbox targets create: --webhook-url', () => {
  it('is the webhook URL, while --url (before or after the subcommand) stays the control-plane URL', async () => {
    const agent = (await json('inbox', 'agents', 'create', '--name', 'hooked')).agentId;
    const r = await runSvc(['--url', 'http://127.0.0.1:1', 'inbox', 'targets', 'create', agent, '--kind', 'webhook', '--webhook-url', HOOK, '--socket', d.socket, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'webhook', url: HOOK, secret: expect.stringMatching(/^whsec_/) });
  });

  it('a webhook target given only --url is a usage error naming --webhook-url', async () => {
    const r = await svc('inbox', 'targets', 'create', 'hooked', '--kind', 'webhook', '--url', HOOK);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/a webhook target needs --webhook-url URL \(--url is the control-plane URL, not the webhook's\)/);
    const j = await svc('inbox', 'targets', 'create', 'hooked', '--kind', 'webhook', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, code: 'usage_error', error: expect.stringContaining('--webhook-url') });
    expect((await json('inbox', 'targets', 'list', 'hooked')).targets).toHaveLength(1);
  });
});

describe('inbox tables', () => {
  it('print headers in the style of the control-plane tables (HOST_ID, CREATED_AT)', async () => {
    await json('inbox', 'hosts', 'create', '--type', 'local_event', '--key', 'headers');
    const hosts = await svc('inbox', 'hosts', 'list');
    expect(hosts.stdout).toMatch(/^HOST_ID\s+HOST_TYPE\s+HOST_KEY\s+CREATED_AT\n/);
    const agents = await svc('inbox', 'agents', 'list');
    expect(agents.stdout).toMatch(/^AGENT_ID\s+NAME\s+STATUS\s+DELIVERY_PAUSED\s+CREATED_AT\n/);
  });

  it('--every with a bad value is a usage error naming the flag', async () => {
    const r = await svc('inbox', 'timers', 'create', '--agent', 'ops', '--every', 'hourly', '--message', 'm');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/option '--every <duration>' argument 'hourly' is invalid/);
  });
});
