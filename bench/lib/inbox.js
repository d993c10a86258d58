/** The inbox service's Unix-socket API as the inbox scenarios use it: JSON calls and watch streams. */
import http from 'node:http';
import { nowNs } from './stats.js';

/** One JSON request over the socket; resolves with { body, ms } (send to last byte), rejects on a non-2xx. */
export function timedCall(socketPath, agent, method, p, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    const start = nowNs();
    const req = http.request({ socketPath, agent, method, path: p, headers }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => {
        const elapsed = (nowNs() - start) / 1e6;
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 300) return reject(new Error(`${method} ${p}: ${res.statusCode} ${text.slice(0, 300)}`));
        resolve({ body: text === '' ? undefined : JSON.parse(text), ms: elapsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The same call, resolving with the parsed body only. */
export function socketJson(socketPath, agent, method, p, body) {
  return timedCall(socketPath, agent, method, p, body).then((r) => r.body);
}

/**
 * One GET /agents/:id/inbox/watch stream; `next(n)` resolves with the arrival time (ns, monotonic)
 * of the frame carrying the entry of the event whose data.n is n. `count` and `duplicates` count
 * the entries received (by entryId).
 */
export function openWatcher(socketPath, agentId) {
  return new Promise((resolve, reject) => {
    const waiting = new Map();
    const arrived = new Map();
    const seen = new Set();
    const w = {
      count: 0,
      duplicates: 0,
      next(n) {
        if (arrived.has(n)) return Promise.resolve(arrived.get(n));
        return new Promise((r) => waiting.set(n, [...(waiting.get(n) ?? []), r]));
      },
      close: () => req.destroy(),
    };
    const req = http.get({ socketPath, path: `/agents/${agentId}/inbox/watch`, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch ${agentId}: ${res.statusCode}`));
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk) => {
        const t = nowNs();
        buf += chunk;
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          for (const entry of JSON.parse(data.slice(6)).entries ?? []) {
            if (seen.has(entry.entryId)) w.duplicates++;
            seen.add(entry.entryId);
            w.count++;
            const n = entry.event.data.n;
            arrived.set(n, t);
            for (const r of waiting.get(n) ?? []) r(t);
            waiting.delete(n);
          }
        }
      });
      resolve(w);
    });
    req.on('error', reject);
  });
}
