/**
 * Remote sources (docs/inbox-api.md#remote-sources-and-the-module-interface; spec/inbox.md source
 * lifecycle table): modules run in real worker threads; scheduling runs on a ManualClock
 * (`runDue()` after moving it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDLE_AUTO_PAUSE_MS } from '../../src/inbox/sources/remote-sources.js';
import { ROOT, waitFor } from '../helpers/daemon.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let dir: string;
beforeEach(() => {
  t = testServices();
  dir = path.join(t.home, 'source-modules');
  fs.mkdirSync(dir, { recursive: true });
});
afterEach(() => t.close());

const inbox = () => t.s.inbox;

/** A module that emits `count` events per poll, numbered from the cursor, and records its calls. */
const COUNTER = `
import fs from 'node:fs';
export default {
  validate(cfg) { if (cfg && cfg.refuse) throw new Error('refused: ' + cfg.refuse); },
  async poll({ moduleConfig, cursor, configRef }) {
    const from = cursor ?? 0;
    moduleConfig = moduleConfig ?? {};
    if (moduleConfig.log) fs.appendFileSync(moduleConfig.log, JSON.stringify({ cursor, configRef }) + '\\n');
    if (moduleConfig.fail && fs.existsSync(moduleConfig.fail)) throw new Error('upstream down');
    const n = (moduleConfig && moduleConfig.count) ?? 2;
    return { events: Array.from({ length: n }, (_, i) => ({ id: 'e' + (from + i), type: 'tick', data: { i: from + i } })), cursor: from + n };
  },
};`;

