/**
 * Prompt assembly: the time a round takes to put its prompt together, at history sizes two and
 * three orders of magnitude apart.
 *
 * A child process (lib/context-probe.js) runs svc's own services (built output) on a fresh home;
 * three agents get histories of 100, 10,000 and 100,000 entries (user and assistant in turn, text
 * of about 800 characters) through the run loop's own records. Rotating among the agents, each
 * sample assembles one prompt as a turn's round does: the system prompt and tools counted once
 * (`prepare`), then the newest history within the model's budget (`messages`; builtin/echo's
 * default window of 128,000 tokens, so about 600 entries of the larger histories fit). The goal:
 * flat (the 100,000-entry p99 within 1.5x of the 100-entry one, or both small) and p99 ≤ 5 ms.
 * The 100-entry history is the baseline.
 */
import { removeHome, runProbe, tempHome } from '../lib/processes.js';
import { int, ms, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 5;

export async function run(opts) {
  const { sizes, samples, chars, warmup } = opts.context;
  const home = tempHome();
  try {
    const out = await runProbe('context-probe.js', [home, sizes.join(','), samples, chars, warmup].map(String));
    const by = Object.fromEntries(sizes.map((n) => [n, summary(out.samples[n])]));
    const base = by[sizes[0]];
    const big = by[sizes[sizes.length - 1]];
    opts.log(`  seeded ${int(sizes.reduce((a, b) => a + b, 0))} entries in ${out.seed_seconds.toFixed(1)} s; ${sizes.map((n) => `${int(n)}: p50 ${ms(by[n].p50, 3)} p99 ${ms(by[n].p99, 3)}`).join('; ')}`);
    return {
      params: `three agents with ${sizes.map(int).join(' / ')} history entries of ~${chars} characters, written through the run loop's records in a child process; ${samples} assemblies each (after ${warmup} warm-up), rotating among the agents; builtin/echo's budget (window 128,000 tokens)`,
      rows: [
        ...sizes.map((n) => ({
          measure: `assembly with ${int(n)} history entries (${out.prompt_messages[n]} in the prompt): p50 / p99 (max)`,
          result: `${ms(by[n].p50, 3)} / ${ms(by[n].p99, 3)} (${ms(by[n].max, 3)})`,
          goal: n === sizes[sizes.length - 1] ? `p99 ≤ ${GOAL_P99_MS} ms` : '',
          ok: n === sizes[sizes.length - 1] ? by[n].p99 <= GOAL_P99_MS : undefined,
        })),
        { measure: `p99 ${int(sizes[sizes.length - 1])} / ${int(sizes[0])} entries (the smallest is the baseline)`, result: ratio(big.p99 / base.p99), goal: 'flat' },
      ],
      data: { sizes, samples, chars, warmup, seed_seconds: out.seed_seconds, prompt_messages: out.prompt_messages, assembly_ms: by },
      failures: [],
    };
  } finally {
    removeHome(home);
  }
}
