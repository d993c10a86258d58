/**
 * A second enqueue baseline: the least a durable enqueue can cost on this machine. Bare Fastify
 * (as bare-fastify.js) whose route writes one row to SQLite (better-sqlite3, WAL,
 * synchronous=FULL) and answers 202 only after the row's transaction committed. Writes arriving in
 * one tick share a transaction (group commit, as svc does), so the fsync is shared too; unlike svc
 * it fsyncs on the event loop and stores no event, no provenance, no index beyond the key.
 * argv[2]: the database file.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();
const db = new Database(process.argv[2]);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS messages (message_id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID');
const insert = db.prepare('INSERT INTO messages (message_id, agent_id, body, created_at) VALUES (?, ?, ?, ?)');
const commitBatch = db.transaction((batch) => {
  for (const w of batch) insert.run(w.id, w.agentId, w.body, w.at);
});

let queue = [];
function flush() {
  const batch = queue;
  queue = [];
  try {
    commitBatch(batch);
    for (const w of batch) w.resolve();
  } catch (err) {
    for (const w of batch) w.reject(err);
  }
}

const app = Fastify();
app.post('/api/agents/:id/enqueue', (request, reply) => {
  if (typeof request.body?.text !== 'string') return reply.code(400).send({ ok: false });
  const id = `msg_${ulid()}`;
  return new Promise((resolve, reject) => {
    if (queue.length === 0) setImmediate(flush);
    queue.push({ id, agentId: request.params.id, body: JSON.stringify(request.body), at: new Date().toISOString(), resolve, reject });
  }).then(() => {
    reply.code(202);
    return { ok: true, agent_id: request.params.id, message_id: id };
  });
});

await app.listen({ host: '127.0.0.1', port: 0 });
const { address, port } = app.server.address();
process.stdout.write(`${JSON.stringify({ msg: 'listening', listen: `${address}:${port}` })}\n`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => app.close().then(() => {
    db.close();
    process.exit(0);
  }));
}
