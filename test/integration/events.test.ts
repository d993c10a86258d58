/**
 * Events (docs/control-plane-api.md#event-log, spec "Events") against the real daemon: durable
 * pages (limit, clamp, order, exclusive cursors, has_older/has_newer, cursor_seq, levels) and SSE
 * (backlog then live without gaps, Last-Event-ID, live-only, cursor_not_found before any SSE byte,
 * limit, heartbeats, the global stream without private agents, concurrent writers).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL_RANK, levelOf } from '../../src/events/wire/levels.js';
import { request, startDaemon, stopAgent, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

interface Envelope {
  id: string;
  event_seq: number;
  ts: string;
  agent_id: string;
  type: string;
  provenance: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  payload: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

async function until(cond: () => boolean, what: string, timeoutMs = 5000, refresh?: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (refresh) await refresh();
    if (cond()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, refresh ? 50 : 10));
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// --- a raw SSE client: every byte, every frame, every comment -------------------------------

interface Frame {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

class SseClient {
  frames: Frame[] = [];
  comments: string[] = [];
  /** Raw text of a non-SSE answer (an error envelope). */
  text = '';
  ended = false;
  private buffer = '';

  private constructor(
    readonly res: http.IncomingMessage,
    private readonly req: http.ClientRequest,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (!this.isStream) {
        this.text += chunk;
        return;
      }
      this.buffer += chunk;
      let cut: number;
      while ((cut = this.buffer.indexOf('\n\n')) !== -1) {
        this.parseBlock(this.buffer.slice(0, cut));
        this.buffer = this.buffer.slice(cut + 2);
      }
    });
    res.on('end', () => (this.ended = true));
    res.on('close', () => (this.ended = true));
    res.on('error', () => (this.ended = true));
  }

  static open(d: RunningDaemon, urlPath: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const url = new URL(urlPath, d.base);
    return new Promise((resolve, reject) => {
      const req = http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { accept: 'text/event-stream', ...headers } });
      req.on('response', (res) => resolve(new SseClient(res, req)));
      req.on('error', reject);
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  get isStream(): boolean {
    return /^text\/event-stream/.test(String(this.res.headers['content-type']));
  }

  get json(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    return JSON.parse(this.text);
  }

  get ids(): number[] {
    return this.frames.map((f) => Number(f.id));
  }

  get envelopes(): Envelope[] {
    return this.frames.map((f) => JSON.parse(f.data) as Envelope);
  }

  waitFrames(n: number, timeoutMs = 5000): Promise<void> {
    return until(() => this.frames.length >= n, `${n} SSE frames (have ${this.frames.length}: ${this.ids.join(',')})`, timeoutMs);
  }

  waitEnd(timeoutMs = 5000): Promise<void> {
    return until(() => this.ended, 'the end of the SSE stream', timeoutMs);
  }

  waitEndOfBody(timeoutMs = 5000): Promise<void> {
    return until(() => this.ended, 'the end of the response', timeoutMs);
  }

  close(): void {
    this.req.destroy();
  }

  private parseBlock(block: string): void {
    const frame: Frame = { id: undefined, event: undefined, data: '' };
    let isFrame = false;
    const dataLines: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line);
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      isFrame = true;
      if (field === 'id') frame.id = value;
      else if (field === 'event') frame.event = value;
      else if (field === 'data') dataLines.push(value);
    }
    if (!isFrame) return;
    frame.data = dataLines.join('\n');
    this.frames.push(frame);
  }
}