function writeModule(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function remoteSource(config: Record<string, unknown>, key = 'r') {
  const { host } = inbox().hosts.create({ hostType: 'remote_source', hostKey: 'remote' });
  return inbox().sources.create({ hostId: host.hostId, streamKind: 'poll', streamKey: key, config });
}

describe('module checks at creation', () => {
  it('loads the module and runs validate before creating the source', async () => {
    const file = writeModule('counter.mjs', COUNTER);
    await expect(remoteSource({ modulePath: file, moduleConfig: { refuse: 'no' } })).rejects.toMatchObject({ status: 400, code: 'invalid_source_config', message: expect.stringContaining('refused: no') });
    await expect(remoteSource({ modulePath: path.join(dir, 'missing.mjs') })).rejects.toMatchObject({ status: 400, code: 'invalid_source_module' });
    await expect(remoteSource({ modulePath: writeModule('syntax.mjs', 'export default { poll( }') })).rejects.toMatchObject({ code: 'invalid_source_module' });
    await expect(remoteSource({ modulePath: writeModule('nopoll.mjs', 'export default { other() {} }') })).rejects.toMatchObject({
      code: 'invalid_source_module',
      message: expect.stringContaining('poll function'),
    });
    await expect(remoteSource({ moduleConfig: {} })).rejects.toMatchObject({ code: 'invalid_source_config', message: expect.stringContaining('config.modulePath') });
    await expect(remoteSource({ modulePath: file, pollIntervalMs: 10 })).rejects.toMatchObject({ code: 'invalid_source_config' });
    await expect(remoteSource({ modulePath: file, extra: 1 })).rejects.toMatchObject({ code: 'invalid_source_config' });
    expect(inbox().sources.list()).toEqual([]);
  });

  it('resolves a relative modulePath under <home>/source-modules/', async () => {
    writeModule('counter.mjs', COUNTER);
    const { source, created } = await remoteSource({ modulePath: 'counter.mjs' });
    expect(created).toBe(true);
    // Nobody subscribes yet: the idle clock runs from creation.
    const now = t.clock.now();
    expect(source).toMatchObject({
      sourceType: 'remote_source',
      state: 'active',
      cursor: null,
      idleState: { state: 'waiting', since: new Date(now).toISOString(), pauseAt: new Date(now + IDLE_AUTO_PAUSE_MS).toISOString() },
    });
  });
});

describe('polling', () => {
  it('appends what poll returns, persists the cursor and hands it (and configRef) to the next poll', async () => {
    const log = path.join(t.home, 'calls.jsonl');
    const file = writeModule('counter.mjs', COUNTER);
    const { source } = await remoteSource({ modulePath: file, moduleConfig: { log, count: 3 } });
    await inbox().sources.update(source.sourceId, { configRef: 'cred:gh' });
    expect(await inbox().sources.poll(source.sourceId)).toEqual({ sourceId: source.sourceId, sourceType: 'remote_source', appended: 3, deduped: 0, eventsRead: 3, note: 'polled once', state: 'active' });
    expect(await inbox().sources.poll(source.sourceId)).toMatchObject({ appended: 3, deduped: 0 });
    expect(inbox().sources.get(source.sourceId).cursor).toBe(6);
    const calls = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls).toEqual([
      { cursor: null, configRef: 'cred:gh' },
      { cursor: 3, configRef: 'cred:gh' },
    ]);
    expect(inbox().streams.read(source.sourceId, 0, 10).map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
    await expect(inbox().sources.appendEvents(source.sourceId, [{ type: 't' }])).rejects.toMatchObject({ status: 409, code: 'manual_append_unsupported' });
  });

  it('a module that throws marks the source error (502 source_poll_failed); the next good poll makes it active', async () => {
    const flag = path.join(t.home, 'fail');
    fs.writeFileSync(flag, '');
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER), moduleConfig: { fail: flag } });
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ status: 502, code: 'source_poll_failed', message: expect.stringContaining('upstream down') });
    expect(inbox().sources.get(source.sourceId)).toMatchObject({ state: 'error', error: expect.stringContaining('upstream down'), cursor: null });
    // GET /status counts it, with its last error.
    expect(inbox().status.view().counts).toMatchObject({
      sources: 1,
      sourceStates: { total: 1, error: 1, active: 0 },
      sourceErrors: [{ sourceId: source.sourceId, error: expect.stringContaining('upstream down'), at: new Date(t.clock.now()).toISOString() }],
    });
    fs.rmSync(flag);
    expect(await inbox().sources.poll(source.sourceId)).toMatchObject({ appended: 2, state: 'active' });
    expect(inbox().sources.get(source.sourceId)).toMatchObject({ state: 'active', error: null, cursor: 2 });
    expect(inbox().status.view().counts).toMatchObject({ sourceStates: { total: 1, error: 0, active: 1 }, sourceErrors: [] });
  });

  it.each([
    ['hangs in a synchronous loop', 'export default { poll() { for (;;) {} } };'],
    ['never settles', 'export default { poll() { return new Promise(() => {}); } };'],
  ])('a module that %s is stopped at the time limit and marks the source error', async (_what, text) => {
    // The limit covers loading the module in a fresh worker too (creation validates it): 1 s leaves
    // a loaded machine room for that, where 300 ms did not.
    const { source } = await remoteSource({ modulePath: writeModule('hang.mjs', text), pollTimeoutMs: 1000 });
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ code: 'source_poll_failed', message: expect.stringContaining('within 1000 ms') });
    expect(inbox().sources.get(source.sourceId).state).toBe('error');
  });

  it('shutdown ends a module call in flight at once and leaves the source state alone', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('hang.mjs', 'export default { poll() { for (;;) {} } };'), pollTimeoutMs: 120_000 });
    const poll = inbox().sources.poll(source.sourceId);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await inbox().sources.stop();
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(poll).rejects.toMatchObject({ code: 'shutting_down' });
    expect(inbox().sources.get(source.sourceId)).toMatchObject({ state: 'active', error: null });
  });

  it.each([
    ['calls process.exit', 'export default { poll() { process.exit(3); } };', 'exited'],
    ['returns a bad result', 'export default { poll() { return { events: [{ data: 1 }] }; } };', 'events.0.type'],
    ['returns an invalid time', "export default { poll() { return { events: [{ type: 't', time: 'soon' }] }; } };", 'events.0.time'],
  ])('a module that %s marks the source error and the process goes on', async (_what, text, message) => {
    const { source } = await remoteSource({ modulePath: writeModule('bad.mjs', text) });
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ code: 'source_poll_failed', message: expect.stringContaining(message) });
    expect(inbox().sources.get(source.sourceId).state).toBe('error');
    expect(inbox().streams.stats(source.sourceId)).toBeNull();
  });

  it('polls every pollIntervalMs on the clock while active, not while paused', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER), moduleConfig: {}, pollIntervalMs: 5000 });
    const id = source.sourceId;
    const hw = () => inbox().streams.bounds(id).highWatermarkOffset;
    inbox().sources.runDue();
    await new Promise((r) => setTimeout(r, 50));
    expect(hw()).toBe(0); // not due yet
    // A poll's events are readable once committed; the poll itself ends (and schedules the next
    // one from the clock) when its append is answered, after the commit reaches the disk.
    const pollsSettled = () => waitFor(() => (inbox().sources as unknown as { schedule: { hasPoll(id: string): boolean } }).schedule.hasPoll(id));
    t.clock.advance(5000);
    inbox().sources.runDue();
    await waitFor(() => hw() === 2);
    await pollsSettled();
    t.clock.advance(5000);
    inbox().sources.runDue();
    await waitFor(() => hw() === 4);
    await pollsSettled();
    expect(inbox().sources.pause(id)).toMatchObject({ state: 'paused', idleState: null });
    t.clock.advance(50_000);
    inbox().sources.runDue();
    await new Promise((r) => setTimeout(r, 200));
    expect(hw()).toBe(4);
  });
});

