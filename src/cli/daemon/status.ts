/**
 * `svc status`: is the daemon up, and how is it doing. One look at the open handshake (reachable,
 * auth mode), the runtime status (version, pid, uptime, queue; needs the token in bearer mode),
 * the agent list, and the inbox socket (`/status`, else `/healthz`). Only an unreachable control
 * plane fails the command (exit 3); a part it may not read is reported as such.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { ApiError, clientOptions, controlApi, inboxApi, ok, resolveTarget, type ClientFlags, type Target } from '../client.js';
import { action, print, record, type Row } from '../output.js';

interface RuntimeStatus {
  version: string;
  pid: number;
  started_at: string;
  uptime_seconds: number;
  queue: { pending: number };
}

interface InboxStatus {
  version: string;
  counts: { sourceStates: { total: number; error: number }; subscriptions: number; entries: { unacked: number }; notifications: { pending: number } };
}

/** A part of the report the daemon would not give: its error code in place of the data. */
type Part<T> = T | { unavailable: string };

export interface StatusReport {
  ok: true;
  url: string;
  /** How the CLI chose the URL: --url, SVC_URL, <home>/daemon.json, or the config's listen. */
  url_from: Target['from'];
  /** The console's address (GET / of the control plane). */
  console: string;
  listen: string;
  home: string;
  auth: string;
  runtime: Part<RuntimeStatus>;
  agents: Part<{ total: number; by_status: Record<string, number>; list: Array<{ agent_id: string; status: string }> }>;
  inbox: { socket: string } & Part<{ healthy: boolean; status: InboxStatus | null }>;
  warnings: string[];
}

export function registerStatus(program: Command): void {
  clientOptions(program.command('status').description('the daemon at a glance: address, pid, auth, version, uptime, agents, queue, inbox health; exit 3 if unreachable'))
    .action(
      action(async (flags: ClientFlags) => {
        print(await statusReport(resolveTarget(flags)), flags.json, human);
      }),
    );
}

export async function statusReport(target: Target): Promise<StatusReport> {
  // The one call that must succeed: it is open in every auth mode, so only an unreachable daemon fails it.
  const api = controlApi(target);
  const hs = await ok(api.GET('/api/handshake'));
  const [runtime, agents, inbox] = await Promise.all([
    part(ok(api.GET('/api/control/runtime/status'))),
    part(ok(api.GET('/api/agents/list'))),
    inboxHealth(target),
  ]);
  return {
    ok: true,
    url: target.base.origin,
    url_from: target.from,
    console: `${target.base.origin}/`,
    listen: hs.runtime.listen,
    home: hs.runtime.home_dir,
    auth: hs.auth.mode,
    runtime: 'unavailable' in runtime ? runtime : pick(runtime, ['version', 'pid', 'started_at', 'uptime_seconds', 'queue']),
    agents: 'unavailable' in agents ? agents : summariseAgents(agents),
    inbox: { socket: target.socketPath, ...inbox },
    warnings:
      // Nothing in the home named a running daemon, yet something answered at the config's
      // address: easily another home's daemon on the default port.
      target.from === 'config' && path.resolve(hs.runtime.home_dir) !== target.home
        ? [`the daemon at ${target.base.origin} serves ${hs.runtime.home_dir}, not ${target.home}`]
        : [],
  };
}

async function part<T>(p: Promise<T>): Promise<Part<T>> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError) return { unavailable: err.code };
    throw err;
  }
}

/** `/status` has the counts; where it is refused, `/healthz` still tells whether the socket answers. */
async function inboxHealth(target: Target): Promise<Part<{ healthy: boolean; status: InboxStatus | null }>> {
  const api = inboxApi(target);
  const status = await part(ok(api.GET('/status')));
  if (!('unavailable' in status)) return { healthy: true, status: pick(status, ['version', 'counts']) };
  if (status.unavailable === 'unreachable') return status;
  const health = await part(ok(api.GET('/healthz')));
  return 'unavailable' in health ? health : { healthy: health.ok === true, status: null };
}

function summariseAgents(list: Array<{ agent_id: string; status: string }>) {
  const by_status: Record<string, number> = {};
  for (const a of list) by_status[a.status] = (by_status[a.status] ?? 0) + 1;
  return { total: list.length, by_status, list: list.map((a) => ({ agent_id: a.agent_id, status: a.status })) };
}

function pick<T extends object>(obj: T, keys: Array<keyof T>): T {
  return Object.fromEntries(keys.map((k) => [k, obj[k]])) as T;
}

function human(r: StatusReport): string {
  const rt = 'unavailable' in r.runtime ? null : r.runtime;
  const unavailable = (p: object) => `unavailable (${(p as { unavailable: string }).unavailable})`;
  const lines: Row = {
    daemon: `up at ${r.url}${r.url.endsWith(`//${r.listen}`) ? '' : ` (listening on ${r.listen})`}, from ${URL_FROM[r.url_from]}`,
    console: `${r.console} (API reference: ${r.url}/docs)`,
    pid: rt?.pid,
    version: rt?.version,
    uptime: rt ? duration(rt.uptime_seconds) : unavailable(r.runtime),
    auth: r.auth,
    home: r.home,
    agents: 'unavailable' in r.agents ? unavailable(r.agents) : agentLine(r.agents),
    queue: rt ? `${rt.queue.pending} pending` : null,
    inbox: inboxLine(r.inbox),
  };
  r.warnings.forEach((w, i) => (lines[`warning${r.warnings.length > 1 ? ` ${i + 1}` : ''}`] = w));
  return record(lines);
}

const URL_FROM = { flag: '--url', env: 'SVC_URL', 'daemon.json': '<home>/daemon.json', config: 'the config listen address (no running daemon in <home>/daemon.json)' } as const;

function agentLine(a: { total: number; by_status: Record<string, number> }): string {
  const states = Object.entries(a.by_status).map(([s, n]) => `${n} ${s}`);
  return `${a.total}${states.length ? ` (${states.join(', ')})` : ''}`;
}

function inboxLine(i: StatusReport['inbox']): string {
  if ('unavailable' in i) return `down (${i.unavailable}) at ${i.socket}`;
  if (!i.status) return `${i.healthy ? 'healthy' : 'unhealthy'} at ${i.socket}`;
  const c = i.status.counts;
  const errors = c.sourceStates.error ? `, ${c.sourceStates.error} in error` : '';
  return `healthy at ${i.socket}: ${c.sourceStates.total} sources${errors}, ${c.subscriptions} subscriptions, ${c.entries.unacked} unacked entries, ${c.notifications.pending} pending notifications`;
}

/** Seconds as `3d 4h`, `2h 5m`, `5m 3s` or `42s`. */
function duration(seconds: number): string {
  const s = Math.floor(seconds);
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
