/**
 * Long texts are stored once (store/texts.ts) and every answer reads them back as it read them
 * when each row held its own copy: a 16 KB message through the echo model, every read of it over
 * HTTP compared with the exact strings, then again, byte for byte, after the database is
 * rewritten with every text inline (as svc stored them before migration 023).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, expect, it } from 'vitest';
import { chunksOf, Texts } from '../../src/store/texts.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** 16 KB of prose with unicode, quotes and line breaks past the first chunk. */
function longText(seed: number, prefix = ''): string {
  const parts = ['naïve', 'café', '"quoted"', 'über', 'status', 'report', 'deploy', 'line\nbreak', '😀', 'build', 'green', 'red', 'done', 'tab\there'];
  let x = seed;
  let out = `${prefix}${'first line without a break '.repeat(30)}`;
  while (out.length < 16_384) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += `${parts[(x >> 16) % parts.length]} `;
  }
  return out.slice(0, 16_384).replace(/[\ud800-\udbff]$/, '.');
}

async function json(d: RunningDaemon, method: string, url: string, body?: unknown, status = 200): Promise<Json> {
  const res = await request(d, method, url, body === undefined ? {} : { body });
  expect(res.status, `${method} ${url}: ${res.text.slice(0, 500)}`).toBe(status);
  return res.json;
}

/** Every owning table: its key, its JSON columns and its plain-text columns. */
const OWNERS = [
  { table: 'events', key: ['agent_id', 'event_seq'], json: ['payload'], text: [] },
  { table: 'messages', key: ['message_id'], json: ['body', 'metadata'], text: [] },
  { table: 'conversation_history', key: ['agent_id', 'seq'], json: [], text: ['content'] },
  { table: 'turn_activities', key: ['turn_id', 'seq'], json: ['payload'], text: [] },
  { table: 'briefs', key: ['brief_id'], json: [], text: ['text'] },
];

/** Rewrite every encoded row with its texts inline and `text_ids` NULL; returns the rows rewritten. */
function inline(file: string): number {
  const db = new Database(file);
  const texts = new Texts(db);
  let rewritten = 0;
  db.transaction(() => {
    for (const o of OWNERS) {
      const columns = [...o.json, ...o.text];
      const rows = db.prepare(`SELECT ${[...o.key, ...columns, 'text_ids'].join(', ')} FROM ${o.table} WHERE text_ids IS NOT NULL`).all() as Json[];
      const update = db.prepare(`UPDATE ${o.table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, text_ids = NULL WHERE ${o.key.map((k) => `${k} = @${k}`).join(' AND ')}`);
      for (const row of rows) {
        const read = texts.read(row.text_ids);
        for (const c of o.json) row[c] = JSON.stringify(read.json(row[c]));
        for (const c of o.text) row[c] = read.text(row[c]);
        delete row.text_ids;
        update.run(row);
        rewritten++;
      }
    }
  })();
  expect(db.prepare('SELECT count(*) FROM texts').pluck().get()).toBe(0);
  db.close();
  return rewritten;
}

it('reads every long text back exactly, before and after the database holds it inline', async () => {
  const d = await pool.start();
  const text = longText(1);
  const prompt = longText(2, '\u0000');
  const queued = await json(d, 'POST', '/api/agents/main/enqueue', { text }, 202);
  const prompted = await json(d, 'POST', '/api/control/agents/main/prompt', { text: prompt }, 202);
  const briefs = await waitFor(async () => {
    const list = (await json(d, 'GET', '/api/agents/main/briefs')).briefs as Json[];
    return list.length === 2 && list;
  }, 15_000);

  // The exact strings, through every read.
  const history = (await json(d, 'GET', '/api/agents/main/conversation?limit=50')).history as Json[];
  const entry = history.find((h) => h.role === 'user' && h.message_id === queued.message_id)!.content as string;
  const header = entry.slice(0, entry.indexOf('\n'));
  expect(header).toMatch(/^\[.*\]$/);
  expect(entry).toBe(`${header}\n${text}`);
  const reply = `echo: ${entry}`;
  expect(history.filter((h) => h.role === 'user').map((h) => h.content)).toEqual([entry, prompt]);
  expect(history.filter((h) => h.role === 'assistant').map((h) => h.content)).toEqual([reply, `echo: ${prompt}`]);
  expect(briefs.map((b: Json) => b.text).sort()).toEqual([reply, `echo: ${prompt}`].sort());
  const events = (await json(d, 'GET', '/api/agents/main/events?order=asc&limit=1000&max_level=debug')).events as Json[];
  expect(events.filter((e) => e.type === 'message_enqueued').map((e) => e.payload.body.text)).toEqual([text, prompt]);
  const created = events.filter((e) => e.type === 'brief_created').map((e) => [e.payload.text, e.payload.brief.text]);
  expect(created.flat().sort()).toEqual([reply, reply, `echo: ${prompt}`, `echo: ${prompt}`].sort());
  const messages = await json(d, 'POST', '/api/agents/main/messages:batchGet', { message_ids: [queued.message_id, prompted.message_id] });
  expect(messages.messages.map((m: Json) => m.body.text)).toEqual([text, prompt]);
  const turnId = briefs.find((b: Json) => b.message_id === queued.message_id).turn_id as string;
  const activities = (await json(d, 'GET', `/api/agents/main/turns/${turnId}/activities`)).activities as Json[];
  expect(activities.find((a) => a.kind === 'model_round').payload.text).toBe(reply);
  const [first] = chunksOf(text);
  const across = text.slice(first!.length - 12, first!.length + 12);
  const found = await json(d, 'POST', '/api/search', { query: across });
  const enqueuedSeq = events.find((e) => e.type === 'message_enqueued').event_seq;
  expect(found.results.map((r: Json) => r.locator.event_seq)).toContain(enqueuedSeq);
  const source = await json(d, 'POST', '/api/memory/get', { source_ref: `event:main:${enqueuedSeq}` });
  expect(source.content).toBe(text);

  // Every answer, byte for byte, once the same rows hold their texts inline.
  const reads: Array<[string, string, unknown?]> = [
    ['GET', '/api/agents/main/events?order=asc&limit=1000&max_level=debug'],
    ['GET', '/api/agents/main/conversation?limit=50'],
    ['GET', '/api/agents/main/transcript'],
    ['GET', '/api/agents/main/briefs'],
    ['GET', `/api/agents/main/turns/${turnId}/activities`],
    ['POST', '/api/agents/main/messages:batchGet', { message_ids: [queued.message_id, prompted.message_id] }],
    ['POST', '/api/agents/main/briefs:batchGet', { brief_ids: briefs.map((b: Json) => b.brief_id) }],
    ['POST', '/api/search', { query: across }],
    ['POST', '/api/search', { query: 'café' }],
    ['POST', '/api/search', { query: '"quoted"' }],
    ['POST', '/api/memory/get', { source_ref: `event:main:${enqueuedSeq}` }],
  ];
  const answers = async (daemon: RunningDaemon) => {
    const out: string[] = [];
    for (const [method, url, body] of reads) out.push((await request(daemon, method, url, body === undefined ? {} : { body })).text);
    return out;
  };
  const stored = await answers(d);
  expect(await d.stop()).toBe(0);
  expect(inline(path.join(d.home, 'svc.db'))).toBeGreaterThan(10);
  const again = await pool.start({ home: d.home });
  const inlined = await answers(again);
  for (let i = 0; i < reads.length; i++) expect(inlined[i], reads[i]!.slice(0, 2).join(' ')).toBe(stored[i]);
  await again.stop();
});
