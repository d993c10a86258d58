/**
 * `svc events AGENT` (one page of the durable log) and `svc events tail AGENT [--after N]`, which
 * follows the agent's SSE stream and, whenever the stream ends or fails, reconnects from the last
 * id it printed (after_seq + Last-Event-ID) with a short backoff, until interrupted. `svc tui`
 * follows an agent with the same `tail`, stopping it through an AbortSignal.
 */
import { EventStreamParser } from '../../core/index.js';
import type http from 'node:http';
import { InvalidArgumentError, type Command } from 'commander';
import { ApiError, clientOptions, controlApi, controlPath, ok, open, resolveTarget, sleep, type ClientFlags, type Target } from '../client.js';
import { action, cell, print, table, type Row } from '../output.js';

import type { EventEnvelope } from '../../events/index.js';

interface PageFlags extends ClientFlags {
  limit?: string;
  before?: string;
  after?: string;
  order?: 'asc' | 'desc';
  maxLevel?: 'info' | 'verbose' | 'debug';
}

export function registerEvents(program: Command): void {
  const events = clientOptions(program.command('events').description("an agent's durable event log: one page, or `tail` to follow it"))
    .argument('[agent]', 'agent id')
    .option('--limit <n>', 'max events (default 128)', nonNegative('--limit'))
    .option('--before <seq>', 'events with event_seq lower than this', nonNegative('--before'))
    .option('--after <seq>', 'events with event_seq higher than this', nonNegative('--after'))
    .option('--order <order>', 'asc|desc (default desc)', oneOf('--order', ['asc', 'desc']))
    .option('--max-level <level>', 'info|verbose|debug (default debug)', oneOf('--max-level', ['info', 'verbose', 'debug']))
    .action(
      action(async (agent: string | undefined, flags: PageFlags) => {
        if (agent === undefined) throw new Error('missing agent: svc events AGENT (or svc events tail AGENT)');
        const res = await ok(
          controlApi(resolveTarget(flags)).GET('/api/agents/{id}/events', {
            params: { path: { id: agent }, query: { limit: flags.limit, before_seq: flags.before, after_seq: flags.after, order: flags.order, max_level: flags.maxLevel } },
          }),
        );
        print(res, flags.json, (p) => {
          const rows = p.events.map((e) => ({ seq: e.event_seq, ts: e.ts, type: e.type, summary: summarize(e) }));
          const more = [p.has_older ? 'older events exist' : '', p.has_newer ? 'newer events exist' : ''].filter(Boolean).join('; ');
          return table(rows, ['seq', 'ts', 'type', 'summary']) + (more ? `\n(${more})` : '');
        });
      }),
    );

  clientOptions(events.command('tail <agent>').description('follow the event stream, reconnecting from the last id until interrupted'))
    .option('--after <seq>', 'start after this event_seq (0: the whole replay window); default: live only', nonNegative('--after'))
    .action(
      action(async (agent: string, flags: ClientFlags & { after?: string }) => {
        await tail(resolveTarget(flags), agent, flags.after === undefined ? undefined : Number(flags.after), (e) => {
          process.stdout.write(flags.json ? `${JSON.stringify(e)}\n` : `${line(e)}\n`);
        });
      }),
    );
}

/** One human line per event. */
export function line(e: EventEnvelope): string {
  return `${e.event_seq}  ${e.ts}  ${e.type}  ${summarize(e)}`;
}

/** A short description of the payload: kind, priority, status, its text or body, then ids; else compact JSON. */
export function summarize(e: EventEnvelope): string {
  const p = e.payload ?? {};
  const parts: string[] = [];
  for (const k of ['kind', 'priority', 'status']) if (typeof p[k] === 'string') parts.push(String(p[k]));
  const body = p.body && typeof p.body === 'object' ? (p.body as Row) : null;
  if (typeof p.text === 'string') parts.push(JSON.stringify(p.text));
  else if (typeof p.summary === 'string') parts.push(JSON.stringify(p.summary));
  else if (body && typeof body.text === 'string') parts.push(JSON.stringify(body.text));
  else if (body && body.value !== undefined) parts.push(JSON.stringify(body.value));
  for (const k of ['message_id', 'task_id', 'timer_id', 'work_item_id', 'job_id']) if (typeof p[k] === 'string') parts.push(`${k}=${p[k]}`);
  const out = parts.length ? parts.join(' ') : cell(p);
  return out.length > 160 ? `${out.slice(0, 159)}…` : out;
}

export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Incremental SSE parser (src/core/event-stream.ts): feed it chunks, it calls `onFrame` per
 * dispatched frame. A stream it cannot read (a line over the parser's cap, a frame `onFrame`
 * throws on) goes to `onError`, once, and nothing more is parsed; without `onError` it throws.
 */
export class SseParser {
  private readonly parser = new EventStreamParser();
  private failed = false;

