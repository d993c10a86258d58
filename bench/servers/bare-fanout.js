/**
 * The SSE fan-out baseline: bare Fastify that does what svc's enqueue -> event -> SSE path does
 * minus the product (no SQLite, no fsync, no validation): POST /api/agents/:id/enqueue queues the
 * message, the next setImmediate tick numbers the queued events, writes each frame (same shape and
 * size as svc's message_enqueued envelope) to every subscriber, then answers 202 — the same
 * group-per-tick pattern as svc's store. What is left between this and svc is svc's own cost;
 * what this costs is the machine's (loopback sockets, scheduler) floor.
 */
import Fastify from 'fastify';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();
const app = Fastify();
const subscribers = new Set();
let seq = 0;
let queued = [];

app.get('/api/agents/:id/events', async () => ({ events: [], cursor_seq: seq }));

app.get('/api/agents/:id/events/stream', (request, reply) => {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  raw.flushHeaders();
  subscribers.add(raw);
  raw.on('close', () => subscribers.delete(raw));
});

app.post('/api/agents/:id/enqueue', (request, reply) => {
  if (typeof request.body?.text !== 'string') return reply.code(400).send({ ok: false });
  return new Promise((resolve) => {
    if (queued.length === 0) setImmediate(flush);
    queued.push({ agentId: request.params.id, text: request.body.text, resolve: (id) => resolve(reply.code(202).send({ ok: true, agent_id: request.params.id, message_id: id })) });
  });
});

function flush() {
  const batch = queued;
  queued = [];
  const answers = [];
  for (const m of batch) {
    const messageId = `msg_${ulid()}`;
    const provenance = { origin: { kind: 'webhook', source: 'http' }, trust: 'trusted_integration', authority_class: 'integration_signal', priority: 'normal', kind: 'webhook_event', delivery_surface: 'public_enqueue', message_id: messageId };
    const event = {
      id: `evt_${ulid()}`,
      event_seq: ++seq,
      ts: new Date().toISOString(),
      agent_id: m.agentId,
      type: 'message_enqueued',
      provenance,
      payload: { message_id: messageId, kind: 'webhook_event', priority: 'normal', correlation_id: null, causation_id: null, body: { type: 'text', text: m.text }, metadata: {}, provenance },
    };
    const frame = `id: ${event.event_seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const sub of subscribers) sub.write(frame);
    answers.push(() => m.resolve(messageId));
  }
  for (const answer of answers) answer();
}

await app.listen({ host: '127.0.0.1', port: 0 });
const { address, port } = app.server.address();
process.stdout.write(`${JSON.stringify({ msg: 'listening', listen: `${address}:${port}` })}\n`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    for (const sub of subscribers) sub.destroy();
    app.close().then(() => process.exit(0));
  });
}
