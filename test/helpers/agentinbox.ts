/**
 * AgentInbox's client against the real daemon, as the AgentInbox test files replay it: the daemon
 * with a tmux server private to the test file (its $TMUX names it; a pane running `cat` starts on
 * first use, so what the daemon types shows in it), a webhook receiver, `{{name}}` templates and
 * SSE frames read the way the client reads them.
 */
import http from 'node:http';
import path from 'node:path';
import { SseParser, type SseFrame } from '../../src/cli/control/events.js';
import type { daemonPool, RunningDaemon } from './daemon.js';
import { requireTmux, tmuxAt } from './inbox-delivery.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export interface AgentInboxRig {
  daemon: RunningDaemon;
  hook: Receiver;
  tmux: (...args: string[]) => string;
  /** The id of the pane the client "runs in" (started on first use; without tmux this fails). */
  pane: () => string;
  /** The pane's non-empty lines, trailing blanks cut. */
  paneText: () => string;
  close: () => Promise<void>;
}

export async function startAgentInboxRig(pool: ReturnType<typeof daemonPool>): Promise<AgentInboxRig> {
  const tmuxSocket = path.join(pool.home(), 'tmux.sock');
  const daemon = await pool.start({ env: { TMUX: `${tmuxSocket},0,0` } });
  const hook = await startReceiver();
  const tmux = (...args: string[]) => tmuxAt(tmuxSocket)(...args);
  let paneId: string | null = null;
  const pane = () => {
    if (paneId === null) {
      requireTmux();
      tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'agentinbox', '-x', '200', '-y', '50', 'cat');
      paneId = tmux('display-message', '-p', '-t', 'agentinbox', '#{pane_id}').trim();
    }
    return paneId;
  };
  return {
    daemon,
    hook,
    tmux,
    pane,
    paneText: () =>
      tmux('capture-pane', '-p', '-J', '-t', pane())
        .split('\n')
        .map((l) => l.trimEnd())
        .filter(Boolean)
        .join('\n'),
    close: async () => {
      await hook.close();
      if (paneId !== null) tmux('kill-server');
    },
  };
}

/** `{{name}}` in every string of `value` replaced by `lookup(name)`. */
export function fillTemplate(value: unknown, lookup: (name: string) => unknown): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(lookup(name)));
  if (Array.isArray(value)) return value.map((v) => fillTemplate(v, lookup));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTemplate(v, lookup)]));
  return value;
}

/**
 * GET an SSE route over the socket and collect its frames until `enough(frames)` holds, the stream
 * ends, or `timeoutMs` passes (`timedOut`); a non-2xx answer ends at once with its body in `text`.
 */
export function readFrames(
  socketPath: string,
  urlPath: string,
  enough: (frames: SseFrame[]) => boolean,
  timeoutMs: number,
): Promise<{ status: number; frames: SseFrame[]; text: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const frames: SseFrame[] = [];
    let status = 0;
    let text = '';
    let settled = false;
    const done = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      if (status === 0) reject(new Error(`no answer from ${urlPath} within ${timeoutMs} ms`));
      else resolve({ status, frames, text, timedOut });
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    const req = http.get({ socketPath, path: urlPath, headers: { accept: 'text/event-stream' } }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      const parser = new SseParser((f) => {
        frames.push(f);
        if (enough(frames)) done(false);
      });
      res.on('data', (c: string) => {
        text += c;
        parser.push(c);
      });
      res.on('end', () => done(false));
    });
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    });
  });
}
