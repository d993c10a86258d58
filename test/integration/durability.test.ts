/**
 * Crash durability (docs/architecture.md#durability): a 202 means committed. SIGKILL the daemon in
 * the middle of a burst of concurrent enqueues (the run loop taking messages all the while),
 * restart it on the same home, and every acknowledged message is in the event log once and in the
 * store once (queued, processing, completed or failed), the log's event_seq runs 1..N without a
 * gap and continues at N+1. Agents created and deletions requested before a SIGKILL survive it too.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, waitFor, request, stopAgent, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();

const home = pool.home;
async function start(h: string): Promise<RunningDaemon> {
  // No consumer limits in the way: the burst must never hit queue.max_pending.
  const configToml = fs.existsSync(path.join(h, 'config.toml')) ? undefined : '[queue]\nmax_pending = 1000000\n';
  return pool.start({ home: h, configToml });
}

afterEach(() => {
  pool.killAll();
});

afterAll(() => {
  pool.cleanup();
});

function sigkill(d: RunningDaemon): Promise<void> {
  return new Promise((resolve) => {
    if (d.proc.exitCode !== null || d.proc.signalCode !== null) return resolve();
    d.proc.once('exit', () => resolve());
    d.proc.kill('SIGKILL');
  });
}


/**
 * POST JSON and read the answer; rejects on any connection failure, including a response cut off
 * half-way by the kill (the shared helper would wait forever for its end).
 */
