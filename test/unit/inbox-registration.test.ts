/**
 * Terminal registrations (src/inbox/delivery/registration.ts, terminal-sessions.ts): a terminal is
 * bound to one agent through a terminal target on its tmux pane; the same terminal again is the
 * same binding; moving a binding needs forceRebind; a refused registration changes nothing; a
 * runtime session follows its thread across panes; hand-made terminal targets are never rebound
 * away. And the terminal deliverer: only a pane id reaches tmux, as one argument of an argument
 * array.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TerminalDelivery } from '../../src/inbox/delivery/terminal.js';
import type { PendingNotification, TargetWithSecret } from '../../src/inbox/delivery/types.js';
import { TMUX_PANE_ID, type TerminalRegistration } from '../../src/inbox/delivery/terminal-sessions.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
const savedTmux = process.env.TMUX;
beforeAll(() => {
  // No test here may reach a tmux server of whoever runs it.
  process.env.TMUX = '/nonexistent/svc-unit-tmux,0,0';
});
afterAll(() => {
  if (savedTmux === undefined) delete process.env.TMUX;
  else process.env.TMUX = savedTmux;
});
beforeEach(() => {
  t = testServices();
});
afterEach(async () => {
  await t.close();
});

const inbox = () => t.s.inbox;

function pane(tmuxPaneId: string, session: Partial<TerminalRegistration['session']> = {}): TerminalRegistration {
  return {
    tmuxPaneId,
    session: { backend: 'tmux', runtimeKind: 'unknown', runtimeSessionId: null, runtimePid: null, tty: null, termProgram: 'tmux', itermSessionId: null, ...session },
  };
}

const register = (terminal: TerminalRegistration, more: { agentId?: string; forceRebind?: boolean } = {}) => inbox().registration.register({ terminal, ...more });

/** Every terminal target as [agentId, tmuxTarget]. */
const bindings = () =>
  inbox()
    .targets.terminals()
    .map((x) => [x.agentId, x.tmuxTarget]);

async function conflict(p: Promise<unknown>): Promise<Record<string, unknown>> {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { status: number; code: string; extra: Record<string, unknown> } | null;
  expect(err, 'a registration_conflict').not.toBeNull();
  expect([err!.status, err!.code]).toEqual([409, 'registration_conflict']);
  return err!.extra;
}

