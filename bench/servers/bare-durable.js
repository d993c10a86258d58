/**
 * Durable enqueue baselines: the least a durable enqueue can cost on this machine, and what a
 * writer thread changes. Bare Fastify (as bare-fastify.js) whose route writes to SQLite
 * (better-sqlite3, WAL, synchronous=FULL) and answers 202 only after the write's transaction
 * committed. Writes arriving in one tick share a transaction (group commit, as svc does), so the
 * fsync is shared too.
 *
 *   node bare-durable.js <db file> [narrow|svc] [loop|worker]
 *
 * - `narrow` (default): one row of four columns, no index beyond the key.
 * - `svc`: the two rows svc writes per enqueue, into svc's own schema (the database is created by
 *   svc's migrations, from the built output): the `messages` row (twenty columns, three b-trees)
 *   and its `message_enqueued` event (lib/svc-rows.js, as lib/enqueue-probe.js writes them).
 * - `loop` (default): the transaction and its fsync run on the event loop.
 * - `worker`: a writer thread (`worker_threads`) with its own connection runs them; the event loop
 *   posts each tick's batch of row values and answers the batch's requests when the worker reports
 *   the commit. This is the design of a writer thread without svc's domain code around it.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { monotonicFactory } from 'ulidx';
import { EVENT_INSERT, EVENT_PAYLOAD, MESSAGE_INSERT } from '../lib/svc-rows.js';

const NARROW_TABLE =
  'CREATE TABLE IF NOT EXISTS messages (message_id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID';

/** A connection and a function committing one batch of row values in one transaction. */
function writer(file, rows) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  if (rows === 'narrow') {
    db.exec(NARROW_TABLE);
    const insert = db.prepare('INSERT INTO messages (message_id, agent_id, body, created_at) VALUES (?, ?, ?, ?)');
    return db.transaction((batch) => {
      for (const w of batch) insert.run(w.id, w.agentId, w.body, w.at);
    });
  }
  const message = db.prepare(MESSAGE_INSERT);
  const event = db.prepare(EVENT_INSERT);
  const head = db.prepare('SELECT coalesce(max(event_seq), 0) FROM events WHERE agent_id = ?').pluck();
  const heads = new Map();
  return db.transaction((batch) => {
    for (const w of batch) {
      const seq = (heads.get(w.agentId) ?? head.get(w.agentId)) + 1;
      heads.set(w.agentId, seq);
      message.run(w.id, w.agentId, w.body, w.at, w.at);
      event.run(w.agentId, seq, `evt_${w.id}`, w.at, EVENT_PAYLOAD);
    }
  });
}

if (!isMainThread) {
  // The writer thread: commit each batch it is sent, report its number (or the error).
  const commit = writer(workerData.file, workerData.rows);
  parentPort.on('message', ({ n, batch }) => {
    try {
      commit(batch);
      parentPort.postMessage({ n });
    } catch (err) {
      parentPort.postMessage({ n, error: String(err) });
    }
  });
} else {
  const [file, rows = 'narrow', mode = 'loop'] = process.argv.slice(2);
  if (rows === 'svc') {
    // svc's schema, from svc's own migrations.
    const { Store } = await import('../../dist/store/store.js');
    Store.open(file, { checkpointer: false }).close();
  }

  /** Send one batch to be committed; calls back with an error or null. */
  let send;
  let stop = async () => {};
  if (mode === 'worker') {
    const worker = new Worker(new URL(import.meta.url), { workerData: { file, rows } });
    const waiting = new Map();
    let next = 0;
    worker.on('message', ({ n, error }) => {
      const done = waiting.get(n);
      waiting.delete(n);
      done(error ? new Error(error) : null);
    });
    send = (batch, done) => {
      const n = next++;
      waiting.set(n, done);
      worker.postMessage({ n, batch });
    };
    stop = () => worker.terminate();
  } else {
    const commit = writer(file, rows);
    send = (batch, done) => {
      try {
        commit(batch);
        done(null);
      } catch (err) {
        done(err);
      }
    };
  }

  const ulid = monotonicFactory();
  let queue = [];
  let inFlight = false;
  function flush() {
    // One batch at a time: while the writer commits, the next requests gather into the next
    // batch (as svc's group commit gathers while an fsync runs), so batches grow with the load.
    if (inFlight || queue.length === 0) return;
    const batch = queue;
    queue = [];
    inFlight = true;
    // Only the row values cross to a worker; the callbacks stay here.
    send(
      batch.map((w) => w.row),
      (err) => {
        inFlight = false;
        for (const w of batch) err ? w.reject(err) : w.resolve();
        if (queue.length > 0) setImmediate(flush);
      },
    );
  }

  const app = Fastify();
  app.post('/api/agents/:id/enqueue', (request, reply) => {
    if (typeof request.body?.text !== 'string') return reply.code(400).send({ ok: false });
    const id = `msg_${ulid()}`;
    return new Promise((resolve, reject) => {
      if (queue.length === 0 && !inFlight) setImmediate(flush);
      const row = { id, agentId: request.params.id, body: JSON.stringify(request.body), at: new Date().toISOString() };
      queue.push({ row, resolve, reject });
    }).then(() => {
      reply.code(202);
      return { ok: true, agent_id: request.params.id, message_id: id };
    });
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { address, port } = app.server.address();
  process.stdout.write(`${JSON.stringify({ msg: 'listening', listen: `${address}:${port}` })}\n`);

  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () =>
      app
        .close()
        .then(stop)
        .then(() => process.exit(0)),
    );
  }
}