function post(base: string, urlPath: string, body: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const url = new URL(urlPath, base);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('response aborted')));
        res.on('close', () => {
          if (!res.complete) reject(new Error('response incomplete'));
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
          } catch (err) {
            reject(err as Error);
          }
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

interface Envelope {
  id: string;
  event_seq: number;
  type: string;
  agent_id: string;
  provenance: Record<string, unknown> | null;
  payload: Record<string, unknown>;
}

/** The whole log of an agent, ascending, paged with after_seq (1000 a page). */
async function allEvents(d: RunningDaemon, agent: string): Promise<Envelope[]> {
  const out: Envelope[] = [];
  let after = 0;
  for (let pages = 0; pages < 10_000; pages++) {
    const r = await request({ base: d.base }, 'GET', `/api/agents/${agent}/events?order=asc&after_seq=${after}&limit=1000`);
    expect(r.status).toBe(200);
    const events = r.json.events as Envelope[];
    if (events.length === 0) break;
    out.push(...events);
    after = events[events.length - 1]!.event_seq;
    if (!r.json.has_newer) break;
  }
  return out;
}

function expectGapFree(events: Envelope[]): void {
  const seqs = events.map((e) => e.event_seq);
  const expected = Array.from({ length: seqs.length }, (_, i) => i + 1);
  // Compare cheaply first, then with a readable diff on failure.
  if (seqs.some((s, i) => s !== i + 1)) expect(seqs).toEqual(expected);
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
}

describe('SIGKILL during a burst of concurrent enqueues', () => {
  it('every acknowledged message is in the log after restart; event_seq is 1..N and continues at N+1', async () => {
    const h = home();
    const d = await start(h);

    const acked: string[] = [];
    const otherStatuses: number[] = [];
    let connectionErrors = 0;
    const CLIENTS = 20;

    const client = async (c: number) => {
      for (let i = 0; ; i++) {
        let r;
        try {
          r = await post(d.base, '/api/agents/main/enqueue', { text: `client ${c} message ${i}` });
        } catch {
          connectionErrors++;
          return;
        }
        if (r.status === 202 && r.json?.ok === true) acked.push(r.json.message_id);
        else otherStatuses.push(r.status);
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));

    // Let the burst run for about a second, then kill the daemon with requests in flight.
    // Each client stops at its first connection error, which the kill causes.
    const t0 = Date.now();
    await waitFor(() => acked.length >= 200 && Date.now() - t0 >= 1000, 10_000);
    await sigkill(d);
    await Promise.all(clients);

    expect(otherStatuses).toEqual([]);
    expect(acked.length).toBeGreaterThanOrEqual(200);
    // The kill hit the burst, not an idle daemon: clients lost their connections.
    expect(connectionErrors).toBeGreaterThan(0);
    expect(new Set(acked).size).toBe(acked.length);
    expect(acked.filter((id) => !/^msg_[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toEqual([]);

    const again = await start(h);
    // The run loop resumes the backlog at start (recovery, then turns). Stopping the agent ends
    // its current turn before answering, so from here the log changes only with what we write.
    await stopAgent(again, 'main');
    const events = await allEvents(again, 'main');
    expectGapFree(events);
    expect(events.filter((e) => e.type === 'turn_completed').length, 'the run loop was taking messages').toBeGreaterThan(0);

    const enqueued = events.filter((e) => e.type === 'message_enqueued');
    const logged = new Map<string, Envelope>();
    for (const e of enqueued) {
      const id = e.payload.message_id as string;
      expect(logged.has(id)).toBe(false); // one event per message
      expect(e.provenance?.message_id).toBe(id);
      logged.set(id, e);
    }
    const missing = acked.filter((id) => !logged.has(id));
    expect(missing).toEqual([]);
    // Committed but unanswered at the kill: at most one per client in flight.
    expect(enqueued.length - acked.length).toBeGreaterThanOrEqual(0);
    expect(enqueued.length - acked.length).toBeLessThanOrEqual(CLIENTS);
    // The run loop's outcomes: a message completes at most once, and never also fails.
    const outcomes = new Map<string, string[]>();
    for (const e of events.filter((x) => x.type === 'message_completed' || x.type === 'message_failed')) {
      const id = e.payload.message_id as string;
      expect(logged.has(id), `${e.type} for a message never enqueued: ${id}`).toBe(true);
      outcomes.set(id, [...(outcomes.get(id) ?? []), e.type]);
    }
    expect([...outcomes].filter(([, types]) => types.length !== 1)).toEqual([]);

    // The sequence continues where the log ends, with no reuse.
    const n = events.length;
    const r = await request({ base: again.base }, 'POST', '/api/agents/main/enqueue', { body: { text: 'after restart' } });
    expect(r.status).toBe(202);
    const next = await request({ base: again.base }, 'GET', `/api/agents/main/events?order=asc&after_seq=${n}`);
    expect(next.status).toBe(200);
    expect(next.json.events).toHaveLength(1);
    expect(next.json.events[0]).toMatchObject({ event_seq: n + 1, type: 'message_enqueued' });
    expect(next.json.events[0].payload.message_id).toBe(r.json.message_id);
    expect(next.json.cursor_seq).toBe(n + 1);

    // In the store, every acknowledged message is exactly one row (message_id is unique), in a
    // state that agrees with its events: completed or failed as the log says, else still queued
    // or processing (left by the stop; retried at the next start).
    expect(await again.stop()).toBe(0);
    const db = new Database(path.join(h, 'svc.db'), { readonly: true });
    try {
      const statusOf = db.prepare('SELECT status FROM messages WHERE message_id = ?').pluck();
      const wrong: Array<[string, unknown, string[] | undefined]> = [];
      for (const id of acked) {
        const status = statusOf.get(id);
        const outcome = outcomes.get(id)?.[0];
        const expected = outcome === 'message_completed' ? ['completed'] : outcome === 'message_failed' ? ['failed'] : ['queued', 'processing'];
        if (!expected.includes(String(status))) wrong.push([id, status, outcomes.get(id)]);
      }
      expect(wrong).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a second SIGKILL right after restart loses nothing either (acknowledged before the kill)', async () => {
    const h = home();
    const d = await start(h);
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request({ base: d.base }, 'POST', '/api/agents/main/enqueue', { body: { json: { n: i } } }).then((r) => {
          expect(r.status).toBe(202);
          return r.json.message_id as string;
        }),
      ),
    );
    await sigkill(d);
    const d2 = await start(h);
    await sigkill(d2); // only the run loop writes in between (recovery, turns): nothing acknowledged may go
    const d3 = await start(h);
    const events = await allEvents(d3, 'main');
    expectGapFree(events);
    const enqueued = events.filter((e) => e.type === 'message_enqueued').map((e) => e.payload.message_id);
    const logged = new Set(enqueued);
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    expect(logged.size).toBe(50);
    expect(enqueued).toHaveLength(50); // once each
  });
});

describe('agents across a SIGKILL', () => {
  it('an agent created before a SIGKILL exists after restart, with its log and queued messages', async () => {
    const h = home();
    const d = await start(h);
    const created = await request({ base: d.base }, 'POST', '/api/control/agents/worker-1/create', { body: {} });
    expect(created.status).toBe(201);
    expect(created.json.created).toBe(true);
    const enq = await request({ base: d.base }, 'POST', '/api/agents/worker-1/enqueue', { body: { text: 'for worker-1' } });
    expect(enq.status).toBe(202);
    await sigkill(d);

    const again = await start(h);
    const detail = await request({ base: again.base }, 'GET', '/api/control/agents/worker-1/detail');
    expect(detail.status).toBe(200);
    expect(detail.json.agent_id).toBe('worker-1');
    expect(detail.json.identity).toMatchObject({ agent_id: 'worker-1', incarnation: 1, created_at: created.json.agent.identity.created_at });

    const list = await request({ base: again.base }, 'GET', '/api/agents/list');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.json)).toContain('"worker-1"');

    const events = await allEvents(again, 'worker-1');
    expectGapFree(events);
    expect(events.some((e) => e.type === 'agent_created')).toBe(true);
    expect(events.filter((e) => e.type === 'message_enqueued').map((e) => e.payload.message_id)).toEqual([enq.json.message_id]);

    // Creating it again is idempotent, not a new incarnation.
    const same = await request({ base: again.base }, 'POST', '/api/control/agents/worker-1/create', { body: {} });
    expect(same.status).toBe(200);
    expect(same.json.created).toBe(false);
    expect(same.json.agent.identity.incarnation).toBe(1);
  });

  it('a deletion interrupted by SIGKILL is resumed at the next start and completes', async () => {
    const h = home();
    const d = await start(h);
    expect((await request({ base: d.base }, 'POST', '/api/control/agents/doomed/create', { body: {} })).status).toBe(201);
    // Enough files in the agent home that `removing_files` takes a while, so the kill lands in it.
    const agentHome = path.join(h, 'agents', 'doomed');
    expect(fs.existsSync(agentHome)).toBe(true);
    const bulk = path.join(agentHome, 'bulk');
    fs.mkdirSync(bulk, { recursive: true });
    for (let i = 0; i < 20; i++) {
      const dir = path.join(bulk, String(i));
      fs.mkdirSync(dir);
      for (let j = 0; j < 1500; j++) fs.writeFileSync(path.join(dir, `f${j}`), 'x');
    }

    const del = await request({ base: d.base }, 'DELETE', '/api/control/agents/doomed');
    expect(del.status).toBe(202);
    const jobId = del.json.job.job_id as string;
    // Kill as soon as the job is in flight (any phase before completion).
    const phaseAtKill = await waitFor(async () => {
      const s = await request({ base: d.base }, 'GET', '/api/control/agents/doomed/delete-status');
      return s.json.job.status === 'running' ? (s.json.job.phase as string) : null;
    }, 5000, 5);
    await sigkill(d);
    expect(fs.existsSync(agentHome)).toBe(true); // really interrupted
    expect(['stopping', 'purging_queue', 'purging_events', 'removing_files', 'finalizing']).toContain(phaseAtKill);

    const again = await start(h);
    const status = await waitFor(
      async () => {
        const s = await request({ base: again.base }, 'GET', `/api/jobs/${jobId}`);
        expect(s.status).toBe(200);
        return s.json.job.status === 'completed' || s.json.job.status === 'failed' ? s.json.job : null;
      },
      15_000,
      50,
    );
    expect(status).toMatchObject({ job_id: jobId, status: 'completed', error: null });
    expect(fs.existsSync(agentHome)).toBe(false);
    const gone = await request({ base: again.base }, 'GET', '/api/control/agents/doomed/detail');
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('agent_not_found');

    // A new incarnation; nothing of the old one revived.
    const fresh = await request({ base: again.base }, 'POST', '/api/control/agents/doomed/create', { body: {} });
    expect(fresh.status).toBe(201);
    expect(fresh.json.agent.identity.incarnation).toBe(2);
    const events = await allEvents(again, 'doomed');
    expect(events.some((e) => e.type === 'message_enqueued' || e.type === 'agent_deletion_requested')).toBe(false);
  }, 60_000);
});
