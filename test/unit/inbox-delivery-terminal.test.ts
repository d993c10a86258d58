/**
 * The runtime gate of terminal targets (terminal-gate.ts; AgentInbox's src/runtime_gate.ts) on a
 * real tmux server private to each test: what it decides for idle, busy, moded, typing, dead and
 * missing panes and for a runtime whose process is gone; then through the notifier with a
 * ManualClock: a busy pane is never typed into, the notification waits (no failure counted) and
 * is typed once when the pane is idle; a shell pane gets no event text, and nothing typed runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { abortableSleep, deferDelayMs, isShell, processAlive, TerminalGate, type GateTarget } from '../../src/inbox/delivery/terminal-gate.js';
import { tmuxFor } from '../../src/inbox/delivery/tmux.js';
import { waitFor } from '../helpers/daemon.js';
import { privateTmux, servicesPerTest, tick as tickAll } from '../helpers/inbox-delivery.js';

const server = privateTmux();
const { tmux } = server;
let dir: string;
let socket: string;
beforeEach(() => {
  [dir, socket] = [server.dir(), server.socket()];
});

/** A session whose one pane runs `command` (in `dir`), without the user's tmux configuration. */
function pane(name: string, command: string): string {
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', '120', '-y', '30', '-c', dir, command);
  return `${name}:0.0`;
}
/** What the pane shows, wrapped lines joined. */
const screen = (target: string) => tmux('capture-pane', '-p', '-J', '-t', target);
const foreground = (target: string) => tmux('display-message', '-p', '-t', target, '#{pane_current_command}').trim();

/** A pane that prints a line every 100 ms until `<dir>/stop` exists, then reads its input silently. */
const BUSY = `sh -c 'while [ ! -e stop ]; do echo tick; date +%N; sleep 0.1; done; exec cat >/dev/null'`;
const IDLE = 'exec cat >/dev/null';

describe('the runtime gate on a real tmux pane', () => {
  const gate = new TerminalGate({ sampleMs: 300, sleep: abortableSleep, processAlive });
  const decide = (tmuxTarget: string, runtime: Partial<GateTarget> = {}) =>
    gate.evaluate({ tmuxTarget, runtimeKind: null, runtimePid: null, ...runtime }, tmuxFor({ bin: 'tmux', socket, timeoutMs: 5000, signal: new AbortController().signal }), new AbortController().signal);

  it('should inject into an idle pane and say whether its foreground program is a shell', async () => {
    const idle = pane('idle', IDLE);
    await waitFor(() => foreground(idle) === 'cat', 5000);
    expect(await decide(idle)).toEqual({ outcome: 'inject', reason: 'gate_idle', detail: 'pane_idle', shell: false });
    const shell = pane('shell', 'sh');
    await waitFor(() => screen(shell).trim() !== '', 5000);
    expect(await decide(shell)).toMatchObject({ outcome: 'inject', shell: true });
  });

  it('should defer while output arrives, while the pane is in copy mode, and while a working marker shows', async () => {
    const busy = pane('busy', BUSY);
    expect(await decide(busy)).toEqual({ outcome: 'defer', reason: 'terminal_busy', detail: 'output_changed' });
    fs.writeFileSync(path.join(dir, 'stop'), '');
    await waitFor(() => foreground(busy) === 'cat', 5000);
    expect(await decide(busy)).toMatchObject({ outcome: 'inject' });
    tmux('copy-mode', '-t', busy);
    expect(await decide(busy)).toEqual({ outcome: 'defer', reason: 'terminal_busy', detail: 'pane_in_mode' });
    const working = pane('working', `sh -c 'printf "• Working (12s • esc to interrupt)\\n"; exec cat >/dev/null'`);
    await waitFor(() => foreground(working) === 'cat', 5000);
    expect(await decide(working)).toEqual({ outcome: 'defer', reason: 'terminal_busy', detail: 'active_marker' });
  });

  it("should defer while the user is typing at the runtime's prompt, and inject at an empty prompt", async () => {
    const typing = pane('typing', `sh -c 'printf "› fix the flaky test"; exec cat >/dev/null'`);
    await waitFor(() => foreground(typing) === 'cat', 5000);
    expect(await decide(typing, { runtimeKind: 'codex' })).toEqual({ outcome: 'defer', reason: 'terminal_busy', detail: 'typing' });
    // The prompt is the runtime's own: an unknown runtime has none, so the same pane is idle.
    expect(await decide(typing, { runtimeKind: 'unknown' })).toMatchObject({ outcome: 'inject' });
    const empty = pane('empty', `sh -c 'printf "❯ "; exec cat >/dev/null'`);
    await waitFor(() => foreground(empty) === 'cat', 5000);
    expect(await decide(empty, { runtimeKind: 'claude_code' })).toMatchObject({ outcome: 'inject', reason: 'gate_idle' });
  });

  it('should take a missing or dead pane offline (terminal_gone), where tmux 3 display-message alone would not tell', async () => {
    pane('here', IDLE);
    for (const missing of ['%999', 'nosuch:0', 'here:7', 'here:0.5']) expect(await decide(missing), missing).toEqual({ outcome: 'offline', reason: 'terminal_gone', detail: 'pane_missing' });
    const dead = pane('dead', IDLE);
    tmux('set-option', '-w', '-t', dead, 'remain-on-exit', 'on');
    tmux('respawn-pane', '-k', '-t', dead, 'true');
    await waitFor(() => tmux('display-message', '-p', '-t', dead, '#{pane_dead}').trim() === '1', 5000);
    expect(await decide(dead)).toEqual({ outcome: 'offline', reason: 'terminal_gone', detail: 'pane_dead' });
  });

  it("should take a registered Codex or Claude Code session offline when its process is gone (runtime_gone), and only then", async () => {
    const idle = pane('idle', IDLE);
    const exited = spawnSync('true').pid!;
    expect(await decide(idle, { runtimeKind: 'codex', runtimePid: exited })).toEqual({ outcome: 'offline', reason: 'runtime_gone', detail: 'process_missing' });
    expect(await decide(idle, { runtimeKind: 'claude_code', runtimePid: process.pid })).toMatchObject({ outcome: 'inject' });
    // No probe for other runtimes, and never a pid that is not a positive integer (kill(0 or -1) would mean a group).
    expect(await decide(idle, { runtimeKind: 'unknown', runtimePid: exited })).toMatchObject({ outcome: 'inject' });
    for (const pid of [0, -1, 1.5]) expect(await decide(idle, { runtimeKind: 'codex', runtimePid: pid })).toMatchObject({ outcome: 'inject' });
  });

  it('should know shells by their process name, login shells included', () => {
    for (const shell of ['sh', 'bash', '-bash', 'zsh', '-zsh', 'fish', 'dash', '/bin/sh']) expect(isShell(shell), shell).toBe(true);
    for (const program of ['codex', 'claude', 'node', 'cat', 'vim', 'bashful', '']) expect(isShell(program), program).toBe(false);
  });

  it("should wait 5 s, doubling per attempt, at most 5 minutes (AgentInbox's terminalDeferRetryMs)", () => {
    expect([1, 2, 3, 4, 6, 7, 100].map(deferDelayMs)).toEqual([5000, 10_000, 20_000, 40_000, 160_000, 300_000, 300_000]);
  });
});

