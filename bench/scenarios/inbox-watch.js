/**
 * Append-to-watch-frame latency: one local_event source with 100 subscriptions (100 inbox agents,
 * half with a `match` filter and half with a CEL `expr`), one watcher per agent on
 * GET /agents/:id/inbox/watch over the Unix socket. Two cases, each a sequential loop of
 * single-event appends:
 * - selective: every subscription's filter is evaluated, but each event matches exactly one of
 *   them (round robin over `data.slot`): one entry, one frame per append;
 * - fan-out: every subscription matches: 100 entries and 100 frames per append (the worst case).
 * Timed from the moment the request is sent: (a) the append's answer (the baseline, same run: a
 * group-committed, fsynced write), (b) the first watch frame of the event and (c) the frame at the
 * last watcher that gets one. Matching is pushed inside the append transaction and frames go out
 * right after its commit, so (b) sits at (a).
 */
import http from 'node:http';
import path from 'node:path';
import { openWatcher, socketJson } from '../lib/inbox.js';
import { removeHome, startDaemon, tempHome } from '../lib/processes.js';
import { ms, nowNs, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 20;

export async function run(opts) {
  const { subscriptions, appends, warmup } = opts.inboxWatch;
  const home = tempHome();
  const daemon = await startDaemon(home);
  const socketPath = path.join(home, 'inbox.sock');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method, p, body) => socketJson(socketPath, agent, method, p, body);
  const watchers = [];
  try {
    const host = await call('POST', '/hosts', { hostType: 'local_event', hostKey: 'bench' });
    const rows = [];
    const data = {};
    const failures = [];
    for (const mode of ['selective', 'fan-out']) {
      const source = await call('POST', '/sources', { hostId: host.hostId, streamKind: 'bench', streamKey: mode });
      const group = [];
      for (let i = 0; i < subscriptions; i++) {
        const { agentId } = await call('POST', '/agents', { name: `${mode}-${i}` });
        const slot = mode === 'selective' ? i : 0;
        const filter = i % 2 === 0 ? { match: { type: ['bench.tick', 'bench.other'], 'data.slot': slot } } : { expr: `event.type == "bench.tick" && event.data.slot == ${slot}` };
        await call('POST', '/subscriptions', { agentId, sourceId: source.sourceId, filter });
        group.push(await openWatcher(socketPath, agentId));
      }
      watchers.push(...group);
      opts.log(`  ${mode}: ${subscriptions} subscriptions and watchers ready`);
      const r = await measure(call, source.sourceId, group, mode, { appends, warmup });
      const [a, f, l] = [summary(r.append), summary(r.first), summary(r.last)];
      opts.log(`  ${mode}: append p50 ${ms(a.p50)} p99 ${ms(a.p99)} | first frame p50 ${ms(f.p50)} p99 ${ms(f.p99)} | last frame p50 ${ms(l.p50)} p99 ${ms(l.p99)}`);
      const frames = mode === 'selective' ? '1 frame' : `${subscriptions} frames`;
      rows.push(
        { measure: `${mode}: append answered (baseline) p50 / p99`, result: `${ms(a.p50)} / ${ms(a.p99)}` },
        { measure: `${mode}: append → first watch frame p50 / p99`, result: `${ms(f.p50)} / ${ms(f.p99)}`, goal: `p99 ≤ ${GOAL_P99_MS} ms`, ok: f.p99 <= GOAL_P99_MS },
        { measure: `${mode}: append → last of ${frames} p50 / p99`, result: `${ms(l.p50)} / ${ms(l.p99)}`, goal: `p99 ≤ ${GOAL_P99_MS} ms`, ok: l.p99 <= GOAL_P99_MS },
        { measure: `${mode}: first frame p99 / append p99`, result: ratio(f.p99 / a.p99) },
      );
      data[mode] = { append_ms: a, first_frame_ms: f, last_frame_ms: l };
      const expected = (w, i) => (mode === 'selective' ? Math.ceil((warmup + appends - i) / subscriptions) : warmup + appends);
      const bad = group.filter((w, i) => w.count !== expected(w, i) || w.duplicates > 0);
      if (bad.length) failures.push(`${mode}: ${bad.length} watchers lost or duplicated frames`);
    }
    return {
      params: `${subscriptions} subscriptions on the source (half match, half CEL) with one SSE watcher each; ${appends} sequential single-event appends per case over the Unix socket (after ${warmup} warm-up)`,
      rows,
      data: { subscriptions, appends, warmup, ...data },
      failures,
    };
  } finally {
    for (const w of watchers) w.close();
    agent.destroy();
    await daemon.stop();
    removeHome(home);
  }
}

/** Sequential appends; per append the answer time and the first and last frame arrival (ms from send). */
async function measure(call, sourceId, group, mode, { appends, warmup }) {
  const out = { append: [], first: [], last: [] };
  for (let n = 0; n < warmup + appends; n++) {
    const targets = mode === 'selective' ? [group[n % group.length]] : group;
    const slot = mode === 'selective' ? n % group.length : 0;
    const t0 = nowNs();
    const all = Promise.all(targets.map((w) => w.next(n)));
    const first = Promise.race(targets.map((w) => w.next(n)));
    const res = await call('POST', `/sources/${sourceId}/events`, { type: 'bench.tick', data: { n, slot } });
    const tAppend = nowNs();
    if (res.appended !== 1) throw new Error(`append ${n}: ${JSON.stringify(res)}`);
    const tFirst = await first;
    const tLast = Math.max(...(await all));
    if (n < warmup) continue;
    out.append.push((tAppend - t0) / 1e6);
    out.first.push((tFirst - t0) / 1e6);
    out.last.push((tLast - t0) / 1e6);
  }
  return out;
}
