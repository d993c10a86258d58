/**
 * The digest scenario's measured process: svc's own services (built output) on the home given as
 * argv[2], with a ManualClock, so each digest period is one clock step and the digest is built by
 * exactly the code the daemon's schedule runs (`Digests.runDue`, synchronous: all of it is
 * event-loop time, the commit included). Targets are runtime targets into the default agent's
 * queue (the run loop is off), so delivery needs no network and finishes between samples.
 *
 * Prints one JSON line: samples (ms) for the digest of `big` and of `small` unacknowledged
 * entries, and for the baseline, a catch-up of the same `big` backlog as coalesced notifications
 * (what a resume queues for a non-digest target); for the big digest also the CPU time the
 * process used meanwhile, which other processes on a busy machine cannot inflate.
 */
import { loadConfig } from '../../dist/config/load.js';
import { ManualClock } from '../../dist/core/clock.js';
import { createServices, startServices, stopServices } from '../../dist/services.js';
import { createLogger } from '../../dist/telemetry/logger.js';

const [home, bigArg, smallArg, samplesArg, baselineArg, warmupArg] = process.argv.slice(2);
const BIG = Number(bigArg);
const SMALL = Number(smallArg);
const SAMPLES = Number(samplesArg);
const BASELINE_SAMPLES = Number(baselineArg);
const WARMUP = Number(warmupArg);
const PERIOD = 60_000;
const BATCH = 1000;

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
s.runLoop.scheduler.disable();
startServices(s);
const { inbox, store } = s;

const digestPolicy = { mode: 'digest', every: PERIOD, timezone: 'UTC', maxEntries: 50 };

/** An agent with `n` unacknowledged entries: events from two sources (3:1) and 1 % direct items. */
async function agentWith(name, n) {
  const { agentId } = inbox.agents.create({ name });
  const { host } = inbox.hosts.create({ hostType: 'local_event', hostKey: `bench-${name}` });
  const sources = [];
  for (const key of ['ci', 'reviews']) {
    const { source } = await inbox.sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: key });
    inbox.subscriptions.create({ agentId, sourceId: source.sourceId });
    sources.push(source.sourceId);
  }
  const directs = Math.floor(n / 100);
  for (let from = 0; from < n - directs; from += BATCH) {
    const count = Math.min(BATCH, n - directs - from);
    const events = Array.from({ length: count }, (_, i) => ({ type: 'bench.event', subject: `item-${(from + i) % 97}`, data: { n: from + i, text: 'x'.repeat(64) } }));
    await inbox.streams.append(sources[(from / BATCH) % 4 === 3 ? 1 : 0], events);
  }
  store.tx(() => {
    for (let i = 0; i < directs; i++) inbox.entries.create(agentId, { kind: 'direct', message: `direct ${i}` });
  });
  const unacked = inbox.entries.summary(agentId).unackedCount;
  if (unacked !== n) throw new Error(`${name}: ${unacked} unacknowledged entries, expected ${n}`);
  return agentId;
}

const targetOf = (agentId, aggregation) => inbox.targets.create(agentId, { kind: 'runtime', runtimeAgentId: s.agents.defaultAgentId, aggregation }).targetId;

const rewind = store.db.prepare('UPDATE inbox_targets SET queued_through = NULL WHERE target_id = ?');
const forget = store.db.prepare('DELETE FROM inbox_notifications WHERE target_id = ?');

/** Between samples: delivery of what was queued finishes, and the target starts from its first entry again. */
async function reset(targetId) {
  await inbox.notifier.runDue();
  await inbox.notifier.idle();
  store.tx(() => {
    rewind.run(targetId);
    forget.run(targetId);
  });
}

const cpuMs = [];

/** One digest period: the clock reaches the next boundary and the schedule's callback runs it. */
function timedDigest(targetId, expected) {
  clock.advance(PERIOD);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const queued = inbox.digests.runDue();
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  cpuMs.push((cpu.user + cpu.system) / 1000);
  const [row] = inbox.notifier.notificationsOf(targetId);
  if (queued !== 1 || row?.entryCount !== expected) throw new Error(`digest: queued ${queued}, entryCount ${row?.entryCount}, expected ${expected}`);
  return elapsed;
}

function timedCatchUp(targetId, expected) {
  const t0 = performance.now();
  const rows = store.tx(() => inbox.notifier.queueAllUnnotified(targetId, 'catch_up'));
  const elapsed = performance.now() - t0;
  const covered = rows.reduce((n, r) => n + r.entryCount, 0);
  if (covered !== expected) throw new Error(`catch-up covered ${covered} entries, expected ${expected}`);
  return elapsed;
}

async function sample(n, targetId, fn, count) {
  const out = [];
  for (let i = 0; i < WARMUP + count; i++) {
    await reset(targetId);
    const ms = fn(targetId, n);
    if (i >= WARMUP) out.push(ms);
  }
  return out;
}

const t0 = performance.now();
const bigAgent = await agentWith('big', BIG);
const smallAgent = await agentWith('small', SMALL);
const seedSeconds = (performance.now() - t0) / 1000;

// One target at a time: every due digest target would fire in the same runDue.
async function measure(agentId, policy, n, fn, count) {
  const targetId = targetOf(agentId, policy);
  const samples = await sample(n, targetId, fn, count);
  await reset(targetId);
  inbox.targets.delete(agentId, targetId);
  return samples;
}

const digestBig = await measure(bigAgent, digestPolicy, BIG, timedDigest, SAMPLES);
const result = {
  seed_seconds: seedSeconds,
  digest_big_ms: digestBig,
  digest_big_cpu_ms: cpuMs.slice(-SAMPLES),
  digest_small_ms: await measure(smallAgent, digestPolicy, SMALL, timedDigest, SAMPLES),
  // The baseline target keeps the default (coalesce) policy and sees the same backlog.
  catch_up_big_ms: await measure(bigAgent, null, BIG, timedCatchUp, BASELINE_SAMPLES),
};
await stopServices(s);
process.stdout.write(`${JSON.stringify(result)}\n`);
