/**
 * The runtime gate of terminal targets: before typing a notification into a tmux pane, look at the
 * pane, and do not type while the agent in it is busy; the notification waits and is tried again
 * (docs/agentinbox.md#notifications). svc's own equivalent of AgentInbox's src/runtime_gate.ts
 * (v1.0.3: DefaultActivationGate with its tmux and runtime probes), with the same outcomes and
 * reasons and the same tmux evidence, read so that it holds on Linux with tmux 3.x:
 *
 * 1. The pane: `capture-pane` fails with "can't find pane|window|session" when the target is gone
 *    (AgentInbox asks `display-message`, which tmux 3.3 answers with an empty line, or with another
 *    pane of the session, for a target that does not exist), and `display-message` then reads its
 *    state: `#{pane_id} #{pane_dead} #{pane_in_mode} #{cursor_x} #{cursor_y} #{pane_height}
 *    #{history_size}`. A missing or dead pane is `offline: terminal_gone`.
 * 2. The runtime: a registered Codex or Claude Code session with a `runtimePid` whose process no
 *    longer exists (`kill(pid, 0)` answers ESRCH) is `offline: runtime_gone`.
 * 3. Busy (`defer: terminal_busy`): the pane is in a mode (copy mode: typed keys would drive the
 *    mode, not the program); or two samples `sampleMs` apart (900 ms, AgentInbox's) differ in the
 *    visible screen, the cursor or the scrollback size (output is arriving; AgentInbox compares the
 *    last 20 lines of its capture, which are blank below a half-filled screen, so it misses a busy
 *    pane that has not scrolled yet); or the last 20 non-blank lines show a marker the agents print
 *    while they work ("esc to interrupt", "Working (", "⠼ "); or the line under the cursor starts
 *    with the runtime's input prompt ("› " Codex, "❯ " Claude Code) and the cursor is past it (the
 *    user is typing: the notification's Enter would send their half-written line).
 * 4. Anything else, including a state tmux would not tell, is `inject`, with whether the pane's
 *    foreground program (`#{pane_current_command}`) is a shell: the agent has exited to its shell,
 *    or the pane never ran one. AgentInbox types its preview there too; svc types no event text
 *    into a shell (terminal.ts), because the line is followed by Enter and would run as a command.
 *
 * Never a command built from event text: tmux is run with fixed formats and the target's own
 * `tmuxTarget` (a pane id for registered sessions); what it prints is only compared and searched.
 * AgentInbox's other evidence is not read: the session files of Codex (~/.codex/sessions) and
 * Claude Code (~/.claude/projects), whose last write it also counts as busy within 5 s (and, for
 * Codex, as "recently active" within 30 s); the pane shows the same work through its markers.
 */
import type { Tmux } from './tmux.js';
import { TmuxError } from './tmux.js';

export type GateDecision =
  /** `shell`: the pane's foreground program is a shell, or tmux would not say (type no event text then). */
  | { outcome: 'inject'; reason: 'gate_idle' | 'gate_unknown'; detail: string; shell: boolean }
  | { outcome: 'defer'; reason: 'terminal_busy'; detail: string }
  | { outcome: 'offline'; reason: 'terminal_gone' | 'runtime_gone'; detail: string };

/** What of a target the gate reads (only `tmuxTarget` ever reaches tmux). */
export interface GateTarget {
  tmuxTarget: string;
  runtimeKind: string | null;
  runtimePid: number | null;
}

export interface GateOptions {
  /** Time between the two samples of the pane (AgentInbox's tmuxSampleDelayMs). */
  sampleMs: number;
  /** Waits `ms`; rejects when `signal` aborts (shutdown). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Whether a process exists. */
  processAlive: (pid: number) => boolean;
}

export const DEFAULT_SAMPLE_MS = 900;
/** Lines searched for the markers (AgentInbox's normalizedBufferTailLines). */
const TAIL_LINES = 20;
/** What Codex and Claude Code show while they work (AgentInbox's activeBufferMarkers). */
export const ACTIVE_MARKERS: readonly string[] = ['esc to interrupt', 'Working (', '⠼ '];
/** The input prompt of each runtime (AgentInbox's runtimeTypingPromptPrefix). */
const TYPING_PROMPTS: Readonly<Record<string, string>> = { codex: '› ', claude_code: '❯ ' };
/** Runtimes whose registered pid is checked (AgentInbox's runtime presence probes). */
const PROBED_RUNTIMES = new Set(['codex', 'claude_code']);

/** Shells by process name: a line typed into one with Enter runs as a command. */
const SHELLS = new Set(['sh', 'ash', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'pdksh', 'oksh', 'yash', 'fish', 'csh', 'tcsh', 'nu', 'elvish', 'xonsh', 'pwsh', 'busybox']);

/** The foreground program of a pane is a shell (`-bash` is a login shell). */
export function isShell(command: string): boolean {
  return SHELLS.has(command.replace(/^-/, '').split('/').pop()!);
}

// `#{pane_current_command}` last: a program name may hold a tab.
const FORMAT = ['#{pane_id}', '#{pane_dead}', '#{pane_in_mode}', '#{cursor_x}', '#{cursor_y}', '#{pane_height}', '#{history_size}', '#{pane_current_command}'].join('\t');