/** Every frame: id = event_seq, event = type, data = the envelope of `agent`. */
function expectFramesConsistent(client: SseClient, agent?: string): void {
  for (const f of client.frames) {
    const env = JSON.parse(f.data) as Envelope;
    expect(f.id).toBe(String(env.event_seq));
    expect(f.event).toBe(env.type);
    if (agent) expect(env.agent_id).toBe(agent);
    expect(env.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
  }
}

// --- the daemon and its fixtures ------------------------------------------------------------

let d: RunningDaemon;
const openClients: SseClient[] = [];

async function sse(urlPath: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const c = await SseClient.open(d, urlPath, headers);
  openClients.push(c);
  return c;
}

async function createAgent(id: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await request(d, 'POST', `/api/control/agents/${id}/create`, { body });
  expect(res.status, res.text).toBe(201);
}

async function enqueue(agent: string, text: string): Promise<string> {
  const res = await request(d, 'POST', `/api/agents/${agent}/enqueue`, { body: { text } });
  expect(res.status, res.text).toBe(202);
  return res.json.message_id;
}

/** An operator prompt: the way in to a private agent (public enqueue refuses it, 403 agent_private). */
async function prompt(agent: string, text: string): Promise<string> {
  const res = await request(d, 'POST', `/api/control/agents/${agent}/prompt`, { body: { text } });
  expect(res.status, res.text).toBe(202);
  return res.json.message_id;
}

async function enqueueMany(agent: string, n: number, prefix = 'm'): Promise<string[]> {
  return Promise.all(range(1, n).map((i) => enqueue(agent, `${prefix}${i}`)));
}

async function page(agent: string, query = ''): Promise<HttpResult> {
  const res = await request(d, 'GET', `/api/agents/${agent}/events${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res;
}

const seqs = (res: HttpResult) => (res.json.events as Envelope[]).map((e) => e.event_seq);

async function head(agent: string): Promise<number> {
  return (await page(agent, 'limit=1')).json.cursor_seq;
}

/** The whole durable log of `agent`, oldest first, read page by page. */
async function allEvents(agent: string): Promise<Envelope[]> {
  const out: Envelope[] = [];
  for (;;) {
    const res = await page(agent, `order=asc&limit=1000&after_seq=${out.length ? out[out.length - 1]!.event_seq : 0}`);
    out.push(...(res.json.events as Envelope[]));
    if (!res.json.has_newer) return out;
  }
}

/**
 * Wait until the run loop has taken every acknowledged message of `agent` and gone idle, then
 * check that each of the `n` messages had exactly one completed turn; returns the log head.
 */
async function drained(agent: string, n: number, timeoutMs = 30_000): Promise<number> {
  let last: Record<string, unknown> = {};
  await until(() => last.status === 'idle' && last.pending_messages === 0 && last.current_run === null, `${agent} to drain`, timeoutMs, async () => {
    last = (await request(d, 'GET', `/api/agents/${agent}/status`)).json;
  });
  const events = await allEvents(agent);
  const count = (type: string) => events.filter((e) => e.type === type).length;
  expect({ enqueued: count('message_enqueued'), completed: count('message_completed'), turns: count('turn_completed') }).toEqual({ enqueued: n, completed: n, turns: n });
  return events[events.length - 1]!.event_seq;
}

beforeAll(async () => {
  d = await startDaemon({ configToml: '[events]\nheartbeat_ms = 200\n' });
});

afterAll(async () => {
  for (const c of openClients) c.close();
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
});

describe('pages', () => {
  // pg (stopped, so the run loop adds nothing): event 1 = agent_created, 2 = control_applied,
  // events 3..142 = message_enqueued
  const HEAD = 142;
  beforeAll(async () => {
    await createAgent('pg');
    await stopAgent(d, 'pg');
    for (let i = 0; i < 140; i += 35) await enqueueMany('pg', 35, `b${i}-`);
    expect(await head('pg')).toBe(HEAD);
  });

  it('default: limit 128, order desc, newest first', async () => {
    const res = await page('pg');
    expect(res.json.limit).toBe(128);
    expect(res.json.order).toBe('desc');
    expect(seqs(res)).toEqual(range(HEAD - 127, HEAD).reverse());
    expect(res.json).toMatchObject({ newest_seq: HEAD, oldest_seq: HEAD - 127, has_older: true, has_newer: false, cursor_seq: HEAD });
  });

  it('envelopes have the StreamEventEnvelope fields', async () => {
    const events = (await page('pg', 'order=asc&limit=3')).json.events as Envelope[];
    expect(events[0]).toMatchObject({ event_seq: 1, agent_id: 'pg', type: 'agent_created' });
    expect(events[1]).toMatchObject({ event_seq: 2, agent_id: 'pg', type: 'control_applied' });
    expect(events[2]).toMatchObject({ event_seq: 3, agent_id: 'pg', type: 'message_enqueued' });
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual(['agent_id', 'event_seq', 'id', 'payload', 'provenance', 'ts', 'type']);
      expect(e.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(new Date(e.ts).toISOString()).toBe(e.ts);
      expect(e.payload).toBeTypeOf('object');
    }
    expect(events[2]!.provenance).toMatchObject({ kind: 'webhook_event', trust: 'trusted_integration', message_id: expect.stringMatching(/^msg_/) });
  });

  it('order asc and desc', async () => {
    const asc = await page('pg', 'order=asc&limit=5');
    expect(seqs(asc)).toEqual([1, 2, 3, 4, 5]);
    expect(asc.json).toMatchObject({ order: 'asc', limit: 5, oldest_seq: 1, newest_seq: 5, has_older: false, has_newer: true });
    const desc = await page('pg', 'order=desc&limit=5');
    expect(seqs(desc)).toEqual([142, 141, 140, 139, 138]);
    expect(desc.json).toMatchObject({ order: 'desc', limit: 5, oldest_seq: 138, newest_seq: 142, has_older: true, has_newer: false });
  });

  it('after_seq is exclusive', async () => {
    const res = await page('pg', 'after_seq=10&order=asc&limit=3');
    expect(seqs(res)).toEqual([11, 12, 13]);
    expect(res.json).toMatchObject({ has_older: true, has_newer: true });
    const last = await page('pg', `after_seq=${HEAD - 1}&order=asc`);
    expect(seqs(last)).toEqual([HEAD]);
    expect(last.json.has_newer).toBe(false);
  });

  it('before_seq is exclusive', async () => {
    const res = await page('pg', 'before_seq=10&limit=3');
    expect(seqs(res)).toEqual([9, 8, 7]);
    expect(res.json).toMatchObject({ has_older: true, has_newer: true });
    const first = await page('pg', 'before_seq=2');
    expect(seqs(first)).toEqual([1]);
    expect(first.json).toMatchObject({ has_older: false, has_newer: true });
  });

  it('both cursors: after_seq < event_seq < before_seq', async () => {
    const asc = await page('pg', 'after_seq=5&before_seq=9&order=asc');
    expect(seqs(asc)).toEqual([6, 7, 8]);
    expect(asc.json).toMatchObject({ has_older: true, has_newer: true, oldest_seq: 6, newest_seq: 8 });
    const desc = await page('pg', 'after_seq=5&before_seq=9&order=desc');
    expect(seqs(desc)).toEqual([8, 7, 6]);
    const limited = await page('pg', 'after_seq=5&before_seq=9&order=asc&limit=2');
    expect(seqs(limited)).toEqual([6, 7]);
    expect(limited.json.has_newer).toBe(true);
    const empty = await page('pg', 'after_seq=5&before_seq=6');
    expect(empty.json).toMatchObject({ events: [], oldest_seq: null, newest_seq: null, cursor_seq: HEAD });
  });

  it('paging backwards with before_seq = oldest_seq visits every event exactly once', async () => {
    const seen: number[] = [];
    let query = 'limit=50';
    for (let i = 0; i < 10; i++) {
      const res = await page('pg', query);
      seen.push(...seqs(res));
      if (!res.json.has_older) break;
      query = `limit=50&before_seq=${res.json.oldest_seq}`;
    }
    expect(seen).toEqual(range(1, HEAD).reverse());
  });

  it('an unknown cursor yields an empty page, not an error', async () => {
    const beyond = await page('pg', 'after_seq=100000');
    expect(beyond.json).toMatchObject({ events: [], oldest_seq: null, newest_seq: null, has_newer: false, cursor_seq: HEAD });
    const below = await page('pg', 'before_seq=1');
    expect(below.json).toMatchObject({ events: [], has_older: false });
    const zero = await page('pg', 'before_seq=0&order=asc');
    expect(zero.json.events).toEqual([]);
  });

  it('cursor_seq is the log head while serving', async () => {
    expect((await page('pg', 'limit=1&order=asc')).json.cursor_seq).toBe(HEAD);
    await createAgent('pg-head');
    expect((await page('pg-head')).json.cursor_seq).toBe(1);
    await stopAgent(d, 'pg-head'); // event 2; stopped, the run loop adds nothing after the enqueue
    await enqueue('pg-head', 'x');
    const res = await page('pg-head', 'before_seq=2');
    expect(res.json.cursor_seq).toBe(3);
    expect(seqs(res)).toEqual([1]);
  });

  it('limit above the default is honoured up to events.page_limit_max (1000 by default)', async () => {
    const all = await page('pg', 'limit=1000');
    expect(all.json.limit).toBe(1000);
    expect(seqs(all)).toHaveLength(HEAD);
    const over = await page('pg', 'limit=5000');
    expect(over.json.limit).toBe(1000);
  });
});

describe('page clamp: [events] page_limit_max = 5', () => {
  let small: RunningDaemon;
  beforeAll(async () => {
    small = await startDaemon({ configToml: '[events]\npage_limit_max = 5\n' });
    // main: 1 agent_created, 2 control_applied (stopped: the run loop adds nothing), 3..11 enqueued
    await stopAgent(small, 'main');
    const writes = range(1, 9).map((i) => request(small, 'POST', '/api/enqueue', { body: { text: `c${i}` } }));
    for (const r of await Promise.all(writes)) expect(r.status).toBe(202);
  });
  afterAll(async () => {
    await small?.stop();
    if (small) fs.rmSync(small.home, { recursive: true, force: true });
  });

  it.each([
    ['', 5, [11, 10, 9, 8, 7]],
    ['limit=50', 5, [11, 10, 9, 8, 7]],
    ['limit=5', 5, [11, 10, 9, 8, 7]],
    ['limit=3', 3, [11, 10, 9]],
    ['limit=50&order=asc', 5, [1, 2, 3, 4, 5]],
  ])('GET events?%s -> limit %i', async (query, limit, expected) => {
    const res = await request(small, 'GET', `/api/agents/main/events?${query}`);
    expect(res.status).toBe(200);
    expect(res.json.limit).toBe(limit);
    expect(seqs(res)).toEqual(expected);
    expect(res.json.cursor_seq).toBe(11);
  });
});

describe('levels (max_level)', () => {
  // lv (stopped, so the run loop adds nothing, across the restart too): 1 agent_created,
  // 2 control_applied, 3 message_enqueued, then rows of other levels written straight into the
  // durable log (4..6: a verbose, a debug and a verbose kind), then 7 message_enqueued again.
  const extra = ['tool_called', 'model_round', 'tool_result'] as const;

  beforeAll(async () => {
    await createAgent('lv');
    await stopAgent(d, 'lv');
    await enqueue('lv', 'first');
    expect(levelOf('agent_created')).toBe('info');
    expect(levelOf('control_applied')).toBe('info');
    expect(levelOf('message_enqueued')).toBe('info');
    expect(extra.map(levelOf)).toEqual(['verbose', 'debug', 'verbose']);
    // Rows are written while the daemon is stopped: it owns its database while it runs.
    await d.stop();
    const db = new Database(path.join(d.home, 'svc.db'));
    try {
      db.pragma('busy_timeout = 5000');
      const insert = db.prepare('INSERT INTO events (agent_id, event_seq, id, ts, type, level, payload) VALUES (?, ?, ?, ?, ?, ?, ?)');
      extra.forEach((type, i) => {
        const seq = 4 + i;
        insert.run('lv', seq, `evt_01J0000000000000000000000${seq}`, new Date().toISOString(), type, LEVEL_RANK[levelOf(type)], '{}');
      });
    } finally {
      db.close();
    }
    d = await startDaemon({ home: d.home });
    await enqueue('lv', 'second');
  });

  it('the daemon continues the sequence after them', async () => {
    const all = await page('lv', 'order=asc');
    expect(seqs(all)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((all.json.events as Envelope[]).map((e) => e.type)).toEqual(['agent_created', 'control_applied', 'message_enqueued', ...extra, 'message_enqueued']);
  });

  it('max_level=info returns info kinds only', async () => {
    const res = await page('lv', 'order=asc&max_level=info');
    expect(seqs(res)).toEqual([1, 2, 3, 7]);
    expect((res.json.events as Envelope[]).every((e) => levelOf(e.type) === 'info')).toBe(true);
  });

  it('max_level=verbose returns info and verbose', async () => {
    expect(seqs(await page('lv', 'order=asc&max_level=verbose'))).toEqual([1, 2, 3, 4, 6, 7]);
  });

  it('max_level=debug and the default return everything', async () => {
    expect(seqs(await page('lv', 'order=asc&max_level=debug'))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seqs(await page('lv', 'order=asc'))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('limit, cursors and has_older/has_newer count matching events only', async () => {
    const next = await page('lv', 'order=asc&max_level=info&after_seq=3&limit=1');
    expect(seqs(next)).toEqual([7]);
    expect(next.json).toMatchObject({ has_older: true, has_newer: false });
    const prev = await page('lv', 'order=desc&max_level=info&before_seq=7&limit=1');
    expect(seqs(prev)).toEqual([3]);
    expect(prev.json).toMatchObject({ has_older: true, has_newer: true });
    const onlyHidden = await page('lv', 'max_level=info&after_seq=3&before_seq=7');
    expect(onlyHidden.json.events).toEqual([]);
    expect(onlyHidden.json.cursor_seq).toBe(7);
  });
});

describe('SSE: /api/agents/:id/events/stream', () => {
  beforeAll(async () => {
    await createAgent('sse1');
    await stopAgent(d, 'sse1'); // event 2; stopped, the run loop adds nothing
    for (const t of ['a', 'b', 'c']) await enqueue('sse1', t); // head 5
  });

  it('after_seq=0 replays the backlog, then live events, in order, without gaps', async () => {
    const c = await sse('/api/agents/sse1/events/stream?after_seq=0');
    expect(c.status).toBe(200);
    expect(c.res.headers['content-type']).toMatch(/^text\/event-stream/);
    await c.waitFrames(5);
    const backlog = (await page('sse1', 'order=asc')).json.events as Envelope[];
    expect(c.envelopes).toEqual(backlog);
    for (const t of ['d', 'e', 'f']) await enqueue('sse1', t);
    await Promise.all([enqueue('sse1', 'g'), enqueue('sse1', 'h')]);
    await c.waitFrames(10);
    expect(c.ids).toEqual(range(1, 10));
    expect(c.frames.map((f) => f.event)).toEqual(['agent_created', 'control_applied', ...Array(8).fill('message_enqueued')]);
    expectFramesConsistent(c, 'sse1');
    expect(c.envelopes.slice(5).map((e) => e.payload.body.text).slice(0, 3)).toEqual(['d', 'e', 'f']);
    // The frames are the durable envelopes.
    expect(c.envelopes).toEqual((await page('sse1', 'order=asc')).json.events);
    c.close();
  });

  it('Last-Event-ID is honoured when after_seq is absent', async () => {
    const c = await sse('/api/agents/sse1/events/stream', { 'Last-Event-ID': '7' });
    expect(c.status).toBe(200);
    await c.waitFrames(3);
    expect(c.ids).toEqual([8, 9, 10]);
    await enqueue('sse1', 'i');
    await c.waitFrames(4);
    expect(c.ids).toEqual([8, 9, 10, 11]);
    expectFramesConsistent(c, 'sse1');
    c.close();
  });

  it('after_seq in the query wins over an older Last-Event-ID', async () => {
    const c = await sse('/api/agents/sse1/events/stream?after_seq=9', { 'Last-Event-ID': '2' });
    await c.waitFrames(2);
    expect(c.ids).toEqual([10, 11]);
    c.close();
  });

  it('a later Last-Event-ID wins over after_seq: an EventSource reconnecting to its first URL resumes', async () => {
    const c = await sse('/api/agents/sse1/events/stream?after_seq=2', { 'Last-Event-ID': '9' });
    await c.waitFrames(2);
    expect(c.ids).toEqual([10, 11]);
    c.close();
  });

  it('a malformed Last-Event-ID -> 400 invalid_request', async () => {
    const res = await request(d, 'GET', '/api/agents/sse1/events/stream', { headers: { 'Last-Event-ID': 'abc' } });
    expectError(res, 400, 'invalid_request');
  });

  it('omitted after_seq means live only', async () => {
    const h = await head('sse1');
    const c = await sse('/api/agents/sse1/events/stream');
    expect(c.status).toBe(200);
    await enqueue('sse1', 'live-1');
    await enqueue('sse1', 'live-2');
    await c.waitFrames(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.ids).toEqual([h + 1, h + 2]);
    expect(c.envelopes.map((e) => e.payload.body.text)).toEqual(['live-1', 'live-2']);
    c.close();
  });

  it('after_seq = head is valid and live only', async () => {
    const h = await head('sse1');
    const c = await sse(`/api/agents/sse1/events/stream?after_seq=${h}`);
    expect(c.status).toBe(200);
    await enqueue('sse1', 'at-head');
    await c.waitFrames(1);
    expect(c.ids).toEqual([h + 1]);
    c.close();
  });

  it('after_seq beyond the head -> 404 cursor_not_found with after_seq and event_seq, before any SSE byte', async () => {
    const h = await head('sse1');
    for (const after of [h + 1, h + 1000]) {
      const c = await sse(`/api/agents/sse1/events/stream?after_seq=${after}`);
      await c.waitEndOfBody();
      expect(c.status).toBe(404);
      expect(c.res.headers['content-type']).toMatch(/^application\/json/);
      expect(c.frames).toEqual([]);
      expect(c.text).not.toMatch(/^(id|event|data):/m);
      expect(c.json).toMatchObject({ ok: false, code: 'cursor_not_found', after_seq: after, event_seq: h });
    }
  });

  it('a Last-Event-ID beyond the head -> 404 cursor_not_found too', async () => {
    const h = await head('sse1');
    const res = await request(d, 'GET', '/api/agents/sse1/events/stream', { headers: { 'Last-Event-ID': String(h + 5) } });
    expectError(res, 404, 'cursor_not_found');
    expect(res.json).toMatchObject({ after_seq: h + 5, event_seq: h });
  });

  it('limit=2 replays 2 events, then the server closes; reconnecting from the last id continues without gaps', async () => {
    const h = await head('sse1');
    const first = await sse('/api/agents/sse1/events/stream?after_seq=0&limit=2');
    await first.waitEnd();
    expect(first.ids).toEqual([1, 2]);
    expectFramesConsistent(first, 'sse1');

    // Follow the contract's client loop: reconnect with Last-Event-ID until caught up.
    const seen = [...first.ids];
    for (let round = 0; round < 50 && seen[seen.length - 1]! < h; round++) {
      const last = seen[seen.length - 1]!;
      const c = await sse('/api/agents/sse1/events/stream?limit=2', { 'Last-Event-ID': String(last) });
      if (h - last >= 2) {
        await c.waitEnd();
        expect(c.ids).toEqual([last + 1, last + 2]);
      } else {
        await c.waitFrames(h - last); // fewer than the limit left: the stream stays open, live
        expect(c.ended).toBe(false);
        c.close();
      }
      seen.push(...c.ids);
    }
    expect(seen).toEqual(range(1, h));
  });

  it('a limited connection with fewer backlog events than the limit goes live', async () => {
    const h = await head('sse1');
    const c = await sse(`/api/agents/sse1/events/stream?after_seq=${h - 1}&limit=5`);
    await c.waitFrames(1);
    await enqueue('sse1', 'after-limit');
    await c.waitFrames(2);
    expect(c.ids).toEqual([h, h + 1]);
    c.close();
  });

  it('a heartbeat comment arrives every events.heartbeat_ms', async () => {
    await createAgent('quiet');
    const c = await sse('/api/agents/quiet/events/stream');
    expect(c.status).toBe(200);
    const started = Date.now();
    await until(() => c.comments.length >= 3, 'three heartbeat comments', 3000);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(c.frames).toEqual([]);
    c.close();
  });

  it('an unknown agent -> 404 agent_not_found JSON', async () => {
    const c = await sse('/api/agents/nobody/events/stream?after_seq=0');
    await c.waitEndOfBody();
    expect(c.status).toBe(404);
    expect(c.res.headers['content-type']).toMatch(/^application\/json/);
    expect(c.json.code).toBe('agent_not_found');
  });

  it('eventsource (a standard client) sees backlog and live frames with ids and event names', async () => {
    expect.assertions(7); // 5 below + head() + enqueue() check their HTTP status
    const h = await head('sse1');
    const got: Array<{ id: string; type: string; seq: number }> = [];
    const es = new EventSource(`${d.base}/api/agents/sse1/events/stream?after_seq=${h - 2}`);
    try {
      const onEvent = (ev: MessageEvent) => got.push({ id: ev.lastEventId, type: ev.type, seq: (JSON.parse(ev.data) as Envelope).event_seq });
      es.addEventListener('message_enqueued', onEvent);
      es.addEventListener('agent_created', onEvent);
      await until(() => got.length >= 2, 'the backlog over eventsource');
      await enqueue('sse1', 'es-live');
      await until(() => got.length >= 3, 'a live frame over eventsource');
      expect(got.map((g) => Number(g.id))).toEqual([h - 1, h, h + 1]);
      expect(got.map((g) => g.seq)).toEqual([h - 1, h, h + 1]);
      expect(got.every((g) => g.type === 'message_enqueued')).toBe(true);
      expect(es.readyState).toBe(es.OPEN);
      expect(got[2]!.id).toBe(String(h + 1));
    } finally {
      es.close();
    }
  });
});

describe('SSE: /api/events/stream (global, live only, public agents)', () => {
  beforeAll(async () => {
    await createAgent('g1');
    await createAgent('g2');
    // Stopped before the stream opens, so the run loop adds nothing to g1 and g2 while it is
    // open. gp keeps running: its turns are private events the stream must skip as well.
    await stopAgent(d, 'g1');
    await stopAgent(d, 'g2');
    await createAgent('gp', { visibility: 'private' });
  });

  it('delivers live events of public agents from several logs and skips private agents', async () => {
    const c = await sse('/api/events/stream');
    expect(c.status).toBe(200);
    expect(c.res.headers['content-type']).toMatch(/^text\/event-stream/);
    const g1Head = await head('g1');
    const g2Head = await head('g2');
    await enqueue('g1', 'one');
    await prompt('gp', 'secret-1');
    await enqueue('g2', 'two');
    await prompt('gp', 'secret-2');
    await createAgent('gp-late', { visibility: 'private' });
    await createAgent('g3');
    await enqueue('g1', 'three');
    await c.waitFrames(4);
    await new Promise((r) => setTimeout(r, 100));
    const envs = c.envelopes;
    expect(envs.map((e) => [e.agent_id, e.type])).toEqual([
      ['g1', 'message_enqueued'],
      ['g2', 'message_enqueued'],
      ['g3', 'agent_created'],
      ['g1', 'message_enqueued'],
    ]);
    expect(envs.map((e) => e.event_seq)).toEqual([g1Head + 1, g2Head + 1, 1, g1Head + 2]);
    expect(JSON.stringify(envs)).not.toContain('secret');
    expect(envs.some((e) => e.agent_id === 'gp' || e.agent_id === 'gp-late')).toBe(false);
    expectFramesConsistent(c);
    c.close();
  });

  it('does not replay anything from before the connection', async () => {
    const c = await sse('/api/events/stream', { 'Last-Event-ID': '1' });
    expect(c.status).toBe(200);
    await enqueue('g2', 'after-open');
    await c.waitFrames(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.envelopes.map((e) => [e.agent_id, e.payload.body?.text])).toEqual([['g2', 'after-open']]);
    c.close();
  });

  it('sends heartbeats too', async () => {
    const c = await sse('/api/events/stream');
    await until(() => c.comments.length >= 2, 'heartbeats on the global stream', 3000);
    c.close();
  });
});

describe('SSE under concurrent writers', () => {
  // The agents here keep running: the run loop writes its turn events into the same log while the
  // enqueues land, and the streams must still carry every event exactly once, in order.

  /** Event kinds the eventsource client listens to (named SSE events need one listener each). */
  const LISTENED = [
    'message_enqueued', 'message_processing', 'message_completed', 'message_failed', 'message_retried',
    'turn_entry', 'turn_completed', 'turn_failed', 'turn_interjected', 'turn_aborted', 'turn_interrupted',
    'model_round', 'model_delta', 'model_thought', 'tool_call', 'tool_result', 'brief_created',
    // Holon's companion kinds (src/events/wire/holon-kinds.ts)
    'turn_started', 'tool_executed',
  ];

  it('200 concurrent enqueues while streaming: every event exactly once, in order (raw client and eventsource)', async () => {
    await createAgent('burst');
    const h = await head('burst');
    const raw = await sse(`/api/agents/burst/events/stream?after_seq=${h}`);
    const esSeqs: number[] = [];
    const es = new EventSource(`${d.base}/api/agents/burst/events/stream?after_seq=${h}`);
    try {
      for (const type of LISTENED) es.addEventListener(type, (ev: MessageEvent) => esSeqs.push(Number(ev.lastEventId)));
      await until(() => es.readyState === es.OPEN, 'eventsource to open');
      const ids = await enqueueMany('burst', 200, 'burst-');
      const last = await drained('burst', 200);
      const durable = (await allEvents('burst')).filter((e) => e.event_seq > h);
      expect(durable.map((e) => e.event_seq)).toEqual(range(h + 1, last));
      expect(durable.filter((e) => !LISTENED.includes(e.type)).map((e) => e.type), 'kinds the eventsource client does not listen to').toEqual([]);
      await raw.waitFrames(last - h, 20_000);
      await until(() => esSeqs.length >= last - h, `${last - h} frames over eventsource (have ${esSeqs.length})`, 20_000);
      await new Promise((r) => setTimeout(r, 100));
      expect(raw.ids).toEqual(range(h + 1, last));
      expect(esSeqs).toEqual(range(h + 1, last));
      expect(raw.envelopes).toEqual(durable);
      const streamed = raw.envelopes.filter((e) => e.type === 'message_enqueued').map((e) => e.provenance?.message_id);
      expect([...streamed].sort()).toEqual([...ids].sort());
      expect(new Set(streamed).size).toBe(200);
      expectFramesConsistent(raw, 'burst');
    } finally {
      es.close();
      raw.close();
    }
  }, 90_000);

  it('a stream opened with after_seq=0 in the middle of a burst hands over from backlog to live without a gap or a repeat', async () => {
    await createAgent('handover');
    const writes = enqueueMany('handover', 300, 'h-');
    await new Promise((r) => setTimeout(r, 5));
    const c = await sse('/api/agents/handover/events/stream?after_seq=0');
    const more = enqueueMany('handover', 100, 'late-');
    await Promise.all([writes, more]);
    const total = await drained('handover', 400);
    await c.waitFrames(total, 20_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.ids).toEqual(range(1, total));
    expect(c.envelopes).toEqual(await allEvents('handover'));
    expectFramesConsistent(c, 'handover');
    c.close();
  }, 90_000);

  it('several concurrent streams on one agent all see the same sequence', async () => {
    await createAgent('fanout');
    const clients = await Promise.all(range(1, 5).map(() => sse('/api/agents/fanout/events/stream?after_seq=0')));
    await enqueueMany('fanout', 50, 'f-');
    const total = await drained('fanout', 50);
    const durable = await allEvents('fanout');
    for (const c of clients) await c.waitFrames(total, 20_000);
    for (const c of clients) {
      expect(c.ids).toEqual(range(1, total));
      expect(c.envelopes).toEqual(durable);
      c.close();
    }
  }, 90_000);
});
