/**
 * AgentInbox's command-line client against svc: the requests its main flow sends and the answer
 * fields it reads (fixtures/agentinbox-cli/, written from reading that client), replayed in order
 * over the real daemon's Unix socket. A step fails when svc refuses the request, answers with
 * another status, or lacks a field (or value) the client reads.
 *
 * The terminal steps run against a real tmux server private to this file: the daemon's $TMUX
 * names it, `{{pane}}` is a pane of it (started on first use; without tmux those steps fail), and
 * a `screen` step waits for the daemon to type its line into that pane.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SseFrame } from '../../src/cli/control/events.js';
import { TMUX_PANE_ID } from '../../src/inbox/delivery/terminal-sessions.js';
import { fillTemplate, readFrames, startAgentInboxRig, type AgentInboxRig } from '../helpers/agentinbox.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Step {
  cli: string;
  request?: { method: string; path: string; body?: unknown; sse?: boolean };
  status?: number;
  reads?: Record<string, string>;
  /** Text the tmux pane `{{pane}}` shows within 10 s (instead of a request). */
  screen?: string;
  frame?: { event: string; id?: string };
  capture?: Record<string, string>;
  why?: string;
}

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agentinbox-cli');
const files = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort();

const pool = daemonPool();
/** The daemon with its own tmux server (private to this file, so no step ever types into another tmux). */
let rig: AgentInboxRig;
let d: RunningDaemon;
const vars: Record<string, unknown> = {};
const tmux = (...args: string[]) => rig.tmux(...args);

beforeAll(async () => {
  rig = await startAgentInboxRig(pool);
  d = rig.daemon;
  vars.hook = rig.hook.url;
}, 30_000);
afterAll(async () => {
  await rig?.close();
  pool.cleanup();
});

/** `{{name}}` in request strings: the captured value itself. */
function fill(value: unknown): unknown {
  return fillTemplate(value, captured);
}

function captured(name: string): unknown {
  // the pane a terminal registration comes from: `cat` echoes what the daemon types into it
  if (name === 'pane' && !(name in vars)) vars.pane = rig.pane();
  if (!(name in vars)) throw new Error(`fixture uses {{${name}}} before any step captured it`);
  return vars[name];
}

/**
 * Every value a read path reaches: `a.b`, `a[0]`, `a[]` (each element of a non-empty array),
 * `a.length`, `a[k=v]` (the elements whose field k is v; at least one).
 */
function valuesAt(body: unknown, readPath: string): unknown[] {
  let values = [body];
  for (const segment of readPath === '' ? [] : readPath.split('.')) {
    const m = /^([^[\]]*)(?:\[(\d*|\w+=[^\]]+)\])?$/.exec(segment)!;
    const [, key, index] = m;
    values = values.flatMap((v) => {
      const field = key === '' ? v : (v as Record<string, unknown> | null | undefined)?.[key!];
      if (index === undefined) return [field];
      expect(Array.isArray(field), `${readPath}: ${key} is not an array`).toBe(true);
      const arr = field as unknown[];
      if (index === '') {
        expect(arr.length, `${readPath}: ${key} is empty, so the read is never exercised`).toBeGreaterThan(0);
        return arr;
      }
      if (index!.includes('=')) {
        const [k, want] = index!.split('=') as [string, string];
        const found = arr.filter((e) => String((e as Record<string, unknown> | null)?.[k]) === want);
        expect(found.length, `${readPath}: no element of ${key} with ${k} = ${want}`).toBeGreaterThan(0);
        return found;
      }
      return [arr[Number(index)]];
    });
  }
  return values;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function checkReads(body: unknown, reads: Record<string, string>): void {
  for (const [rawPath, want] of Object.entries(reads)) {
    const readPath = fill(rawPath) as string;
    for (const value of valuesAt(body, readPath)) {
      if (want.startsWith('=')) {
        const expected = JSON.parse(want.slice(1).replace(/\{\{(\w+)\}\}/g, (_, name: string) => JSON.stringify(captured(name))));
        expect(value, `read ${readPath}`).toEqual(expected);
      } else {
        expect(want.split('|'), `read ${readPath} (${JSON.stringify(value)})`).toContain(typeOf(value));
      }
    }
  }
}

