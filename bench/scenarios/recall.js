/**
 * Recall: `memory_search` over a large memory, and what the memory index costs an enqueue.
 *
 * A child process (lib/recall-probe.js) runs svc's own services (built output) on a fresh home with
 * event retention off: it writes 1,000,000 word-like texts into one agent's log and has the memory
 * index's backfill index them (the path of a log stored before the index), then times the
 * `memory_search` tool itself for rare, mid-frequency and common words and for a common word with a
 * rare one (goal: p99 ≤ 20 ms for each). Then the domain enqueue of a word-like text, with the event
 * log's in-transaction hook and without it, in alternating rounds of the same process: the ratio
 * of CPU time per enqueue is what indexing costs.
 */
import { removeHome, RETENTION_OFF, runProbe, tempHome } from '../lib/processes.js';
import { halfSpread, int, mean, mib, ms, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 20;

const CLASS_LABELS = {
  rare: 'a rare word',
  mid: 'a mid-frequency word (ranked: bm25 over up to 2,000 candidates)',
  common: 'a common word (past 20,000 texts: newest first)',
  common_and_rare: 'a common word and a rare one (the common one left out)',
};

export async function run(opts) {
  const { texts, queries, enqueues, rounds, batch } = opts.recall;
  const home = tempHome(RETENTION_OFF);
  try {
    const out = await runProbe('recall-probe.js', [home, texts, queries, enqueues, rounds, batch].map(String));
    const failures = [];
    const expected = enqueues * (rounds + 1);
    if (out.indexed_enqueues !== expected) failures.push(`${out.indexed_enqueues} enqueued messages indexed, expected ${expected} (the rounds with the hook)`);
    const rows = [];
    const data = { texts, queries, enqueues, rounds, batch, write_seconds: out.write_seconds, index_seconds: out.index_seconds, text_chars: out.text_chars, index_bytes: out.index_bytes, words: out.words, latency_ms: {} };
    for (const [name, label] of Object.entries(CLASS_LABELS)) {
      const q = out.queries[name];
      const sum = summary(q.ms);
      const cpu = summary(q.cpu_ms);
      data.latency_ms[name] = { ...sum, cpu_ms: cpu, mean_hits: q.mean_hits };
      const w = out.words[name === 'common_and_rare' ? 'rare' : name];
      rows.push({
        measure: `memory_search of ${label}, held by ${int(w.min)}–${int(w.max)} texts: p50 / p99 (max); CPU time p50 / p99; ${q.mean_hits.toFixed(1)} hits`,
        result: `${ms(sum.p50)} / ${ms(sum.p99)} (${ms(sum.max)}); ${ms(cpu.p50)} / ${ms(cpu.p99)}`,
        goal: `p99 ≤ ${GOAL_P99_MS} ms`,
        ok: sum.p99 <= GOAL_P99_MS,
      });
    }
    const withCpu = out.enqueue.with.map((r) => r.cpu_us);
    const withoutCpu = out.enqueue.without.map((r) => r.cpu_us);
    const ratios = withCpu.map((v, i) => v / withoutCpu[i]);
    const wallRatio = mean(out.enqueue.with.map((r) => r.wall_us)) / mean(out.enqueue.without.map((r) => r.wall_us));
    rows.push({
      measure: `domain enqueue of a word-like text, CPU per enqueue with the index hook / without (${rounds} alternating rounds of ${int(enqueues)}, ${batch} at a time)`,
      result: `${mean(withCpu).toFixed(0)} µs / ${mean(withoutCpu).toFixed(0)} µs = ${ratio(mean(ratios), halfSpread(ratios))}`,
    });
    rows.push({ measure: 'the same, wall time per enqueue with / without (the group commit\'s fsync included)', result: ratio(wallRatio) });
    const textBytes = out.text_chars;
    rows.push({
      measure: `index of ${int(texts)} texts (${mib(textBytes)} of text): FTS tables / memory_docs; the backfill that built it`,
      result: `${mib(out.index_bytes.fts)} (${(out.index_bytes.fts / textBytes).toFixed(2)}x the text) / ${mib(out.index_bytes.docs)}; ${int(texts / out.index_seconds)} texts/s`,
    });
    data.enqueue = { with: out.enqueue.with, without: out.enqueue.without, cpu_ratio: mean(ratios), cpu_ratio_half_spread: halfSpread(ratios), wall_ratio: wallRatio };
    const lat = data.latency_ms;
    opts.log(`  ${int(texts)} texts written in ${out.write_seconds.toFixed(1)} s, indexed in ${out.index_seconds.toFixed(1)} s; p99 rare ${ms(lat.rare.p99)}, mid ${ms(lat.mid.p99)}, common ${ms(lat.common.p99)}, common+rare ${ms(lat.common_and_rare.p99)}; enqueue CPU ${ratio(mean(ratios))}`);
    return {
      params: `${int(texts)} word-like texts (30,000-word Zipf vocabulary, 5–95 words each) in one agent's log, indexed by svc's own services (built output) in a child process; ${queries} memory_search calls per word class (after 20 warm-up), limit 20; enqueue rounds of ${int(enqueues)}, ${batch} at a time`,
      rows,
      data,
      failures,
    };
  } finally {
    removeHome(home);
  }
}
