/**
 * Terminal sessions: an agent registered from inside a terminal, AgentInbox's way (`agentinbox
 * agent register` without `--agent-id`, or the registration its commands make when they act on
 * "the current agent"). The client sends what it detects: `backend` (`tmux`), `tmuxPaneId` (its
 * `$TMUX_PANE`), `runtimeKind` and `runtimeSessionId` (a Codex thread or a Claude Code session),
 * `runtimePid`, `tty`, `termProgram`, `itermSessionId`. svc binds the session to a terminal target
 * that types into that pane of the daemon's tmux server (`tmuxTarget` = the pane id, no
 * `tmuxSocket`), and lists the session fields on the target so the client finds its current agent
 * in `GET /agents?include_targets=true`.
 *
 * Only the pane id ever reaches tmux, and only in the shape `%<digits>`: the other fields are
 * stored and shown, never executed.
 *
 * A terminal's identity is its runtime session when it has one (the same Codex thread in another
 * pane is the same terminal: the target moves to the new pane), else its pane.
 */

/** A tmux pane id as tmux prints `#{pane_id}`; nothing else is ever passed to `tmux -t` from a registration. */
export const TMUX_PANE_ID = /^%\d{1,9}$/;

export function isTmuxPaneId(value: unknown): value is string {
  return typeof value === 'string' && TMUX_PANE_ID.test(value);
}

/** What a terminal registration stores beside the pane (AgentInbox's terminal target fields). */
export interface TerminalSession {
  backend: 'tmux';
  /** `codex`, `claude_code` or `unknown` as the client sends them. */
  runtimeKind: string;
  runtimeSessionId: string | null;
  runtimePid: number | null;
  tty: string | null;
  termProgram: string | null;
  itermSessionId: string | null;
}

export interface TerminalRegistration {
  tmuxPaneId: string;
  session: TerminalSession;
}

/** The identity fields of a terminal target, as `toTarget` lists them. */
export interface TerminalIdentity {
  kind: string;
  tmuxPaneId: string | null;
  runtimeKind: string | null;
  runtimeSessionId: string | null;
}

/**
 * The target a registration rebinds: one with its runtime session first (it may sit in another
 * pane now), else one in its pane.
 */
export function findTerminal<T extends TerminalIdentity>(targets: T[], reg: TerminalRegistration): T | undefined {
  const { runtimeKind, runtimeSessionId } = reg.session;
  const bySession = runtimeSessionId === null ? undefined : targets.find((t) => t.kind === 'terminal' && t.runtimeSessionId === runtimeSessionId && t.runtimeKind === runtimeKind);
  return bySession ?? targets.find((t) => t.kind === 'terminal' && t.tmuxPaneId === reg.tmuxPaneId);
}

/** A terminal target bound by a registration (it has a session; a hand-made terminal target has none). */
export function isSessionBound(target: TerminalIdentity): boolean {
  return target.kind === 'terminal' && target.runtimeKind !== null;
}