describe('lifecycle (spec/inbox.md States and transitions)', () => {
  it('paused: PATCH keeps it paused, poll runs once and keeps it paused, resume is the ensure path', async () => {
    const file = writeModule('counter.mjs', COUNTER);
    const { source } = await remoteSource({ modulePath: file });
    const id = source.sourceId;
    inbox().sources.pause(id);
    expect(inbox().sources.pause(id).state).toBe('paused');
    expect(await inbox().sources.update(id, { config: { modulePath: file, moduleConfig: { count: 1 } } })).toMatchObject({ state: 'paused', config: { moduleConfig: { count: 1 } } });
    expect(await inbox().sources.poll(id)).toMatchObject({ appended: 1, state: 'paused' });
    expect(inbox().sources.get(id).state).toBe('paused');
    expect(inbox().sources.resume(id)).toMatchObject({ state: 'active', error: null });
  });

  it('PATCH re-ensures an error source (active again) and refuses a bad config without changing anything', async () => {
    const file = writeModule('counter.mjs', COUNTER);
    const { source } = await remoteSource({ modulePath: writeModule('bad.mjs', 'export default { poll() { throw new Error("x"); } };') });
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ code: 'source_poll_failed' });
    await expect(inbox().sources.update(source.sourceId, { config: { modulePath: path.join(dir, 'nope.mjs') } })).rejects.toMatchObject({ code: 'invalid_source_module' });
    expect(inbox().sources.get(source.sourceId).state).toBe('error');
    expect(await inbox().sources.update(source.sourceId, { config: { modulePath: file } })).toMatchObject({ state: 'active', error: null });
  });

  it('auto-pauses after the last subscription is removed, and a new subscription resumes it', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER) });
    const id = source.sourceId;
    let consumers = 1;
    inbox().streams.setConsumerCounter(() => consumers);
    inbox().sources.subscriptionsChanged(id, 1);
    expect(inbox().sources.get(id).idleState).toBeNull();
    consumers = 0;
    const since = t.clock.now();
    inbox().sources.subscriptionsChanged(id, 0);
    expect(inbox().sources.get(id)).toMatchObject({
      state: 'active',
      idleState: { state: 'waiting', since: new Date(since).toISOString(), pauseAt: new Date(since + IDLE_AUTO_PAUSE_MS).toISOString() },
    });
    t.clock.advance(IDLE_AUTO_PAUSE_MS);
    inbox().sources.runDue();
    expect(inbox().sources.get(id)).toMatchObject({ state: 'paused', idleState: { state: 'auto_paused', pauseAt: null } });
    consumers = 1;
    inbox().sources.subscriptionsChanged(id, 1);
    expect(inbox().sources.get(id)).toMatchObject({ state: 'active', idleState: null });
  });

  it('a subscription during the wait cancels the auto-pause; an operator pause is never undone by subscriptions', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER) });
    const id = source.sourceId;
    inbox().sources.subscriptionsChanged(id, 0);
    inbox().sources.subscriptionsChanged(id, 2);
    t.clock.advance(IDLE_AUTO_PAUSE_MS);
    inbox().sources.runDue();
    expect(inbox().sources.get(id)).toMatchObject({ state: 'active', idleState: null });
    inbox().sources.pause(id);
    inbox().sources.subscriptionsChanged(id, 1);
    expect(inbox().sources.get(id).state).toBe('paused');
  });
});

