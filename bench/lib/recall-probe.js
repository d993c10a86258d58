/**
 * The recall scenario's measured process: svc's own services (built output) on the home given as
 * argv[2] (event retention off, a queue that never fills, the run loop off).
 *
 * 1. Seeds one agent's memory with `texts` word-like texts: event rows (messages and result
 *    briefs in turn, 5 to ~95 words each drawn from a 30,000-word vocabulary with Zipf frequencies,
 *    s = 1, as natural language has) written straight into `events`, then indexed by the memory
 *    index's backfill (`MemoryIndex.start`), the path of a log stored before the index.
 * 2. Times the `memory_search` tool itself (the model's call: the query, the ranking, the excerpts,
 *    the JSON the model reads) for classes of words picked by how many texts hold them: rare, mid,
 *    common (past the memory index's COMMON_TEXTS, answered newest first) and a common word with a
 *    rare one; each sample a different word of its class.
 * 3. Times the domain enqueue (`ingress.publicEnqueue` of a word-like text, `batch` callers at a
 *    time, the group commit's fsync included) with the event log's in-transaction hooks and without
 *    them, in alternating rounds: the second arm empties the event log's list of appending
 *    listeners (a private field: the memory index registers the only one) and restores it after.
 *
 * Prints one JSON line.
 */
import { loadConfig } from '../../dist/config/load.js';
import { systemClock } from '../../dist/core/clock.js';
import { createServices, startServices, stopServices } from '../../dist/services.js';
import { createLogger } from '../../dist/telemetry/logger.js';

const [home, textsArg, queriesArg, enqueuesArg, roundsArg, batchArg] = process.argv.slice(2);
const TEXTS = Number(textsArg);
const QUERIES = Number(queriesArg);
const ENQUEUES = Number(enqueuesArg);
const ROUNDS = Number(roundsArg);
const BATCH = Number(batchArg);
const AGENT = 'recall';
const TX_TEXTS = 10_000;

// --- word-like texts ---------------------------------------------------------------------------

let state = 0x2545f491;
/** mulberry32: the same texts in every run. */
function rnd() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const SYLLABLES = ['ka', 'to', 'ri', 'mel', 'san', 'dor', 'pe', 'lu', 'vin', 'ost', 'ar', 'en', 'ti', 'qua', 'bro', 'ne', 'sy', 'lo', 'ger', 'mi', 'ba', 'che', 'dri', 'fon', 'gu', 'hal', 'ip', 'jor', 'kle', 'mun'];
const VOCABULARY = (() => {
  const words = new Set();
  while (words.size < 30_000) {
    let w = '';
    const n = 1 + Math.floor(rnd() * 3.5);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
})();
const CDF = (() => {
  const cdf = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let i = 0; i < cdf.length; i++) cdf[i] = sum += 1 / (i + 1);
  for (let i = 0; i < cdf.length; i++) cdf[i] /= sum;
  return cdf;
})();

