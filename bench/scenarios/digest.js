/**
 * Inbox digest: the event-loop time one digest takes to build and store over a large backlog.
 *
 * A child process (lib/digest-probe.js) runs svc's own services (built output) on a fresh home
 * with a ManualClock and fills two inbox agents through the real append path: 100,000 and 1,000
 * unacknowledged entries (events from two sources, 1 % direct items). Each sample moves the clock
 * to the next period boundary and times `Digests.runDue()`, the schedule's own callback; it is
 * synchronous, so its wall time is all event-loop time, including the commit's fsync. Between
 * samples the target's cursor is rewound, so every digest covers the whole backlog.
 *
 * Baselines of the same run: the same digest over 1,000 entries (how the cost grows with the
 * backlog), and today's other way to tell a target about a backlog: the catch-up of the same
 * 100,000 entries as coalesced notifications (rows of at most 10,000 entries, each read in full).
 * The goal: p99 of the 100,000-entry digest ≤ 50 ms.
 */
import { removeHome, runProbe, tempHome } from '../lib/processes.js';
import { int, ms, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 50;

export async function run(opts) {
  const { big, small, samples, baselineSamples, warmup } = opts.digest;
  const home = tempHome();
  try {
    const out = await runProbe('digest-probe.js', [home, big, small, samples, baselineSamples, warmup].map(String));
    const d = summary(out.digest_big_ms);
    const cpu = summary(out.digest_big_cpu_ms);
    const s = summary(out.digest_small_ms);
    const c = summary(out.catch_up_big_ms);
    opts.log(`  seeded ${int(big + small)} entries in ${out.seed_seconds.toFixed(1)} s; digest ${int(big)}: p50 ${ms(d.p50)} p99 ${ms(d.p99)}; ${int(small)}: p50 ${ms(s.p50)}; catch-up ${int(big)}: p50 ${ms(c.p50)}`);
    return {
      params: `two inbox agents with ${int(big)} and ${int(small)} unacknowledged entries (events from two sources, 1 % direct items) appended through svc's own services in a child process; ${samples} digests each (after ${warmup} warm-up), ${baselineSamples} catch-ups; event-loop time of Digests.runDue() per digest, commit (synchronous=FULL) included`,
      rows: [
        {
          measure: `digest of ${int(big)} unacknowledged entries (counts per source, first 50 listed): p50 / p99 (max)`,
          result: `${ms(d.p50)} / ${ms(d.p99)} (${ms(d.max)})`,
          goal: `p99 ≤ ${GOAL_P99_MS} ms`,
          ok: d.p99 <= GOAL_P99_MS,
        },
        { measure: `the same digests, CPU time of the process: p50 / p99`, result: `${ms(cpu.p50)} / ${ms(cpu.p99)}` },
        { measure: `baseline: digest of ${int(small)} entries, p50 / p99 (${int(big)} / ${int(small)} p50)`, result: `${ms(s.p50)} / ${ms(s.p99)} (${ratio(d.p50 / s.p50)})` },
        {
          measure: `baseline: catch-up of the same ${int(big)} as coalesced notifications, p50 (digest / catch-up p50)`,
          result: `${ms(c.p50, 0)} (${ratio(d.p50 / c.p50)})`,
        },
      ],
      data: { big, small, samples, baseline_samples: baselineSamples, warmup, seed_seconds: out.seed_seconds, digest_big_ms: d, digest_big_cpu_ms: cpu, digest_small_ms: s, catch_up_big_ms: c },
      failures: [],
    };
  } finally {
    removeHome(home);
  }
}
