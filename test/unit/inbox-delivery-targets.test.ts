/**
 * Target kinds other than webhook and target management: runtime targets land in the
 * control-plane agent's queue with the inbox provenance; terminal targets type into a real tmux
 * pane (AgentInbox's wording; the runtime gate: test/unit/inbox-delivery-terminal.test.ts);
 * not-found and validation answers; deleting a target drops its pending notifications.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { errorOf, privateTmux, servicesPerTest, tick as tickAll } from '../helpers/inbox-delivery.js';
import type { TestServices } from '../helpers/services.js';
import { waitFor } from '../helpers/daemon.js';

const services = servicesPerTest('[delivery]\nretry_initial_ms = 1000\nmax_failures = 3\n');
let t: TestServices;
beforeEach(() => {
  t = services();
});

const inbox = () => t.s.inbox;
const tick = (ms: number) => tickAll(t, ms);
const code = errorOf;

describe('runtime targets', () => {
  it('should enqueue one webhook_event with the inbox provenance into the control-plane agent queue', async () => {
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'runtime', runtimeAgentId: 'main' });
    expect(target).not.toHaveProperty('secret');
    inbox().entries.create(agentId, { kind: 'direct', message: 'hello' });
    inbox().entries.create(agentId, { kind: 'direct', message: 'again' });
    await tick(COALESCE_MS);
    const message = t.s.queue.claimNext('main');
    expect(message).toMatchObject({
      kind: 'webhook_event',
      origin: { kind: 'webhook', source: 'inbox' },
      trust: 'trusted_integration',
      authority_class: 'integration_signal',
      priority: 'normal',
      delivery_surface: 'inbox',
      metadata: { inbox_agent_id: agentId, inbox_target_id: target.targetId },
    });
    expect(message!.body).toMatchObject({ type: 'json', value: { type: 'inbox.entries', agentId, entryCount: 2 } });
    expect(t.s.queue.claimNext('main')).toBeNull();
    expect(inbox().targets.get(agentId, target.targetId)).toMatchObject({ status: 'active', consecutiveFailures: 0 });
  });

  it('should refuse an unknown control-plane agent with 400 runtime_agent_not_found', () => {
    const { agentId } = inbox().agents.create({});
    expect(code(() => inbox().targets.create(agentId, { kind: 'runtime', runtimeAgentId: 'nobody' }))).toBe('400 runtime_agent_not_found');
    expect(inbox().targets.list(agentId)).toEqual([]);
  });
});

describe('target management', () => {
  it('should answer 404 for unknown agents and targets', () => {
    const { agentId } = inbox().agents.create({});
    expect(code(() => inbox().targets.list('agt_nope'))).toBe('404 agent_not_found');
    expect(code(() => inbox().targets.create('agt_nope', { kind: 'webhook', url: 'http://127.0.0.1:9/' }))).toBe('404 agent_not_found');
    expect(code(() => inbox().targets.delete(agentId, 'tgt_nope'))).toBe('404 target_not_found');
    const other = inbox().agents.create({}).agentId;
    const target = inbox().targets.create(other, { kind: 'terminal', tmuxTarget: 'x' });
    expect(code(() => inbox().targets.delete(agentId, target.targetId))).toBe('404 target_not_found');
  });

  it('should drop pending notifications with the target', async () => {
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'webhook', url: 'http://127.0.0.1:9/' });
    inbox().entries.create(agentId, { kind: 'direct', message: 'x' });
    await tick(COALESCE_MS);
    expect(inbox().notifier.notificationsOf(target.targetId)).toHaveLength(1);
    inbox().targets.delete(agentId, target.targetId);
    expect(inbox().notifier.notificationsOf(target.targetId)).toEqual([]);
    expect(inbox().targets.list(agentId)).toEqual([]);
  });

  it('should remove the targets and notifications of a deleted agent', async () => {
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'webhook', url: 'http://127.0.0.1:9/' });
    inbox().entries.create(agentId, { kind: 'direct', message: 'x' });
    await tick(COALESCE_MS);
    inbox().agents.delete(agentId);
    expect(inbox().notifier.notificationsOf(target.targetId)).toEqual([]);
    expect(inbox().targets.allRows()).toEqual([]);
  });

  it('should gc delivered notifications older than a day', async () => {
    const { agentId } = inbox().agents.create({});
    inbox().targets.create(agentId, { kind: 'runtime', runtimeAgentId: 'main' });
    inbox().entries.create(agentId, { kind: 'direct', message: 'x' });
    await tick(COALESCE_MS);
    expect(inbox().gc().removed).toEqual({ subscriptionsRemoved: 0, agentsRemoved: 0, openedInboxesClosed: 0, ackedEntriesRemoved: 0, notificationsRemoved: 0 });
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect(inbox().gc().removed).toEqual({ subscriptionsRemoved: 0, agentsRemoved: 0, openedInboxesClosed: 0, ackedEntriesRemoved: 0, notificationsRemoved: 1 });
  });
});

describe('terminal targets (real tmux server)', () => {
  const server = privateTmux();
  const { tmux } = server;
  let socket: string;
  let dir: string;

  beforeEach(() => {
    [socket, dir] = [server.socket(), server.dir()];
    // A pane running `cat`, so typed lines come back as they were typed.
    tmux('new-session', '-d', '-s', 'inbox', '-x', '200', '-y', '50', 'cat');
  });

  it('should type one line per notification into the pane, then Enter', async () => {
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: 'inbox:0.0', tmuxSocket: socket });
    inbox().entries.create(agentId, { kind: 'direct', message: 'build finished; $(rm -rf /) stays text' });
    await tick(COALESCE_MS);
    expect(inbox().targets.get(agentId, target.targetId)).toMatchObject({ consecutiveFailures: 0, lastError: null });
    const screen = await waitFor(() => {
      const text = tmux('capture-pane', '-p', '-t', 'inbox:0.0');
      return text.includes('stays text') ? text : null;
    }, 10_000);
    const entryId = inbox().entries.unacked(agentId, { limit: 1 })[0]!.entryId;
    expect(screen).toContain(`AgentInbox: 1 unacked item for agent ${agentId}. Latest entryId: ${entryId}. Preview: build finished; $(rm -rf /) stays text.`);
  });

  it("should take the target offline when its pane is gone (the runtime gate's terminal_gone), and type nothing", async () => {
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: 'nosuch:9', tmuxSocket: socket });
    inbox().entries.create(agentId, { kind: 'direct', message: 'x' });
    await tick(COALESCE_MS);
    expect(inbox().targets.get(agentId, target.targetId)).toMatchObject({ status: 'offline', offlineReason: 'gone' });
    expect(inbox().targets.get(agentId, target.targetId).lastError).toBe('runtime gate: terminal_gone (pane_missing)');
  });

  it('should count a tmux server that is not there as a failed attempt', async () => {
    const { agentId } = inbox().agents.create({});
    const target = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: 'inbox:0.0', tmuxSocket: path.join(dir, 'no-server') });
    inbox().entries.create(agentId, { kind: 'direct', message: 'x' });
    await tick(COALESCE_MS);
    expect(inbox().targets.get(agentId, target.targetId)).toMatchObject({ consecutiveFailures: 1, status: 'active' });
    expect(inbox().targets.get(agentId, target.targetId).lastError).toMatch(/tmux failed/);
  });
});

describe('webhook secrets', () => {
  it('are kept out of the database: in the secret store while the target exists, gone with it', () => {
    const { agentId } = inbox().agents.create({});
    const created = inbox().targets.create(agentId, { kind: 'webhook', url: 'http://127.0.0.1:9/hook' });
    const secret = (created as { secret?: string }).secret!;
    expect(secret).toMatch(/^whsec_/);
    t.s.store.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const f of fs.readdirSync(t.home).filter((n) => n.startsWith('svc.db'))) {
      expect(fs.readFileSync(path.join(t.home, f)).includes(secret)).toBe(false);
    }
    expect(t.s.secrets.get(`inbox-target/${created.targetId}/secret`)).toBe(secret);
    expect(JSON.stringify(inbox().targets.list(agentId))).not.toContain(secret);
    inbox().targets.delete(agentId, created.targetId);
    expect(t.s.secrets.refs('inbox-target/')).toEqual([]);
  });
});
