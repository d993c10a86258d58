/**
 * Event retention against the real daemon (docs/configuration.md#event-retention, "replay window"):
 * a log a batch past `events.retain_max_events` is pruned as it grows, and one older than
 * `events.retain_days` at the next start; what is left is the replay window that cursors, pages,
 * streams, the observer snapshots and the metrics report.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, stopAgent, waitFor, type RunningDaemon } from '../helpers/daemon.js';

/** Rows deleted per transaction (events/retention.ts): the append trigger fires a batch past the cap. */
const BATCH = 500;
const KEEP = 10;

let d: RunningDaemon;

beforeAll(async () => {
  d = await startDaemon({ configToml: `[events]\nretain_max_events = ${KEEP}\n` });
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
});

async function createStopped(id: string): Promise<void> {
  const res = await request(d, 'POST', `/api/control/agents/${id}/create`, { body: {} });
  expect(res.status, res.text).toBe(201);
  await stopAgent(d, id); // event 2; the run loop adds nothing after it
}

/** `n` enqueues, 50 at a time: one message_enqueued event each. */
async function enqueue(agent: string, n: number): Promise<void> {
  for (let done = 0; done < n; done += 50) {
    const results = await Promise.all(
      Array.from({ length: Math.min(50, n - done) }, (_, i) => request(d, 'POST', `/api/agents/${agent}/enqueue`, { body: { text: `m${done + i}` } })),
    );
    for (const r of results) expect(r.status, r.text).toBe(202);
  }
}