describe('terminal registration', () => {
  it('binds a new agent to the pane through a terminal target with the session fields', async () => {
    const r = await register(pane('%3', { runtimeKind: 'codex', runtimeSessionId: 'thread-1', runtimePid: 42, tty: '/dev/pts/4' }));
    expect(r.created).toBe(true);
    expect(r.agent.agentId).toMatch(/^agt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(r.webhookTarget).toBeNull();
    expect(r.terminalTarget).toMatchObject({
      agentId: r.agent.agentId,
      kind: 'terminal',
      tmuxTarget: '%3',
      tmuxSocket: null,
      backend: 'tmux',
      tmuxPaneId: '%3',
      runtimeKind: 'codex',
      runtimeSessionId: 'thread-1',
      runtimePid: 42,
      tty: '/dev/pts/4',
      termProgram: 'tmux',
      itermSessionId: null,
      status: 'active',
    });
    const answer = inbox().registration.answer(r);
    expect(answer).toMatchObject({ activationChannel: 'terminal', webhookTarget: null, agent: { status: 'active', runtimeKind: 'codex', runtimeSessionId: 'thread-1' } });
    expect(inbox().agentViews.withTargets(r.agent).activationTargets).toEqual([r.terminalTarget]);
  });

  it('is the same binding when the same terminal registers again, with the fields updated', async () => {
    const first = await register(pane('%3'));
    const again = await register(pane('%3', { termProgram: 'other' }));
    expect(again.created).toBe(false);
    expect(again.agent.agentId).toBe(first.agent.agentId);
    expect(again.terminalTarget!.targetId).toBe(first.terminalTarget!.targetId);
    expect(again.terminalTarget!.termProgram).toBe('other');
    expect(bindings()).toEqual([[first.agent.agentId, '%3']]);
    // With the agent's id it is the same binding too.
    const named = await register(pane('%3'), { agentId: first.agent.agentId });
    expect(named.terminalTarget!.targetId).toBe(first.terminalTarget!.targetId);
  });

  it('refuses to move a terminal to another agent without forceRebind, changing nothing; with it, moves the binding', async () => {
    const a = await register(pane('%3'), { agentId: 'agent-a' });
    expect(await conflict(register(pane('%3'), { agentId: 'agent-b' }))).toEqual({ agentId: 'agent-b', targetId: a.terminalTarget!.targetId, boundAgentId: 'agent-a' });
    expect(inbox().agents.exists('agent-b')).toBe(false);
    expect(bindings()).toEqual([['agent-a', '%3']]);

    const b = await register(pane('%3'), { agentId: 'agent-b', forceRebind: true });
    expect(b.created).toBe(true);
    expect(bindings()).toEqual([['agent-b', '%3']]);
    expect(inbox().agents.exists('agent-a')).toBe(true);
  });

  it('refuses to move an agent to another terminal without forceRebind; with it, the old binding goes', async () => {
    const first = await register(pane('%3'), { agentId: 'agent-a' });
    const extra = await conflict(register(pane('%4'), { agentId: 'agent-a' }));
    expect(extra).toEqual({ agentId: 'agent-a', targetId: first.terminalTarget!.targetId, boundAgentId: 'agent-a' });
    expect(bindings()).toEqual([['agent-a', '%3']]);
    await register(pane('%4'), { agentId: 'agent-a', forceRebind: true });
    expect(bindings()).toEqual([['agent-a', '%4']]);
  });

  it('follows a runtime session into another pane: the same agent and target, typing into the new pane', async () => {
    const first = await register(pane('%3', { runtimeKind: 'codex', runtimeSessionId: 'thread-1' }));
    const moved = await register(pane('%8', { runtimeKind: 'codex', runtimeSessionId: 'thread-1' }));
    expect([moved.created, moved.agent.agentId, moved.terminalTarget!.targetId]).toEqual([false, first.agent.agentId, first.terminalTarget!.targetId]);
    expect(moved.terminalTarget).toMatchObject({ tmuxTarget: '%8', tmuxPaneId: '%8' });
    // Another runtime's session of the same id is another terminal; so is a new thread in another pane.
    const other = await register(pane('%9', { runtimeKind: 'claude_code', runtimeSessionId: 'thread-1' }));
    expect(other.agent.agentId).not.toBe(first.agent.agentId);
    expect(bindings()).toHaveLength(2);
  });

  it('never rebinds a terminal target added by hand away, and counts one on a pane id as that pane', async () => {
    const { agentId } = inbox().agents.create({ name: 'manual' });
    const byHand = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: 'work:0.1' });
    const elsewhere = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: '%5', tmuxSocket: '/tmp/other.sock' });
    expect([byHand.tmuxPaneId, byHand.runtimeKind, elsewhere.tmuxPaneId]).toEqual([null, null, null]);
    await register(pane('%3'), { agentId, forceRebind: true });
    expect(inbox().targets.list(agentId).map((x) => x.tmuxTarget)).toEqual(['work:0.1', '%5', '%3']);

    // A hand-made target on pane %6 of the daemon's server is that pane's binding.
    const owner = inbox().agents.create({});
    const onPane = inbox().targets.create(owner.agentId, { kind: 'terminal', tmuxTarget: '%6' });
    expect(onPane.tmuxPaneId).toBe('%6');
    const r = await register(pane('%6'));
    expect([r.created, r.agent.agentId, r.terminalTarget!.targetId]).toEqual([false, owner.agentId, onPane.targetId]);
    expect(r.terminalTarget!.runtimeKind).toBe('unknown');
  });

  it('sits beside a webhook registration of the same agent', async () => {
    await inbox().registration.register({ agentId: 'agent-w', webhookUrl: 'http://127.0.0.1:9/hook' });
    const r = await register(pane('%3'), { agentId: 'agent-w' });
    expect(inbox().targets.list('agent-w').map((x) => x.kind)).toEqual(['webhook', 'terminal']);
    expect(inbox().registration.answer(r).activationChannel).toBe('terminal');
  });

  it('resumes an offline target when its terminal registers again', async () => {
    const first = await register(pane('%3'));
    const targetId = first.terminalTarget!.targetId;
    inbox().targets.markFailed(targetId, 'tmux failed: no server');
    inbox().targets.markOffline(targetId, 'max_failures');
    expect(inbox().targets.get(first.agent.agentId, targetId).status).toBe('offline');
    const again = await register(pane('%3'));
    expect(again.terminalTarget).toMatchObject({ targetId, status: 'active', offlineReason: null, consecutiveFailures: 0 });
  });

  it('refuses an invalid agent id and creates nothing', async () => {
    await expect(register(pane('%3'), { agentId: 'bad id!' })).rejects.toMatchObject({ status: 400, code: 'invalid_agent_id' });
    expect(inbox().agents.list()).toEqual([]);
    expect(bindings()).toEqual([]);
  });

  it('stores a session only on a pane id of the daemon server (a guard below the request schema)', async () => {
    const { agentId } = inbox().agents.create({});
    for (const tmuxTarget of ['work:0.1', '%3;id', '%3 ', '-t']) {
      expect(() => inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget, session: pane('%3').session })).toThrow(/pane id/);
    }
    expect(() => inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: '%3', tmuxSocket: '/tmp/x', session: pane('%3').session })).toThrow(/pane id/);
    const r = await register(pane('%3'));
    expect(() => inbox().targets.rebindTerminal(r.terminalTarget!.targetId, pane('$(id)'))).toThrow(/pane id/);
    expect(inbox().targets.terminals().map((x) => x.tmuxTarget)).toEqual(['%3']);
  });
});

