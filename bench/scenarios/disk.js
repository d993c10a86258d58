/**
 * Disk bytes per byte of text: N messages of word-like text (16 KB each by default) enqueued to
 * `main` with builtin/echo running, each answered by a reply that quotes it. Once every message
 * has its result brief the daemon stops (a clean stop checkpoints the WAL into the database file)
 * and the database file plus what is left of the WAL is set against the bytes of text sent, with
 * the split per table and index from SQLite's `dbstat`. Each text needs to be on the disk once as
 * input and once as output at most: goal ≤ 2x (the reply quotes the input, so once is possible).
 * Daemon CPU per message (enqueue, turn, reply) is reported beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expectJson, request, sleep } from '../lib/http.js';
import { cpuSeconds, removeHome, startDaemon } from '../lib/processes.js';
import { int, mib } from '../lib/stats.js';

const GOAL_RATIO = 2;
const PATH = '/api/agents/main/enqueue';
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa'];
const DRAIN_TIMEOUT_MS = 120_000;

/** Word-like text of `bytes` ASCII characters from a seeded PRNG (mulberry32): no two texts share a run of words. */
function text(bytes, seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let out = '';
  while (out.length < bytes) out += `${WORDS[Math.floor(next() * WORDS.length)]}${next() < 0.1 ? '. ' : ' '}`;
  return out.slice(0, bytes);
}

export async function run(opts) {
  const { messages, bytes } = opts.disk;
  const svc = await startDaemon();
  const failures = [];
  let input = 0;
  let cpu = 0;
  let briefs = 0;
  try {
    const cpu0 = cpuSeconds(svc.pid);
    for (let i = 0; i < messages; i++) {
      const body = text(bytes, i + 1);
      const res = await request(svc.base, 'POST', PATH, { json: { text: body } });
      if (res.status !== 202) throw new Error(`enqueue answered ${res.status}: ${res.text.slice(0, 300)}`);
      input += Buffer.byteLength(body);
    }
    briefs = await drained(svc, messages);
    cpu = cpuSeconds(svc.pid) - cpu0;
    if (briefs !== messages) failures.push(`${messages} messages enqueued but ${briefs} result briefs`);
  } finally {
    await svc.stop();
  }
  try {
    const file = path.join(svc.home, 'svc.db');
    const size = (f) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
    const total = size(file) + size(`${file}-wal`);
    const db = new Database(file, { readonly: true });
    const tables = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all();
    db.close();
    const ratio = total / input;
    opts.log(`  ${int(messages)} × ${int(bytes)} B of text: database ${mib(total)} = ${ratio.toFixed(2)}x the input`);
    const split = tables.filter((t) => t.bytes / input >= 0.01).map((t) => `${t.name} ${(t.bytes / input).toFixed(2)}x`);
    return {
      params: `${int(messages)} messages of ${int(bytes)} bytes of word-like text to main, builtin/echo, sequential enqueues; svc.db + WAL after a clean stop; split from dbstat`,
      rows: [
        { measure: 'database bytes per input byte (input + echoed reply)', result: `${ratio.toFixed(2)}x (${mib(total)} for ${mib(input)})`, goal: `≤ ${GOAL_RATIO}x`, ok: ratio <= GOAL_RATIO },
        { measure: 'per table and index (≥ 0.01x)', result: split.join(', ') },
        { measure: 'daemon CPU per message (enqueue, turn, reply)', result: `${int((cpu / messages) * 1e6)} µs` },
      ],
      data: { messages, bytes, input_bytes: input, database_bytes: total, ratio, tables, cpu_seconds: cpu },
      failures,
    };
  } finally {
    removeHome(svc.home);
  }
}

/** Wait until nothing is queued or running for main; returns its result briefs. */
async function drained(svc, expected) {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const c = await expectJson(svc.base, 'GET', '/api/agents/main/conversation?limit=1', 200);
    if (c.pending === 0 && !c.current_turn) break;
    if (Date.now() > deadline) throw new Error(`messages still queued after ${DRAIN_TIMEOUT_MS / 1000} s`);
    await sleep(50);
  }
  let count = 0;
  let before = '';
  for (;;) {
    const page = await expectJson(svc.base, 'GET', `/api/agents/main/briefs?limit=200${before}`, 200);
    count += page.briefs.filter((b) => b.kind === 'result').length;
    if (page.briefs.length < 200 || count >= expected) return count;
    before = `&before=${page.briefs[page.briefs.length - 1].brief_id}`;
  }
}
