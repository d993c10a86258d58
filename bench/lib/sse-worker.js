/**
 * A worker process holding a share of the SSE clients (forked by sse-clients.js, IPC with the
 * advanced serialisation so typed arrays cross cheaply). Clients are raw `http.get` streams that
 * split frames on the blank line and read only the `id:` line and the message_id in `data:`,
 * so parsing stays far cheaper than the daemon's work and the clients do not become the bottleneck.
 *
 * Per client it checks the stream contract: event_seq goes up by exactly one per frame, from
 * `first` to base + n, nothing lost, nothing repeated or out of order; frames after `base` are
 * the measured ones (those before are warm-up). Arrival times are taken
 * on the monotonic clock, which all processes on the machine share, so the parent can subtract
 * its send times.
 *
 * Commands: connect {url, count} -> connected; expect {first, base, n} -> expecting (and complete
 * when every client has reached base + n); report {sendNs: Map} -> report; close -> exits.
 */
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const CONNECT_CONCURRENCY = 100;
const nowNs = () => Number(process.hrtime.bigint());

const clients = [];
let expectation = null;
let completeClients = 0;
const idBySeq = new Map();
let idMismatches = 0;
let cpuAtExpect = null;
let wallAtExpect = 0;
let loopDelay = null;
/** Set once the parent asks to close: from then on a closing socket is expected. */
let closing = false;

class Client {
  constructor() {
    this.buf = '';
    this.req = null;
    this.frames = 0;
    this.next = 0;
    this.gaps = 0;
    this.backwards = 0;
    this.outside = 0;
    this.closedEarly = false;
    this.arrivals = null;
  }

  connect(url) {
    return new Promise((resolve) => {
      this.req = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          resolve(`status ${res.statusCode}`);
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk) => this.onData(chunk, nowNs()));
        res.on('close', () => {
          if (!closing) this.closedEarly = true;
        });
        resolve(null);
      });
      this.req.on('error', (err) => {
        if (!closing) this.closedEarly = true;
        resolve(err.message);
      });
    });
  }

  expect(first, base, n) {
    this.next = first;
    this.arrivals = new Float64Array(n).fill(NaN);
  }

  onData(chunk, t) {
    this.buf += chunk;
    let end = this.buf.indexOf('\n\n');
    while (end !== -1) {
      this.onFrame(this.buf.slice(0, end), t);
      this.buf = this.buf.slice(end + 2);
      end = this.buf.indexOf('\n\n');
    }
  }

  onFrame(frame, t) {
    if (!frame.startsWith('id: ')) return; // heartbeat comment or anything without an id
    const seq = Number(frame.slice(4, frame.indexOf('\n')));
    if (!expectation) {
      this.outside++;
      return;
    }
    const { base, n } = expectation;
    if (seq === this.next) this.next++;
    else if (seq > this.next) {
      this.gaps += seq - this.next;
      this.next = seq + 1;
    } else {
      this.backwards++;
      return;
    }
    if (seq > base + n) {
      this.outside++;
      return;
    }
    this.frames++;
    if (seq > base) {
      // A measured frame (the ones up to base are warm-up: checked for order, not timed).
      this.arrivals[seq - base - 1] = t;
      const at = frame.indexOf('"message_id":"');
      const id = at === -1 ? '' : frame.slice(at + 14, frame.indexOf('"', at + 14));
      const known = idBySeq.get(seq);
      if (known === undefined) idBySeq.set(seq, id);
      else if (known !== id) idMismatches++;
    }
    if (seq === base + n && ++completeClients === clients.length) process.send({ type: 'complete' });
  }
}

async function connectAll(url, count) {
  const errors = [];
  for (let i = 0; i < count; i += CONNECT_CONCURRENCY) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + CONNECT_CONCURRENCY); j++) {
      const c = new Client();
      clients.push(c);
      batch.push(c.connect(url));
    }
    for (const err of await Promise.all(batch)) if (err) errors.push(err);
  }
  return errors;
}

function report(sendNs) {
  const { first: firstSeq, base, n } = expectation;
  const total = base + n - firstSeq + 1;
  const latencies = new Float64Array(clients.length * n);
  const first = new Float64Array(n).fill(Infinity);
  const last = new Float64Array(n).fill(-Infinity);
  const ids = [];
  for (let k = 0; k < n; k++) ids.push(idBySeq.get(base + 1 + k) ?? null);
  clients.forEach((c, ci) => {
    for (let k = 0; k < n; k++) {
      const t = c.arrivals[k];
      const sent = sendNs.get(ids[k]);
      latencies[ci * n + k] = sent === undefined || Number.isNaN(t) ? NaN : (t - sent) / 1e6;
      if (t < first[k]) first[k] = t;
      if (t > last[k]) last[k] = t;
    }
  });
  const cpu = process.cpuUsage(cpuAtExpect);
  loopDelay.disable();
  const sum = (f) => clients.reduce((a, c) => a + f(c), 0);
  return {
    type: 'report',
    clients: clients.length,
    complete: clients.filter((c) => c.frames === total && c.gaps === 0 && c.backwards === 0).length,
    frames: sum((c) => c.frames),
    gaps: sum((c) => c.gaps),
    backwards: sum((c) => c.backwards),
    outside: sum((c) => c.outside),
    closedEarly: sum((c) => (c.closedEarly ? 1 : 0)),
    idMismatches,
    ids,
    latencies,
    first,
    last,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    wallSeconds: (nowNs() - wallAtExpect) / 1e9,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
  };
}

process.on('message', async (msg) => {
  switch (msg.cmd) {
    case 'connect': {
      const errors = await connectAll(msg.url, msg.count);
      process.send({ type: 'connected', count: clients.length - errors.length, errors: errors.slice(0, 5) });
      break;
    }
    case 'expect':
      expectation = { first: msg.first, base: msg.base, n: msg.n };
      for (const c of clients) c.expect(msg.first, msg.base, msg.n);
      cpuAtExpect = process.cpuUsage();
      wallAtExpect = nowNs();
      loopDelay = monitorEventLoopDelay({ resolution: 5 });
      loopDelay.enable();
      process.send({ type: 'expecting' });
      break;
    case 'report':
      process.send(report(msg.sendNs));
      break;
    case 'close':
      closing = true;
      for (const c of clients) c.req?.destroy();
      process.send({ type: 'closed' });
      setImmediate(() => process.exit(0));
      break;
  }
});

process.send({ type: 'ready' });
