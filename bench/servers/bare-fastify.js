/**
 * The enqueue baseline: bare Fastify (default options, default JSON parser, no logger) with one
 * POST route that parses the JSON body and answers 202 with the same shape svc answers. It is
 * the floor under svc's enqueue: everything svc adds (auth hook, zod validation, provenance, the
 * group-committed SQLite transaction, the event append) shows up as the distance to it.
 */
import Fastify from 'fastify';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();
const app = Fastify();

app.post('/api/agents/:id/enqueue', async (request, reply) => {
  if (typeof request.body?.text !== 'string') return reply.code(400).send({ ok: false });
  reply.code(202);
  return { ok: true, agent_id: request.params.id, message_id: `msg_${ulid()}` };
});

await app.listen({ host: '127.0.0.1', port: 0 });
const { address, port } = app.server.address();
process.stdout.write(`${JSON.stringify({ msg: 'listening', listen: `${address}:${port}` })}\n`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => app.close().then(() => process.exit(0)));
}