/** The first frame with data, parsed the way the client's parseSseFrame does. */
async function firstDataFrame(urlPath: string): Promise<{ status: number; frame: SseFrame | null; text: string }> {
  const res = await readFrames(d.socket, urlPath, (frames) => frames.some((f) => f.data !== ''), 5000);
  if (res.timedOut) throw new Error(`no data frame from ${urlPath} within 5 s`);
  return { status: res.status, frame: res.frames.find((f) => f.data !== '') ?? null, text: res.text };
}

async function replay(step: Step): Promise<void> {
  if (step.screen !== undefined) {
    const want = fill(step.screen) as string;
    const pane = captured('pane') as string;
    await waitFor(() => tmux('capture-pane', '-p', '-t', pane).includes(want), 10_000).catch(() => {
      throw new Error(`the pane never showed ${JSON.stringify(want)}; it shows:\n${tmux('capture-pane', '-p', '-t', pane)}`);
    });
    return;
  }
  const urlPath = fill(step.request!.path) as string;
  let body: Json;
  if (step.request!.sse) {
    const res = await firstDataFrame(urlPath);
    expect(res.status, res.text).toBe(step.status);
    expect(res.frame, 'a data frame').not.toBeNull();
    const frame = res.frame!;
    const want = fill(step.frame) as Step['frame'];
    expect(frame.event).toBe(want!.event);
    if (want!.id !== undefined) expect(frame.id).toBe(want!.id);
    body = JSON.parse(frame.data);
  } else {
    const res = await request({ socketPath: d.socket }, step.request!.method, urlPath, step.request!.body === undefined ? {} : { body: fill(step.request!.body) });
    expect(res.status, res.text).toBe(step.status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    body = res.json;
  }
  checkReads(body, step.reads ?? {});
  for (const [name, readPath] of Object.entries(step.capture ?? {})) vars[name] = valuesAt(body, readPath)[0];
}

for (const file of files) {
  const steps = JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Step[];
  describe(file, () => {
    for (const step of steps) it(step.cli, () => replay(step));
  });
}

describe('random input in AgentInbox shapes', () => {
  const text = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', 'agent-alpha', 'a'.repeat(70), '%3A:', '__proto__'));
  const anyJson = fc.jsonValue({ maxDepth: 3 });
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, anyJson);
  // Pane ids: well-formed ones (of panes that do not exist), near misses, and anything.
  const paneId = fc.oneof(fc.nat(99).map((n) => `%${n}`), fc.constantFrom('%', '%1;id', '%1 ', '$(id)', '-t', 'work:0.1', '%1\n'), text);
  const bodies: Array<[string, (ids: Record<string, unknown>) => string, fc.Arbitrary<unknown>]> = [
    [
      'POST',
      () => '/agents',
      fc.record(
        {
          agentId: maybe(fc.constantFrom('fuzz-term', 'fuzz-agent')),
          forceRebind: maybe(fc.boolean()),
          backend: maybe(fc.constantFrom('tmux', 'iterm2', 'screen')),
          tmuxPaneId: maybe(paneId),
          runtimeKind: maybe(fc.constantFrom('codex', 'claude_code', 'unknown', 'Codex!')),
          runtimeSessionId: maybe(text),
          runtimePid: maybe(fc.integer()),
          tty: maybe(fc.oneof(fc.constant('/dev/pts/3'), text)),
          termProgram: maybe(text),
          itermSessionId: maybe(text),
          webhook: fc.constant(undefined),
        },
        { requiredKeys: ['backend'] },
      ),
    ],
    [
      'POST',
      () => '/agents',
      fc.record(
        { agentId: maybe(text), name: maybe(text), forceRebind: anyJson, webhook: maybe(fc.record({ url: maybe(fc.oneof(text, fc.webUrl())), activationMode: anyJson }, { requiredKeys: [] })) },
        { requiredKeys: [] },
      ),
    ],
    [
      'POST',
      (ids) => `/sources/${ids.sourceId}/events`,
      fc.record({ sourceNativeId: maybe(text), eventVariant: maybe(text), occurredAt: maybe(fc.oneof(text, fc.date().map((t) => (Number.isNaN(t.getTime()) ? 'x' : t.toISOString())))), metadata: anyJson, rawPayload: anyJson }, { requiredKeys: [] }),
    ],
    [
      'POST',
      () => '/subscriptions',
      fc.record({ agentId: fc.constantFrom('fuzz-agent', 'nobody'), sourceId: fc.constant('{{sourceId}}'), filter: fc.record({ metadata: anyJson, payload: anyJson, match: anyJson }, { requiredKeys: [] }) }),
    ],
  ];
  const queryNames = ['agent_id', 'source_id', 'include_targets', 'after_entry_id', 'include_acked', 'heartbeat_ms', 'limit', 'agentId', 'after', 'includeAcked', 'x'];
  const query = fc.dictionary(fc.constantFrom(...queryNames), text, { maxKeys: 3 }).map((q) => `?${new URLSearchParams(q as Record<string, string>)}`);
  const lists = ['/agents', '/hosts', '/sources', '/subscriptions', '/timers', '/agents/fuzz-agent/targets', '/agents/fuzz-agent/inbox/entries', '/agents/fuzz-agent/inbox/watch'];

  function noServerError(res: { status: number; headers: http.IncomingHttpHeaders; json?: Json; text?: string }, what: string): void {
    expect(res.status, `${what} -> ${res.status} ${res.text ?? ''}`).toBeLessThan(500);
    if (res.status >= 400) expect(res.json, what).toMatchObject({ ok: false, code: expect.stringMatching(/^[a-z_]+$/), error: expect.any(String) });
  }

  it('bodies and query strings never yield a 500 (~4 s)', async () => {
    const api = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
    const hostId = (await api('POST', '/hosts', { hostType: 'local_event', hostKey: 'fuzz' })).json.hostId;
    const ids = { sourceId: (await api('POST', '/sources', { hostId, streamKind: 'events', streamKey: 'fuzz' })).json.sourceId };
    expect((await api('POST', '/agents', { agentId: 'fuzz-agent' })).status).toBeLessThan(300);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(bodies.length - 1), fc.nat(lists.length - 1), fc.integer(), query, async (b, l, seed, q) => {
        runs++;
        const [method, url, arb] = bodies[b]!;
        const body = JSON.parse(JSON.stringify(fc.sample(arb, { numRuns: 1, seed })[0]).replaceAll('{{sourceId}}', ids.sourceId));
        const res = await api(method, url(ids), body);
        noServerError(res, `${method} ${url(ids)} ${JSON.stringify(body).slice(0, 200)}`);
        const list = `${lists[l]}${q}`;
        if (list.includes('/watch')) {
          const w = await firstDataFrame(list).catch(() => null);
          if (w && w.status !== 200) noServerError({ status: w.status, headers: {}, json: JSON.parse(w.text), text: w.text }, `GET ${list}`);
        } else {
          noServerError(await api('GET', list), `GET ${list}`);
        }
      }),
      { numRuns: 1_000_000, interruptAfterTimeLimit: 4000 },
    );
    expect(runs).toBeGreaterThan(20);
    // Whatever was accepted, a registered terminal session only ever names a pane by its id.
    const listed = (await api('GET', '/agents?include_targets=true')).json.agents as Array<{ activationTargets: Json[] }>;
    const sessions = listed.flatMap((a) => a.activationTargets).filter((t) => t.kind === 'terminal' && t.runtimeKind !== null);
    expect(sessions.length, 'terminal sessions registered (06-terminal.json, and some random ones)').toBeGreaterThan(0);
    for (const t of sessions) expect([t.tmuxTarget, t.tmuxSocket, t.tmuxPaneId]).toEqual([expect.stringMatching(TMUX_PANE_ID), null, t.tmuxTarget]);
  }, 60_000);
});