async function page(agent: string, query: string) {
  const res = await request(d, 'GET', `/api/agents/${agent}/events?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json as { events: Array<{ event_seq: number }>; cursor_seq: number; has_older: boolean; has_newer: boolean; oldest_seq: number | null };
}

const seqs = (p: { events: Array<{ event_seq: number }> }) => p.events.map((e) => e.event_seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A stream that ends by itself (`limit` backlog events); the SSE ids it carried. */
async function streamIds(agent: string, query: string): Promise<number[]> {
  const res = await request(d, 'GET', `/api/agents/${agent}/events/stream?${query}`);
  expect(res.status, res.text).toBe(200);
  return [...res.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

async function expectCursorNotFound(agent: string, after: number, head: number): Promise<void> {
  const res = await request(d, 'GET', `/api/agents/${agent}/events/stream?after_seq=${after}`);
  expect(res.status, res.text).toBe(404);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json).toMatchObject({ ok: false, code: 'cursor_not_found', after_seq: after, event_seq: head });
}

describe('the count rule, triggered by appends', () => {
  // rt: 1 agent_created, 2 control_applied, 3..510 message_enqueued. The 510th event is a batch
  // past the cap, so the daemon prunes through 500 and keeps 501..510.
  const HEAD = KEEP + BATCH;
  beforeAll(async () => {
    await createStopped('rt');
    await enqueue('rt', HEAD - 2);
    await waitFor(async () => (await page('rt', 'order=asc&limit=1')).oldest_seq === HEAD - KEEP + 1, 10_000);
  });

  it('keeps the newest retain_max_events events; pages say nothing older is left', async () => {
    const all = await page('rt', 'order=asc&limit=1000');
    expect(seqs(all)).toEqual(range(HEAD - KEEP + 1, HEAD));
    expect(all).toMatchObject({ cursor_seq: HEAD, has_older: false, has_newer: false });
    const newest = await page('rt', 'limit=4');
    expect(seqs(newest)).toEqual([510, 509, 508, 507]);
    expect(newest.has_older).toBe(true);
    const oldest = await page('rt', `before_seq=${HEAD - KEEP + 2}`);
    expect(seqs(oldest)).toEqual([HEAD - KEEP + 1]);
    expect(oldest.has_older).toBe(false);
  });

  it('a pruned cursor answers 404 cursor_not_found with after_seq and event_seq; oldest - 1 and 0 replay the window', async () => {
    for (const after of [1, 100, HEAD - KEEP - 1]) await expectCursorNotFound('rt', after, HEAD);
    expect(await streamIds('rt', `after_seq=${HEAD - KEEP}&limit=3`)).toEqual(range(HEAD - KEEP + 1, HEAD - KEEP + 3));
    expect(await streamIds('rt', `after_seq=0&limit=${KEEP}`)).toEqual(range(HEAD - KEEP + 1, HEAD));
  });

  it('a pruned Last-Event-ID (a reconnecting EventSource) answers the same 404, before any SSE byte', async () => {
    const res = await request(d, 'GET', '/api/agents/rt/events/stream', { headers: { 'last-event-id': '100' } });
    expect(res.status, res.text).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ ok: false, code: 'cursor_not_found', after_seq: 100, event_seq: HEAD });
  });

  it('the observer snapshots report the retained window', async () => {
    const snap = await request(d, 'GET', '/api/agents/rt/projection-snapshot');
    expect(snap.status, snap.text).toBe(200);
    expect(snap.json).toMatchObject({ event_head_seq: HEAD, oldest_retained_seq: HEAD - KEEP + 1 });
    const roster = await request(d, 'GET', '/api/agents/snapshot');
    const rt = (roster.json.agents as Array<{ agent: { agent_id: string }; event_window: unknown }>).find((a) => a.agent.agent_id === 'rt');
    expect(rt?.event_window).toEqual({ event_head_seq: HEAD, oldest_retained_seq: HEAD - KEEP + 1 });
  });

  it('counts the pruned events in svc_events_pruned_total', async () => {
    const res = await request(d, 'GET', '/api/control/runtime/metrics');
    expect(res.text).toMatch(new RegExp(`^svc_events_pruned_total ${HEAD - KEEP}$`, 'm'));
  });
});

describe('the age rule at start: a log older than retain_days is pruned whole, and its head is kept', () => {
  // old: 1 agent_created, 2 control_applied, 3..5 message_enqueued, all dated 40 days back.
  const HEAD = 5;
  beforeAll(async () => {
    await createStopped('old');
    await enqueue('old', 3);
    // Rows are changed while the daemon is stopped: it owns its database while it runs.
    await d.stop();
    const db = new Database(path.join(d.home, 'svc.db'));
    try {
      db.prepare('UPDATE events SET ts = ? WHERE agent_id = ?').run(new Date(Date.now() - 40 * 86_400_000).toISOString(), 'old');
    } finally {
      db.close();
    }
    d = await startDaemon({ home: d.home });
    await waitFor(async () => (await page('old', 'limit=1')).events.length === 0, 10_000);
  });

  it('the page is empty with the head as cursor_seq; the observer window is empty', async () => {
    const p = await page('old', 'limit=10');
    expect(p).toMatchObject({ events: [], cursor_seq: HEAD, has_older: false, has_newer: false });
    const snap = await request(d, 'GET', '/api/agents/old/projection-snapshot');
    expect(snap.json).toMatchObject({ event_head_seq: HEAD, oldest_retained_seq: HEAD + 1 });
  });

  it('only the head is a valid cursor; the next event continues after it', async () => {
    await expectCursorNotFound('old', HEAD - 1, HEAD);
    await expectCursorNotFound('old', 1, HEAD);
    await enqueue('old', 1);
    expect(await streamIds('old', 'after_seq=0&limit=1')).toEqual([HEAD + 1]);
    expect(await streamIds('old', `after_seq=${HEAD}&limit=1`)).toEqual([HEAD + 1]);
    expect(seqs(await page('old', 'limit=10'))).toEqual([HEAD + 1]);
  });

  it('the other agents keep their logs', async () => {
    expect((await page('rt', 'order=asc&limit=1')).oldest_seq).toBe(KEEP + BATCH - KEEP + 1);
    expect((await page('main', 'order=asc&limit=1')).oldest_seq).toBe(1);
  });
});
