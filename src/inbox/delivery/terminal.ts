/**
 * Terminal targets: the notification typed into a tmux pane as one line in AgentInbox's words
 * (`tmux send-keys -t <tmuxTarget> -l -- <text>`, then `Enter`), once the runtime gate
 * (terminal-gate.ts) finds the agent in the pane idle. tmux runs without a shell (tmux.ts), so
 * nothing in the text is interpreted. `tmuxSocket` (optional) selects the tmux server (`-S`);
 * without it tmux picks the daemon's server as it always does (`$TMUX`, else the default socket),
 * which is where a terminal registration's pane lives.
 *
 * Outcomes: a busy pane defers the notification (not a failure: it is tried again after
 * deferDelayMs, 5 s doubling to 5 minutes, and the target's failure count stays); a pane or
 * registered runtime that is gone takes the target offline (`gone`, as AgentInbox's gate does); a
 * missing tmux binary or server, or a failed send-keys, is a failed attempt like any other.
 */
import type { AttemptOutcome, Deliverer, NotificationPayload, PendingNotification, TargetWithSecret } from './types.js';
import { entryPreview } from './activation.js';
import { abortableSleep, DEFAULT_SAMPLE_MS, deferDelayMs, processAlive, TerminalGate, type GateOptions } from './terminal-gate.js';
import { isSessionBound, isTmuxPaneId } from './terminal-sessions.js';
import { tmuxFor } from './tmux.js';

/** Longest text typed; a longer one is cut with an ellipsis. */
const MAX_TEXT = 1000;

export interface TerminalDeliveryDeps {
  timeoutMs: () => number;
  tmuxPath?: string;
  /** The gate's sampling (tests shorten it); defaults: 900 ms, a real wait, kill(pid, 0). */
  gate?: Partial<GateOptions>;
}

export class TerminalDelivery implements Deliverer {
  private readonly gate: TerminalGate;

  constructor(private readonly deps: TerminalDeliveryDeps) {
    this.gate = new TerminalGate({ sampleMs: DEFAULT_SAMPLE_MS, sleep: abortableSleep, processAlive, ...deps.gate });
  }

  async deliver(target: TargetWithSecret, n: PendingNotification, signal: AbortSignal): Promise<AttemptOutcome> {
    if (!target.tmuxTarget) return { ok: false, error: 'terminal target without tmuxTarget' };
    // A registered terminal session names its pane by id only (checked at registration; checked again here).
    if (isSessionBound(target) && !isTmuxPaneId(target.tmuxTarget)) return { ok: false, error: 'terminal session target without a pane id' };
    const tmux = tmuxFor({ bin: this.deps.tmuxPath ?? 'tmux', socket: target.tmuxSocket, timeoutMs: this.deps.timeoutMs(), signal });
    try {
      const gate = await this.gate.evaluate({ tmuxTarget: target.tmuxTarget, runtimeKind: target.runtimeKind, runtimePid: target.runtimePid }, tmux, signal);
      if (gate.outcome === 'offline') return { ok: false, gone: true, error: `runtime gate: ${gate.reason} (${gate.detail})` };
      if (gate.outcome === 'defer') return { ok: false, deferred: true, error: `deferred by the runtime gate: ${gate.reason} (${gate.detail})`, retryAfterMs: deferDelayMs(n.attempts) };
      await tmux(['send-keys', '-t', target.tmuxTarget, '-l', '--', terminalText(n.payload, { eventText: !gate.shell })]);
      await tmux(['send-keys', '-t', target.tmuxTarget, 'Enter']);
      return { ok: true };
    } catch (err) {
      if (signal.aborted) return { ok: false, error: 'aborted: the daemon is shutting down' };
      return { ok: false, error: (err as Error).message };
    }
  }
}

// --- the text (AgentInbox's renderAgentPrompt and deriveInlineItemPreview, src/terminal.ts) ------

/** C0, DEL, C1 and the bidirectional overrides: a terminal acts on them, or shows the text reordered. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;
const withoutControls = (text: string) => text.replace(CONTROLS, ' ');

/** A preview is a short single text: AgentInbox's limits. */
const MAX_PREVIEW_INPUT = 240;
const MAX_PREVIEW = 96;

/** Whitespace collapsed; null when empty, too long, or JSON-looking; cut to MAX_PREVIEW with `...`. */
function normalizePreview(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t || t.length > MAX_PREVIEW_INPUT) return null;
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) return null;
  return t.length <= MAX_PREVIEW ? t : `${t.slice(0, MAX_PREVIEW - 3).trimEnd()}...`;
}

/** A summary reads as a sentence (AgentInbox's isPreviewFriendlySummary): not `word:…`, with a space. */
function previewFriendly(summary: string | null): summary is string {
  const t = summary?.trim() ?? '';
  return t.includes(' ') && !/^[a-z0-9_.-]+:/i.test(t);
}

/**
 * The line typed, in AgentInbox's words:
 * `AgentInbox: <n> unacked item(s) for agent <agentId>. Latest entryId: <id>.` then, for a single
 * unacknowledged entry with a short text, ` Preview: <text>. Read the inbox for full details if
 * needed.`, else ` Summary: <newest entry's summary>. Please read the inbox, process them, and ack
 * when finished.` `<n>` is the unacknowledged count the notification carries (`newEntryCount`).
 * Without `eventText` (the pane runs a shell, which would run the line on Enter) the preview and
 * the summary, which come from events, are left out. Control characters (which a terminal would
 * act on, a newline among them) become spaces.
 */
export function terminalText(p: NotificationPayload, opts: { eventText: boolean } = { eventText: true }): string {
  const unacked = p.newEntryCount;
  const summary = opts.eventText && p.latestSummary ? withoutControls(p.latestSummary) : null;
  const single = opts.eventText && unacked === 1 && p.newItemCount === 1 && p.entries.length === 1;
  let preview: string | null = null;
  if (single) {
    const candidates = entryPreview(p.entries[0]!);
    if (previewFriendly(summary)) candidates.push(summary);
    preview = candidates.map((c) => normalizePreview(withoutControls(c))).find((c) => c !== null) ?? null;
  }
  const base = `AgentInbox: ${unacked} unacked ${unacked === 1 ? 'item' : 'items'} for agent ${p.agentId}.`;
  const latest = p.latestEntryId ? ` Latest entryId: ${p.latestEntryId}.` : '';
  let text: string;
  if (unacked === 1 && preview) text = `${base}${latest} Preview: ${preview}${/(?:[.!?…]|\.{3})$/.test(preview) ? '' : '.'} Read the inbox for full details if needed.`;
  else if (summary) text = `${base}${latest} Summary: ${summary}. Please read the inbox, process them, and ack when finished.`;
  else text = `${base}${latest} Please read the inbox, process them, and ack when finished.`;
  const clean = withoutControls(text);
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean;
}
