/** A minimal HTTP client for setup calls and latency loops (no client library in the measurement). */
import http from 'node:http';
import { nowNs } from './stats.js';

/**
 * One request; resolves with { status, body, text } once the whole response is in.
 * `body` is parsed JSON when the response is JSON.
 */
export function request(base, method, path, { json, agent, headers } = {}) {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: payload === undefined ? headers : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let body;
          if ((res.headers['content-type'] ?? '').includes('json')) {
            try {
              body = JSON.parse(text);
            } catch {
              /* leave undefined */
            }
          }
          resolve({ status: res.statusCode, body, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** GET on `agent`'s connection; resolves with { ms (send to last byte), status, text }. */
export function timedGet(base, agent, path) {
  return new Promise((resolve, reject) => {
    const start = nowNs();
    http
      .get(`${base}${path}`, { agent }, (res) => {
        const chunks = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => resolve({ ms: (nowNs() - start) / 1e6, status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

export async function expectJson(base, method, path, expectedStatus, opts) {
  const res = await request(base, method, path, opts);
  if (res.status !== expectedStatus) throw new Error(`${method} ${path}: expected ${expectedStatus}, got ${res.status}: ${res.text.slice(0, 300)}`);
  return res.body;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** svc's OpenMetrics counters and gauges as { name: value } (names without the _total suffix). */
export async function metrics(base) {
  const res = await request(base, 'GET', '/api/control/runtime/metrics');
  if (res.status !== 200) throw new Error(`GET metrics: ${res.status}`);
  const out = {};
  for (const line of res.text.split('\n')) {
    const m = /^(svc_[a-z_]+?)(?:_total)? ([0-9.e+-]+)$/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/**
 * Stop an agent's run loop (control stop), so the load under test is only what the scenario sends:
 * its messages stay queued and its log holds only their events.
 */
export async function stopAgent(base, agentId = 'main') {
  const stopped = await expectJson(base, 'POST', `/api/control/agents/${agentId}/control`, 200, { json: { action: 'stop' } });
  if (stopped.status !== 'stopped') throw new Error(`stopping ${agentId} left it ${stopped.status}`);
}

/**
 * Open `path` (an events SSE stream) and call `onFrame(type, data, atNs)` for every frame, with
 * the time its chunk arrived; resolves once the response has started, with a `close` function.
 */
export function eventFrames(base, path, onFrame) {
  const req = http.get(`${base}${path}`);
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk) => {
        const at = nowNs();
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data) onFrame(type, JSON.parse(data), at);
        }
      });
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}
