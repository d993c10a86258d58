/**
 * Daemon memory: VmRSS of the daemon process idle after start, then with N SSE clients
 * connected to GET /api/agents/main/events/stream (no traffic), then after they disconnect,
 * over a few connect/disconnect cycles: RSS that climbs every cycle would be a leak, a plateau
 * is the V8 heap keeping what it grew.
 */
import { metrics, sleep } from '../lib/http.js';
import { removeHome, rssBytes, startDaemon } from '../lib/processes.js';
import { openClients } from '../lib/sse-clients.js';
import { int, mib } from '../lib/stats.js';

const SETTLE_MS = 1000;
const CYCLES = 5;

export async function run(opts) {
  const { clients: total, workers } = opts.sse;
  const daemon = await startDaemon();
  let pool = null;
  try {
    await sleep(SETTLE_MS);
    const idle = rssBytes(daemon.pid);
    const cycles = [];
    for (let c = 0; c < CYCLES; c++) {
      pool = await openClients(`${daemon.base}/api/agents/main/events/stream`, total, workers);
      if (pool.connected !== total) throw new Error(`only ${pool.connected} of ${total} SSE clients connected: ${pool.errors.join('; ')}`);
      await sleep(SETTLE_MS);
      const connected = rssBytes(daemon.pid);
      await pool.close();
      pool = null;
      await sleep(SETTLE_MS);
      const open = (await metrics(daemon.base)).svc_sse_clients;
      cycles.push({ connected, after: rssBytes(daemon.pid), sseClientsAfter: open });
    }
    const first = cycles[0];
    const perClient = (first.connected - idle) / total;
    const failures = cycles.some((c) => c.sseClientsAfter !== 0) ? [`the daemon still counts SSE clients after they left: ${cycles.map((c) => c.sseClientsAfter).join(', ')}`] : [];
    return {
      params: `VmRSS from /proc/<pid>/status, read ${SETTLE_MS / 1000} s after each step; ${int(total)} raw SSE clients, ${CYCLES} connect/disconnect cycles`,
      rows: [
        { measure: 'daemon RSS idle after start', result: mib(idle) },
        { measure: `daemon RSS with ${int(total)} SSE clients`, result: `${mib(first.connected)} (+${(perClient / 1024).toFixed(1)} KiB per client)` },
        { measure: `daemon RSS after each of ${CYCLES} connect/disconnect cycles`, result: cycles.map((c) => mib(c.after)).join(', ') },
      ],
      data: { clients: total, settle_ms: SETTLE_MS, rss_bytes: { idle, cycles }, bytes_per_client: perClient },
      failures,
    };
  } finally {
    await pool?.close();
    await daemon.stop();
    removeHome(daemon.home);
  }
}