describe('terminal notifications through the notifier', () => {
  const services = servicesPerTest('[delivery]\nretry_initial_ms = 1000\nmax_failures = 3\n');
  const inbox = () => services().s.inbox;
  const tick = (ms: number) => tickAll(services(), ms);

  it('should not type into a busy pane, wait without counting failures, and type the text once when the pane is idle', async () => {
    const busy = pane('busy', BUSY);
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: busy, tmuxSocket: socket });
    const entry = inbox().entries.create(agentId, { kind: 'direct', message: 'deploy finished' });
    await tick(COALESCE_MS);
    // Four looks at the busy pane (5 s, 10 s, 20 s apart): more than max_failures, and none is a failure.
    for (const wait of [5000, 10_000, 20_000]) {
      expect(screen(busy)).not.toContain('AgentInbox');
      await tick(wait - 1);
      expect(inbox().notifier.notificationsOf(target.targetId)[0]).toMatchObject({ status: 'pending' });
      await tick(1);
    }
    expect(inbox().notifier.notificationsOf(target.targetId)).toEqual([expect.objectContaining({ status: 'pending', attempts: 4 })]);
    expect(inbox().targets.get(agentId, target.targetId)).toMatchObject({ status: 'active', consecutiveFailures: 0, lastError: null });
    expect(screen(busy)).not.toContain('AgentInbox');
    fs.writeFileSync(path.join(dir, 'stop'), '');
    await waitFor(() => foreground(busy) === 'cat', 5000);
    await tick(40_000);
    const want = `AgentInbox: 1 unacked item for agent ${agentId}. Latest entryId: ${entry.entryId}. Preview: deploy finished. Read the inbox for full details if needed.`;
    await waitFor(() => screen(busy).includes(want), 5000);
    expect(inbox().notifier.notificationsOf(target.targetId)).toEqual([expect.objectContaining({ status: 'sent', attempts: 5 })]);
    await tick(5 * 60_000);
    expect(screen(busy).split(want).length - 1).toBe(1);
  });

  it('should type no event text into a shell, and nothing it types runs', async () => {
    const shell = pane('shell', 'sh');
    await waitFor(() => screen(shell).trim() !== '', 5000);
    const { agentId } = inbox().agents.create({});
    inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: shell, tmuxSocket: socket });
    const entry = inbox().entries.create(agentId, { kind: 'direct', message: '$(touch pwned); touch pwned2\ntouch pwned3' });
    await tick(COALESCE_MS);
    const want = `AgentInbox: 1 unacked item for agent ${agentId}. Latest entryId: ${entry.entryId}. Please read the inbox, process them, and ack when finished.`;
    await waitFor(() => screen(shell).includes(want), 5000);
    await waitFor(() => /not found/.test(screen(shell)), 5000);
    expect(screen(shell)).not.toContain('touch');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
  });

  it('should type event text into a program as one line: control characters become spaces, an option-like text stays text', async () => {
    const idle = pane('idle', IDLE);
    await waitFor(() => foreground(idle) === 'cat', 5000);
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: idle, tmuxSocket: socket });
    inbox().entries.create(agentId, { kind: 'direct', message: '-X cancel\n\u001b[2Jcleared?\r\u0007 \u202eevil' });
    await tick(COALESCE_MS);
    await waitFor(() => screen(idle).includes('Preview: -X cancel [2Jcleared? evil.'), 5000);
    expect(inbox().targets.get(agentId, target.targetId)).toMatchObject({ status: 'active', consecutiveFailures: 0 });
  });
});
