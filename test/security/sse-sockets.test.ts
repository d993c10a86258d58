/**
 * SSE streams hold real sockets (issue: "SSE clients disconnected as lagging are dropped from the
 * hub but their sockets stay open, so sse_max_clients bounds nothing"). Against a real daemon:
 * clients that open an event stream and never read are disconnected as lagging once the events
 * produced pass `events.sse_max_buffer_bytes`, and the daemon really closes their sockets (its
 * descriptor count returns to the baseline); `events.sse_max_clients` counts open sockets: the
 * (N+1)-th stream is refused with `overloaded` while N are open, and accepted once they close.
 */
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, request, stopAgent, waitFor, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

const MAX_CLIENTS = 3;
const CONFIG = `[events]\nsse_max_buffer_bytes = 4096\nsse_max_clients = ${MAX_CLIENTS}\n`;

const fdCount = (d: RunningDaemon) => fs.readdirSync(`/proc/${d.proc.pid}/fd`).length;
const sseClients = async (d: RunningDaemon) => (await request(d, 'GET', '/api/control/runtime/status')).json.sse_clients as number;

interface StalledStream {
  socket: net.Socket;
  status: number;
  /** Resolves when the client sees the server end or drop the connection. */
  ended: Promise<void>;
}

/**
 * Open `GET /api/agents/main/events/stream` on a raw socket, read up to the end of the response
 * head, then stop reading: the daemon's writes back up into the kernel and then into its own queue.
 */
function stalledStream(d: RunningDaemon): Promise<StalledStream> {
  const [host, port] = d.listen.split(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: host!, port: Number(port) });
    const ended = new Promise<void>((done) => {
      socket.once('end', done);
      socket.once('close', done);
    });
    socket.on('error', () => {}); // a reset is an ending too
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), ended });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET /api/agents/main/events/stream HTTP/1.1\r\nHost: ${d.listen}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

describe('SSE sockets', () => {
  it('destroys lagging clients\' sockets, and sse_max_clients counts open sockets', async () => {
    const d = await pool.start({ configToml: CONFIG });
    await stopAgent(d, 'main'); // enqueued messages stay queued; each one is a message_enqueued event
    expect(await sseClients(d)).toBe(0);
    const baseline = fdCount(d);

    const streams: StalledStream[] = [];
    for (let i = 0; i < MAX_CLIENTS; i++) streams.push(await stalledStream(d));
    expect(streams.map((s) => s.status)).toEqual(Array(MAX_CLIENTS).fill(200));
    expect(await sseClients(d)).toBe(MAX_CLIENTS);

    // N sockets open: the next stream is refused before any SSE byte.
    const refused = await request(d, 'GET', '/api/agents/main/events/stream');
    expect([429, 503]).toContain(refused.status);
    expect(refused.json).toMatchObject({ ok: false, code: 'overloaded' });

    // Produce events until the daemon gives up on all three (60 KB per message_enqueued event:
    // the kernel buffers of a loopback connection hold a few MB before the daemon's queue grows).
    const text = 'x'.repeat(60_000);
    for (let i = 0; i < 600 && (await sseClients(d)) > 0; i++) {
      const r = await request(d, 'POST', '/api/enqueue', { body: { text } });
      expect(r.status).toBe(202);
    }
    expect(await sseClients(d)).toBe(0);
    // The daemon really closed the sockets: its descriptors are back to where they were.
    await waitFor(() => fdCount(d) <= baseline + 1, 5000);

    // The clients see the end once they read what was already on its way.
    for (const s of streams) s.socket.resume();
    await Promise.all(streams.map((s) => s.ended));

    // With the sockets gone, a new stream is accepted again.
    const again = await stalledStream(d);
    expect(again.status).toBe(200);
    again.socket.destroy();
    await waitFor(async () => (await sseClients(d)) === 0, 5000);
  });

});