  constructor(
    private readonly onFrame: (f: SseFrame) => void,
    private readonly onError?: (err: Error) => void,
  ) {}

  push(chunk: string | Uint8Array): void {
    if (this.failed) return;
    try {
      for (const f of this.parser.push(chunk)) this.onFrame({ id: f.id, event: f.event, data: f.data ?? '' });
    } catch (err) {
      if (!this.onError) throw err;
      this.failed = true;
      this.onError(err as Error);
    }
  }
}

/** The error a follower ends with when the daemon's stream cannot be read. */
export function unreadableStream(err: Error): ApiError {
  return new ApiError(0, 'bad_stream', `the event stream cannot be read: ${err.message}`);
}

const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 5000;

/** The agent's event-log high-watermark: following after it shows only events still to come. */
export async function headOf(target: Target, agent: string): Promise<number> {
  return (await ok(controlApi(target).GET('/api/agents/{id}/events', { params: { path: { id: agent }, query: { limit: '1', order: 'desc' } } }))).cursor_seq;
}

/**
 * Follow the stream until `signal` aborts (forever without one). Without `after` it starts at the
 * current end of the log (live only); every connection resumes after the last event delivered, so
 * nothing is printed twice. A 404 cursor_not_found (and any other 4xx except 408/429) rejects;
 * network failures, 5xx and stream ends reconnect.
 */
export async function tail(
  target: Target,
  agent: string,
  after: number | undefined,
  onEvent: (e: EventEnvelope) => void,
  signal?: AbortSignal,
): Promise<void> {
  // Live only: start after the log's current high-watermark, so a reconnect before the first
  // event still resumes exactly where the first connection began.
  let last = after ?? (await headOf(target, agent));
  let delay = BACKOFF_MIN_MS;
  while (!signal?.aborted) {
    const outcome = await connectOnce(target, agent, last, signal, (e) => {
      if (e.event_seq <= last) return; // never print an event twice
      last = e.event_seq;
      onEvent(e);
    });
    if (signal?.aborted) return;
    if (outcome.error) {
      const err = outcome.error;
      const retryable = err.status === 0 || err.status >= 500 || err.status === 408 || err.status === 429;
      if (!retryable) throw err;
      process.stderr.write(`svc: ${err.code}: ${err.message}; reconnecting in ${delay} ms\n`);
    }
    if (outcome.received) delay = BACKOFF_MIN_MS;
    await sleep(delay, signal);
    if (!outcome.received) delay = Math.min(delay * 2, BACKOFF_MAX_MS);
  }
}

/** One connection: resolves when it ends, with the error that ended it (if any). */
function connectOnce(
  target: Target,
  agent: string,
  after: number | undefined,
  signal: AbortSignal | undefined,
  onEvent: (e: EventEnvelope) => void,
): Promise<{ error?: ApiError; received: boolean }> {
  return new Promise((resolve) => {
    let received = false;
    let settled = false;
    const abort = () => {
      req.destroy();
      done();
    };
    const done = (error?: ApiError) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      resolve({ error, received });
    };
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (after !== undefined) headers['last-event-id'] = String(after);
    const req = open(target, controlPath('/api/agents/{id}/events/stream', { path: { id: agent }, query: { after_seq: after?.toString() } }), { headers }, (res: http.IncomingMessage) => {
      res.setEncoding('utf8');
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let env: { code?: string; error?: string } | null = null;
          try {
            env = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          done(new ApiError(status, env?.code ?? `http_${status}`, env?.error ?? (text || `HTTP ${status}`), env));
        });
        res.on('error', () => done(new ApiError(status, `http_${status}`, `HTTP ${status}`)));
        return;
      }
      const parser = new SseParser((f) => {
        if (!f.data) return;
        let env: EventEnvelope;
        try {
          env = JSON.parse(f.data) as EventEnvelope;
        } catch {
          return; // not an event envelope
        }
        if (typeof env.event_seq !== 'number') {
          const seq = Number(f.id);
          if (!Number.isInteger(seq)) return;
          env.event_seq = seq;
        }
        received = true;
        onEvent(env);
      }, (err) => {
        done(unreadableStream(err));
        req.destroy();
      });
      res.on('data', (chunk: string) => parser.push(chunk));
      res.on('end', () => done());
      res.on('close', () => done());
      res.on('error', () => done());
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      done(new ApiError(0, 'unreachable', `cannot reach the svc daemon at ${target.base.origin}: ${err.code ?? err.message}`)),
    );
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    req.end();
  });
}

function nonNegative(_flag: string): (v: string) => string {
  return (v) => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError('must be a non-negative integer');
    return v;
  };
}

function oneOf(_flag: string, values: string[]): (v: string) => string {
  return (v) => {
    if (!values.includes(v)) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return v;
  };
}