describe('idle auto-pause without subscriptions', () => {
  const idleOf = (id: string) => inbox().sources.get(id).idleState;

  it('a source nobody ever subscribed to is auto-paused once the wait is over, and stops polling', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER) });
    const id = source.sourceId;
    t.clock.advance(IDLE_AUTO_PAUSE_MS - 1);
    inbox().sources.runDue();
    expect(inbox().sources.get(id).state).toBe('active');
    t.clock.advance(1);
    inbox().sources.runDue();
    expect(inbox().sources.get(id)).toMatchObject({ state: 'paused', idleState: { state: 'auto_paused', since: source.createdAt } });
    // AgentInbox's form in the detail: when the wait began, and when it was due and paused the source.
    const pausedAt = new Date(Date.parse(source.createdAt) + IDLE_AUTO_PAUSE_MS).toISOString();
    expect(await inbox().sources.detail(id)).toMatchObject({
      source: { state: 'paused', status: 'paused', idleState: { state: 'auto_paused' } },
      runtime: { status: 'stopped' },
      idleState: { sourceId: id, idleSince: source.createdAt, autoPauseAt: pausedAt, autoPausedAt: pausedAt },
    });
  });

  it('a manual pause and resume keep the idle clock: the wait ends when it would have', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER) });
    const id = source.sourceId;
    const since = t.clock.now();
    t.clock.advance(60_000);
    inbox().sources.pause(id);
    expect(idleOf(id)).toBeNull(); // paused by the operator: no wait shown
    t.clock.advance(60_000);
    expect(inbox().sources.resume(id)).toMatchObject({ state: 'active', idleState: { state: 'waiting', since: new Date(since).toISOString(), pauseAt: new Date(since + IDLE_AUTO_PAUSE_MS).toISOString() } });
    t.clock.advance(IDLE_AUTO_PAUSE_MS - 120_000);
    inbox().sources.runDue();
    expect(inbox().sources.get(id)).toMatchObject({ state: 'paused', idleState: { state: 'auto_paused' } });
  });

  it('a resume after the wait is over pauses again at once; a resume of an auto-paused source waits afresh', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER) });
    const id = source.sourceId;
    inbox().sources.pause(id);
    t.clock.advance(IDLE_AUTO_PAUSE_MS * 2);
    inbox().sources.resume(id);
    inbox().sources.runDue();
    expect(inbox().sources.get(id)).toMatchObject({ state: 'paused', idleState: { state: 'auto_paused' } });
    const resumedAt = t.clock.now();
    expect(inbox().sources.resume(id)).toMatchObject({ state: 'active', idleState: { state: 'waiting', since: new Date(resumedAt).toISOString() } });
    t.clock.advance(IDLE_AUTO_PAUSE_MS - 1);
    inbox().sources.runDue();
    expect(inbox().sources.get(id).state).toBe('active');
  });

  it('with subscriptions, resume starts no idle clock', async () => {
    const { source } = await remoteSource({ modulePath: writeModule('counter.mjs', COUNTER) });
    const id = source.sourceId;
    inbox().streams.setConsumerCounter(() => 1);
    inbox().sources.subscriptionsChanged(id, 1);
    inbox().sources.pause(id);
    expect(inbox().sources.resume(id)).toMatchObject({ state: 'active', idleState: null });
    t.clock.advance(IDLE_AUTO_PAUSE_MS * 2);
    inbox().sources.runDue();
    expect(inbox().sources.get(id).state).toBe('active');
  });
});

describe('the example module (examples/source-modules/jsonl-file.mjs)', () => {
  // Modules load only from the module directories: the example is copied where a user would put it.
  let EXAMPLE: string;
  beforeEach(() => {
    EXAMPLE = path.join(dir, 'jsonl-file.mjs');
    fs.copyFileSync(path.join(ROOT, 'examples', 'source-modules', 'jsonl-file.mjs'), EXAMPLE);
  });

  it('refuses a config without an absolute path', async () => {
    await expect(remoteSource({ modulePath: EXAMPLE, moduleConfig: { path: 'relative.jsonl' } })).rejects.toMatchObject({ code: 'invalid_source_config' });
  });

  it('turns new complete lines into events, once each, across polls and a rotation', async () => {
    const file = path.join(t.home, 'events.jsonl');
    const { source } = await remoteSource({ modulePath: EXAMPLE, moduleConfig: { path: file, type: 'app.log' } });
    const id = source.sourceId;
    expect(await inbox().sources.poll(id)).toMatchObject({ appended: 0 }); // no file yet
    fs.writeFileSync(file, '{"type":"deploy","subject":"web","data":{"v":2}}\n"plain text"\n{"partial":');
    expect(await inbox().sources.poll(id)).toMatchObject({ appended: 2 });
    fs.appendFileSync(file, 'true}\n');
    expect(await inbox().sources.poll(id)).toMatchObject({ appended: 1 });
    expect(await inbox().sources.poll(id)).toMatchObject({ appended: 0, deduped: 0 });
    const events = inbox().streams.read(id, 0, 10);
    expect(events.map((e) => [e.type, e.subject, e.data])).toEqual([
      ['deploy', 'web', { v: 2 }],
      ['app.log', null, 'plain text'],
      ['app.log', null, { partial: true }],
    ]);
    fs.writeFileSync(file, '"after rotation"\n');
    expect(await inbox().sources.poll(id)).toMatchObject({ appended: 1 });
  });
});