interface PaneState {
  paneId: string;
  dead: boolean;
  inMode: boolean;
  cursorX: number;
  cursorY: number;
  height: number;
  historySize: number;
  /** The foreground program is a shell. */
  shell: boolean;
}

interface Sample {
  screen: string;
  state: PaneState;
}

/** A sample of the pane; `missing` when tmux says it does not exist; null when tmux would not tell. */
async function sample(tmux: Tmux, target: string): Promise<Sample | 'missing' | null> {
  let screen: string;
  try {
    screen = await tmux(['capture-pane', '-p', '-t', target]);
  } catch (err) {
    if (err instanceof TmuxError && err.missing) return 'missing';
    return null;
  }
  let printed: string;
  try {
    printed = await tmux(['display-message', '-p', '-t', target, FORMAT]);
  } catch {
    return null;
  }
  const [paneId, dead, inMode, ...rest] = printed.replace(/\n$/, '').split('\t');
  const [cursorX, cursorY, height, historySize] = rest.slice(0, 4).map((n) => (/^\d+$/.test(n) ? Number(n) : NaN));
  if (!paneId || !/^%\d+$/.test(paneId) || rest.length < 5 || [cursorX, cursorY, height, historySize].some((n) => Number.isNaN(n))) return null;
  const shell = isShell(rest.slice(4).join('\t'));
  return { screen, state: { paneId, dead: dead === '1', inMode: inMode === '1', cursorX: cursorX!, cursorY: cursorY!, height: height!, historySize: historySize!, shell } };
}

/** The last TAIL_LINES non-blank lines of a screen. */
function tail(screen: string): string {
  return screen
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.length > 0)
    .slice(-TAIL_LINES)
    .join('\n');
}

/** The line under the cursor starts with the runtime's prompt and the cursor is past it. */
function typing(runtimeKind: string | null, s: Sample): boolean {
  const prompt = runtimeKind ? TYPING_PROMPTS[runtimeKind] : undefined;
  if (!prompt) return false;
  const line = s.screen.split('\n')[s.state.cursorY] ?? '';
  return line.startsWith(prompt) && s.state.cursorX > prompt.length;
}

export class TerminalGate {
  constructor(private readonly opts: GateOptions) {}

  async evaluate(target: GateTarget, tmux: Tmux, signal: AbortSignal): Promise<GateDecision> {
    const first = await sample(tmux, target.tmuxTarget);
    if (first === 'missing') return { outcome: 'offline', reason: 'terminal_gone', detail: 'pane_missing' };
    if (first === null) return { outcome: 'inject', reason: 'gate_unknown', detail: 'pane_state_unknown', shell: true };
    if (first.state.dead) return { outcome: 'offline', reason: 'terminal_gone', detail: 'pane_dead' };
    const pid = target.runtimePid;
    if (target.runtimeKind && PROBED_RUNTIMES.has(target.runtimeKind) && pid !== null && Number.isInteger(pid) && pid > 0 && !this.opts.processAlive(pid)) {
      return { outcome: 'offline', reason: 'runtime_gone', detail: 'process_missing' };
    }
    if (first.state.inMode) return { outcome: 'defer', reason: 'terminal_busy', detail: 'pane_in_mode' };
    await this.opts.sleep(this.opts.sampleMs, signal);
    const second = await sample(tmux, target.tmuxTarget);
    if (second === 'missing') return { outcome: 'offline', reason: 'terminal_gone', detail: 'pane_missing' };
    if (second === null) return { outcome: 'inject', reason: 'gate_unknown', detail: 'pane_state_unknown', shell: true };
    if (second.state.dead) return { outcome: 'offline', reason: 'terminal_gone', detail: 'pane_dead' };
    const a = first.state;
    const b = second.state;
    if (first.screen !== second.screen || a.paneId !== b.paneId || a.cursorX !== b.cursorX || a.cursorY !== b.cursorY || a.historySize !== b.historySize) {
      return { outcome: 'defer', reason: 'terminal_busy', detail: 'output_changed' };
    }
    if (b.inMode) return { outcome: 'defer', reason: 'terminal_busy', detail: 'pane_in_mode' };
    const recent = tail(second.screen);
    if (ACTIVE_MARKERS.some((m) => recent.includes(m))) return { outcome: 'defer', reason: 'terminal_busy', detail: 'active_marker' };
    if (typing(target.runtimeKind, second)) return { outcome: 'defer', reason: 'terminal_busy', detail: 'typing' };
    return { outcome: 'inject', reason: 'gate_idle', detail: 'pane_idle', shell: b.shell };
  }
}

/** Whether a process exists: `kill(pid, 0)` sends nothing; ESRCH means none (EPERM: one of another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** A wait that ends early (rejecting) when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How long a busy terminal's notification waits: 5 s doubling per attempt, at most 5 minutes (AgentInbox's terminalDeferRetryMs). */
export function deferDelayMs(attempt: number): number {
  return Math.min(5000 * 2 ** Math.min(Math.max(1, attempt) - 1, 20), 5 * 60 * 1000);
}
