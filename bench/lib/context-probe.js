/**
 * The context scenario's measured process: svc's own services (built output) on the home given as
 * argv[2]. Three agents get histories of `sizes` entries (user and assistant in turn, text of
 * `entryChars` characters), written through the run loop's own records in batches as turns would
 * write them; then, rotating among the agents, one prompt is assembled per sample exactly as a
 * turn's round does (`prepare` once per turn, then `messages`: the newest history within the
 * model's budget). Prints one JSON line: the samples (ms) per size.
 */
import { loadConfig } from '../../dist/config/load.js';
import { ManualClock } from '../../dist/core/clock.js';
import { createServices, startServices, stopServices } from '../../dist/services.js';
import { createLogger } from '../../dist/telemetry/logger.js';

const [home, sizesArg, samplesArg, charsArg, warmupArg] = process.argv.slice(2);
const SIZES = sizesArg.split(',').map(Number);
const SAMPLES = Number(samplesArg);
const CHARS = Number(charsArg);
const WARMUP = Number(warmupArg);
const BATCH = 1000;
const MODEL = 'builtin/echo';

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
s.runLoop.scheduler.disable();
startServices(s);
const { store } = s;
const { records } = s.runLoop;
const context = s.runLoop.scheduler.prompts;

const words = ['deploy', 'parser', 'vault', 'review', 'budget', 'window', 'token', 'agent', 'branch', 'commit', 'issue', 'result', 'plan', 'step', 'file', 'patch'];
const textOf = (i) => {
  let t = `entry ${i}:`;
  for (let k = 0; t.length < CHARS; k++) t += ` ${words[(i * 7 + k * 13) % words.length]}`;
  return t;
};

const seedStarted = performance.now();
const agents = SIZES.map((n) => {
  const agentId = `hist-${n}`;
  store.tx(() => s.agents.create(agentId, {}));
  for (let from = 0; from < n; from += BATCH) {
    store.tx(() => {
      const entries = [];
      for (let i = from; i < Math.min(n, from + BATCH); i++) {
        const e = { role: i % 2 === 0 ? 'user' : 'assistant', content: textOf(i), turn_id: `turn_${Math.floor(i / 2)}`, message_id: null, created_at: '2030-01-01T00:00:00.000Z' };
        e.tokens = Math.ceil(e.content.length / 4);
        e.seq = records.appendHistory(agentId, e.role, e.content, e.turn_id, null, e.created_at, e.tokens);
        entries.push(e);
      }
      s.runLoop.context.added(agentId, entries);
    });
  }
  return { n, agentId };
});
const seedSeconds = (performance.now() - seedStarted) / 1000;

const out = Object.fromEntries(SIZES.map((n) => [n, []]));
const lengths = Object.fromEntries(SIZES.map((n) => [n, 0]));
const turnMessages = [{ role: 'user', content: 'what next?' }];
for (let i = 0; i < WARMUP + SAMPLES; i++) {
  for (const { n, agentId } of agents) {
    const t0 = performance.now();
    const tp = context.prepare({ agentId, displayName: agentId, supervisor: null, modelRef: MODEL }, []);
    const prompt = context.messages({ agentId }, tp, turnMessages);
    const elapsed = performance.now() - t0;
    if (i >= WARMUP) out[n].push(elapsed);
    lengths[n] = prompt.messages.length;
  }
}
await stopServices(s);
console.log(JSON.stringify({ seed_seconds: seedSeconds, samples: out, prompt_messages: lengths }));