function word() {
  const r = rnd();
  let lo = 0;
  let hi = CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CDF[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}

function text() {
  const n = 5 + Math.floor(Math.exp(rnd() * 4.5));
  const words = [];
  for (let i = 0; i < n; i++) words.push(word());
  return `${words.join(' ')}.`;
}

// --- services ----------------------------------------------------------------------------------

const s = createServices(loadConfig({ home }, {}), systemClock, createLogger('silent'));
s.runLoop.scheduler.disable();
startServices(s);
s.store.tx(() => {
  s.agents.create(AGENT, {});
  s.agents.create('enqueue', {});
});

const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

/**
 * The agent's log written straight into `events` (as lib/seed-events.js does for a stopped daemon:
 * rows as EventLog.append writes them), then indexed by the memory index's own backfill, the path a
 * log stored before the index takes after the upgrade.
 */
async function seed() {
  const db = s.store.db;
  const insert = db.prepare('INSERT INTO events (agent_id, event_seq, id, ts, type, level, payload) VALUES (?, ?, ?, ?, ?, 0, ?)');
  const provenance = { origin: { kind: 'operator', actor_id: 'bench' }, trust: 'trusted_operator', authority_class: 'operator_instruction', priority: 'normal', kind: 'operator_prompt', delivery_surface: 'control_prompt' };
  const first = s.events.head(AGENT) + 1;
  const ts = new Date().toISOString();
  let chars = 0;
  const t0 = performance.now();
  for (let from = 0; from < TEXTS; from += TX_TEXTS) {
    s.store.tx(() => {
      for (let i = from; i < Math.min(TEXTS, from + TX_TEXTS); i++) {
        const t = text();
        chars += t.length;
        const seq = first + i;
        const [type, payload] =
          i % 2 === 0
            ? ['message_enqueued', { message_id: `msg_${i}`, kind: 'operator_prompt', body: { type: 'text', text: t }, provenance: { ...provenance, message_id: `msg_${i}` }, origin: provenance.origin }]
            : ['brief_created', { brief_id: `brf_${i}`, brief_kind: 'result', turn_id: null, message_id: `msg_${i - 1}`, text: t, kind: 'result' }];
        insert.run(AGENT, seq, `evt_bench_${i}`, ts, type, JSON.stringify(payload));
      }
    });
  }
  const written = (performance.now() - t0) / 1000;
  db.prepare('INSERT INTO memory_backfill (agent_id, next_seq, through_seq) VALUES (?, ?, ?)').run(AGENT, first, first + TEXTS - 1);
  const t1 = performance.now();
  s.memoryIndex.start();
  await s.memoryIndex.idle();
  const indexed = db.prepare('SELECT count(*) FROM memory_docs WHERE agent_id = ?').pluck().get(AGENT);
  if (indexed !== TEXTS) throw new Error(`${indexed} texts indexed, expected ${TEXTS}`);
  return { write_seconds: written, index_seconds: (performance.now() - t1) / 1000, chars };
}

function indexBytes() {
  const size = (like) => s.store.db.prepare('SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE ?').pluck().get(like);
  return { fts: size('memory_fts%'), docs: size('memory_docs') + size('memory_agents') };
}

// --- memory_search -----------------------------------------------------------------------------

const tool = s.tools.find((t) => t.name === 'memory_search');
const ctx = { agentId: AGENT, turnId: 'turn_bench', messageId: 'msg_bench', trust: 'trusted_operator', network: false, signal: new AbortController().signal };
const textsHolding = s.store.db.prepare('SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?').pluck();

/** Words of the vocabulary whose number of texts is within [lo, hi], `n` of them at most. */
function wordsHeldBy(lo, hi, n, fromRank, toRank) {
  const out = [];
  for (let rank = fromRank; rank < toRank && out.length < n; rank += 1 + Math.floor(rnd() * 3)) {
    const w = VOCABULARY[rank];
    const held = textsHolding.get(`"${w}"`);
    if (held >= lo && held <= hi) out.push({ word: w, held });
  }
  return out;
}

/** Wall time of each call, and the CPU time the process used meanwhile (which a busy neighbour cannot inflate). */
async function timeQueries(queries) {
  const ms = [];
  const cpuMs = [];
  const hits = [];
  for (let i = 0; i < QUERIES + 20; i++) {
    const query = queries[i % queries.length];
    const c0 = cpuUs();
    const t0 = performance.now();
    const out = await tool.execute(ctx, { query, limit: 20 });
    const took = performance.now() - t0;
    const cpu = (cpuUs() - c0) / 1000;
    if (!out.ok) throw new Error(`memory_search ${query}: ${out.content}`);
    if (i >= 20) {
      ms.push(took);
      cpuMs.push(cpu);
      hits.push(out.data.hits.length);
    }
  }
  return { ms, cpu_ms: cpuMs, mean_hits: hits.reduce((a, b) => a + b, 0) / hits.length };
}

// --- enqueue with and without the hook ----------------------------------------------------------

const appending = s.events.appendingListeners;
if (!Array.isArray(appending) || appending.length === 0) throw new Error('the event log has no appending listener to take away');

async function enqueueRound(withHook) {
  const saved = withHook ? null : appending.splice(0);
  try {
    const texts = Array.from({ length: ENQUEUES }, text);
    const t0 = cpuUs();
    const w0 = performance.now();
    const pending = [];
    for (const t of texts) {
      pending.push(s.ingress.publicEnqueue('enqueue', { text: t }));
      if (pending.length === BATCH) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    return { cpu_us: (cpuUs() - t0) / ENQUEUES, wall_us: ((performance.now() - w0) * 1000) / ENQUEUES };
  } finally {
    if (saved) appending.push(...saved);
  }
}

// --- run -----------------------------------------------------------------------------------------

const seeded = await seed();
const bytes = indexBytes();
const rare = wordsHeldBy(5, 200, 200, 8_000, 30_000);
const mid = wordsHeldBy(2_000, 15_000, 40, 50, 2_000);
const common = wordsHeldBy(20_001, Infinity, 20, 0, 200);
if (rare.length < 20 || mid.length < 10 || common.length < 5) throw new Error(`too few words: rare ${rare.length}, mid ${mid.length}, common ${common.length}`);
const classes = {
  rare: rare.map((w) => w.word),
  mid: mid.map((w) => w.word),
  common: common.map((w) => w.word),
  common_and_rare: rare.map((w, i) => `${common[i % common.length].word} ${w.word}`),
};
const queries = {};
for (const [name, list] of Object.entries(classes)) queries[name] = await timeQueries(list);

await enqueueRound(true); // warm-up of both arms: JIT, statement cache, file growth
await enqueueRound(false);
const enqueue = { with: [], without: [] };
for (let r = 0; r < ROUNDS; r++) {
  // Alternate which arm goes first, so a drift of the machine does not favour one.
  const order = r % 2 === 0 ? [true, false] : [false, true];
  for (const withHook of order) (withHook ? enqueue.with : enqueue.without).push(await enqueueRound(withHook));
}
const indexedEnqueues = s.store.db.prepare("SELECT count(*) FROM memory_docs WHERE agent_id = 'enqueue'").pluck().get();

await stopServices(s);
process.stdout.write(
  `${JSON.stringify({
    texts: TEXTS,
    write_seconds: seeded.write_seconds,
    index_seconds: seeded.index_seconds,
    text_chars: seeded.chars,
    index_bytes: bytes,
    words: { rare: spread(rare), mid: spread(mid), common: spread(common) },
    queries,
    enqueue,
    indexed_enqueues: indexedEnqueues,
  })}\n`,
);

function spread(words) {
  const held = words.map((w) => w.held);
  return { count: words.length, min: Math.min(...held), max: Math.max(...held) };
}