describe('the pane id pattern', () => {
  it('takes what tmux prints as #{pane_id} and nothing else', () => {
    for (const ok of ['%0', '%3', '%123456789']) expect(TMUX_PANE_ID.test(ok), ok).toBe(true);
    for (const bad of ['', '%', '3', '%-1', '%1a', '%1\n', '%1 ', ' %1', '%%1', '%1234567890', '%1;id', 'work:0.1', '%１']) expect(TMUX_PANE_ID.test(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe('terminal deliverer', () => {
  let dir: string;
  let log: string;
  let fakeTmux: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-faketmux-'));
    log = path.join(dir, 'argv.log');
    fakeTmux = path.join(dir, 'tmux');
    // Records each argument on its own line, one call after another; shows the gate an idle pane running `cat`.
    const idle = `[ "$1" = display-message ] && printf '%%7\\t0\\t0\\t0\\t0\\t50\\t0\\tcat\\n'\nexit 0\n`;
    fs.writeFileSync(fakeTmux, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\necho --- >> '${log}'\n${idle}`, { mode: 0o755 });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const calls = () =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('---\n')
          .filter(Boolean)
          .map((c) => c.split('\n').filter((l, i, all) => i < all.length - 1))
      : [];

  function target(tmuxTarget: string, runtimeKind: string | null): TargetWithSecret {
    return { targetId: 'tgt_x', agentId: 'agt_x', kind: 'terminal', url: null, tmuxTarget, tmuxSocket: null, runtimeAgentId: null, backend: 'tmux', tmuxPaneId: null, runtimeKind, runtimeSessionId: null, runtimePid: null, tty: null, termProgram: null, itermSessionId: null, status: 'active', offlineReason: null, consecutiveFailures: 0, lastError: null, notifiedThroughEntryId: null, lastAttemptAt: null, lastSuccessAt: null, aggregation: null, createdAt: '', updatedAt: '', offlineSince: null, lastDeliveredAt: null, mode: 'agent_prompt', notifyLeaseMs: 600000, minUnackedItems: null, notificationPolicy: { notifyLeaseMs: 600000, minUnackedItems: null }, lastSeenAt: '', secret: null };
  }
  const note: PendingNotification = {
    notificationId: 'ntf_x',
    targetId: 'tgt_x',
    agentId: 'agt_x',
    attempts: 0,
    body: '',
    payload: {
      ...{ kind: 'agentinbox.activation', activationId: 'act_x', inboxId: 'inb_x', targetKind: 'terminal', subscriptionIds: [], sourceIds: [], latestEntryId: 'ent_1' },
      ...{ newEntryCount: 1, newItemCount: 1, summary: '1 new item for agent agt_x', latestSummary: 'direct_text_message', deliveredAt: null },
      ...{ type: 'inbox.entries', notificationId: 'ntf_x', agentId: 'agt_x', targetId: 'tgt_x', reason: 'entries', entryCount: 1, firstEntryId: 'ent_1', lastEntryId: 'ent_1', truncated: false },
      ...{ entries: [{ kind: 'item', item: { rawPayload: { type: 'direct_text_message', message: 'done; $(id) `id`', sender: null }, metadata: {} } } as never], createdAt: '' },
    },
  };
  const deliver = (x: TargetWithSecret) => new TerminalDelivery({ timeoutMs: () => 5000, tmuxPath: fakeTmux }).deliver(x, note, new AbortController().signal);

  it("passes a registered terminal's pane id and the line as single arguments, with no shell", async () => {
    const r = await register(pane('%7'));
    const registered = inbox().targets.withSecret(inbox().targets.find(r.terminalTarget!.targetId)!);
    expect(await deliver(registered)).toEqual({ ok: true });
    // The runtime gate looks twice first (the same idle pane: it types).
    const look = [
      ['capture-pane', '-p', '-t', '%7'],
      ['display-message', '-p', '-t', '%7', '#{pane_id}\t#{pane_dead}\t#{pane_in_mode}\t#{cursor_x}\t#{cursor_y}\t#{pane_height}\t#{history_size}\t#{pane_current_command}'],
    ];
    expect(calls()).toEqual([
      ...look,
      ...look,
      ['send-keys', '-t', '%7', '-l', '--', 'AgentInbox: 1 unacked item for agent agt_x. Latest entryId: ent_1. Preview: done; $(id) `id`. Read the inbox for full details if needed.'],
      ['send-keys', '-t', '%7', 'Enter'],
    ]);
  });

  it('never runs tmux for a registered session whose target is not a pane id', async () => {
    for (const bad of ['work:0.1', '%7;id', '-t']) expect(await deliver(target(bad, 'codex'))).toMatchObject({ ok: false, error: expect.stringMatching(/pane id/) });
    expect(calls()).toEqual([]);
  });
});
