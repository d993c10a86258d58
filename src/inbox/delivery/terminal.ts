/**
 * Terminal targets: the notification as one line typed into a tmux pane
 * (`tmux send-keys -t <tmuxTarget> -l <text>`, then `Enter`), run with execFile (no shell, so
 * nothing in the text is interpreted). `tmuxSocket` (optional) selects the tmux server (`-S`);
 * without it tmux picks the daemon's server as it always does (`$TMUX`, else the default socket),
 * which is where a terminal registration's pane lives.
 * A missing tmux binary, server or pane is a failed attempt like any other.
 */
import { execFile } from 'node:child_process';
import type { AttemptOutcome, Deliverer, PendingNotification, TargetWithSecret } from './types.js';
import { isSessionBound, isTmuxPaneId } from './terminal-sessions.js';

/** Longest line typed; longer summaries are cut with an ellipsis. */
const MAX_LINE = 400;

export class TerminalDelivery implements Deliverer {
  constructor(private readonly deps: { timeoutMs: () => number; tmuxPath?: string }) {}

  async deliver(target: TargetWithSecret, n: PendingNotification, signal: AbortSignal): Promise<AttemptOutcome> {
    if (!target.tmuxTarget) return { ok: false, error: 'terminal target without tmuxTarget' };
    // A registered terminal session names its pane by id only (checked at registration; checked again here).
    if (isSessionBound(target) && !isTmuxPaneId(target.tmuxTarget)) return { ok: false, error: 'terminal session target without a pane id' };
    const base = target.tmuxSocket ? ['-S', target.tmuxSocket] : [];
    try {
      await this.tmux([...base, 'send-keys', '-t', target.tmuxTarget, '-l', terminalLine(n)], signal);
      await this.tmux([...base, 'send-keys', '-t', target.tmuxTarget, 'Enter'], signal);
      return { ok: true };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }

  private tmux(args: string[], signal: AbortSignal): Promise<void> {
    const bin = this.deps.tmuxPath ?? 'tmux';
    return new Promise((resolve, reject) => {
      execFile(bin, args, { timeout: this.deps.timeoutMs(), windowsHide: true, signal }, (err, _stdout, stderr) => {
        if (!err) return resolve();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new Error(`${bin} not found`));
        reject(new Error(`tmux failed: ${String(stderr).trim() || err.message}`));
      });
    });
  }
}

/** One printable line: how many entries, for whom (a digest: from where), and what the first ones are. */
export function terminalLine(n: PendingNotification): string {
  const p = n.payload;
  const what = p.entries.map((e) => e.message ?? (e.event ? `${e.event.type}${e.event.subject ? ` ${e.event.subject}` : ''}` : e.kind));
  const count = `${p.entryCount} new entr${p.entryCount === 1 ? 'y' : 'ies'}`;
  const head = p.type === 'inbox.digest' ? `digest for ${p.agentId}: ${count} (${p.sources.map((s) => `${s.sourceId ?? s.kind} ${s.count}`).join(', ')})` : `${count} for ${p.agentId}`;
  const text = `[svc inbox] ${head}${p.reason === 'catch_up' ? ' (catch-up)' : ''}: ${what.join(' | ')}`;
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return clean.length > MAX_LINE ? `${clean.slice(0, MAX_LINE - 1)}…` : clean;
}
