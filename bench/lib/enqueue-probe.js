/**
 * The enqueue scenario's in-process probe: where a durable enqueue's CPU goes without HTTP.
 * svc's own services (built output) on the home given as argv[2], run loop off, retention off:
 *
 * - `domain`: `ingress.publicEnqueue` (provenance, ids, the message and its `message_enqueued`
 *   event in one group-committed transaction, the WAL fsynced off the loop before it resolves),
 *   `batch` callers at a time as 50 HTTP connections give the group commit;
 * - `sql`: the same two INSERTs alone, in savepoints inside transactions of `batch` writes,
 *   committed with synchronous=FULL: the floor the SQLite schema sets.
 *
 * CPU time of the whole process (all threads: the fsync runs in libuv's pool) per operation.
 * Prints one JSON line {domain_us, sql_us}.
 */
import { loadConfig } from '../../dist/config/load.js';
import { systemClock } from '../../dist/core/clock.js';
import { createServices, startServices, stopServices } from '../../dist/services.js';
import { createLogger } from '../../dist/telemetry/logger.js';
import { BODY, EVENT_INSERT, EVENT_PAYLOAD, MESSAGE_INSERT } from './svc-rows.js';

const [home, countArg, batchArg] = process.argv.slice(2);
const N = Number(countArg);
const BATCH = Number(batchArg);

const s = createServices(loadConfig({ home }, {}), systemClock, createLogger('silent'));
s.runLoop.scheduler.disable();
startServices(s);

const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

async function domain(n) {
  const t0 = cpuUs();
  const pending = [];
  for (let i = 0; i < n; i++) {
    pending.push(s.ingress.publicEnqueue('main', { text: 'hello' }));
    if (pending.length === BATCH) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  return (cpuUs() - t0) / n;
}

function sql(n) {
  const db = s.store.db;
  const message = db.prepare(MESSAGE_INSERT);
  const event = db.prepare(EVENT_INSERT);
  const t0 = cpuUs();
  let seq = 0;
  for (let b = 0; b < n / BATCH; b++) {
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < BATCH; i++) {
      const ts = new Date().toISOString();
      db.exec('SAVEPOINT probe');
      message.run(`msg_probe_${b}_${i}`, 'main', BODY, ts, ts);
      event.run('probe', ++seq, `evt_probe_${b}_${i}`, ts, EVENT_PAYLOAD);
      db.exec('RELEASE probe');
    }
    db.exec('COMMIT');
  }
  return (cpuUs() - t0) / n;
}

await domain(Math.min(N, 5000)); // warm-up: JIT, statement cache, file growth
const result = { domain_us: await domain(N), sql_us: sql(N) };
await stopServices(s);
process.stdout.write(`${JSON.stringify(result)}\n`);
