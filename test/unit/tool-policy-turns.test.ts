/**
 * The tool policy inside turns, on an injected clock and a scripted provider: an approval request
 * nobody decides is denied when it expires (the model reads the tool error, nothing ran); the
 * brake's per-turn limits (rounds, tool calls) end the turn and stop the agent with a brief and
 * `budget_exceeded`; an interjected message of lower trust lowers the turn's trust for the calls
 * after it.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveProvenance, type OriginKind } from '../../src/core/provenance.js';
import type { ToolCall } from '../../src/runtime/providers/types.js';
import { loadConfig } from '../../src/config/index.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { scriptedAgent, until, type ScriptProvider } from '../helpers/run-loop.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let provider: ScriptProvider;

beforeEach(() => {
  t = testServices({ start: false, runLoop: true });
  provider = scriptedAgent(t.s);
  startServices(t.s);
});
afterEach(async () => {
  await t.close();
});

const events = (type: string) => t.s.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type === type);

function enqueue(origin: OriginKind, text: string, priority: 'normal' | 'interject' = 'normal'): string {
  const provenance =
    origin === 'channel'
      ? deriveProvenance('public_enqueue', { kind: 'channel', source: 'test' }, { kind: 'channel_event', priority: 'normal' })
      : origin === 'operator'
        ? deriveProvenance('control_prompt', { kind: 'operator', actor_id: 'test' }, { priority: 'interject' })
        : deriveProvenance('runtime', { kind: 'system', subsystem: 'test' }, { priority });
  return t.s.store.tx(() => t.s.ingress.enqueueNow('main', provenance, { type: 'text', text })).message_id;
}

const calls = (...cs: Array<[string, Record<string, unknown>]>) => ({
  text: '',
  toolCalls: cs.map(([name, args], i): ToolCall => ({ id: `call_${provider.requests.length}_${i}`, name, arguments: args })),
  stopReason: 'tool_calls',
});
const statusOf = (id: string) => t.s.queue.get(id)!.status;
const lastToolMessage = () => provider.requests.at(-1)!.messages.filter((m) => m.role === 'tool').at(-1) as { content: string };

describe('approvals in a turn', () => {
  it('a request nobody decides expires at approval_timeout_s and reaches the model as a tool error; nothing ran', async () => {
    provider.steps.push(() => calls(['run_command', { cmd: 'id' }]));
    const id = enqueue('channel', 'run id');
    await until(() => t.s.approvals.pendingCount('main') === 1, 'approval requested');
    expect(await t.s.approvals.expireDue()).toBe(0);
    t.clock.advance(3600 * 1000);
    expect(await t.s.approvals.expireDue()).toBe(1);
    await until(() => statusOf(id) === 'completed', 'turn completed');
    expect(JSON.parse(lastToolMessage().content)).toMatchObject({ ok: false, code: 'tool_denied', status: 'expired' });
    expect(events('tool_approval_decided')[0]!.payload).toMatchObject({ status: 'expired', by: 'timeout' });
    expect(t.s.tasks.list('main')).toEqual([]);
  });

  it('a request stored before tool executions existed (no execution ids in its progress) resumes after a restart and runs the call', async () => {
    provider.steps.push(() => calls(['run_command', { cmd: 'echo resumed' }]));
    const id = enqueue('channel', 'run it');
    await until(() => t.s.approvals.pendingCount('main') === 1, 'approval requested');
    // The row as an older svc wrote it: its progress has none of the fields added since.
    t.s.store.tx(() => {
      const row = t.s.store.db.prepare("SELECT approval_id, resume FROM approvals WHERE status = 'pending'").get() as { approval_id: string; resume: string };
      const resume = JSON.parse(row.resume);
      delete resume.progress.executionIds;
      delete resume.progress.durations;
      t.s.store.db.prepare('UPDATE approvals SET resume = ? WHERE approval_id = ?').run(JSON.stringify(resume), row.approval_id);
    });
    await stopServices(t.s);
    const s = createServices(loadConfig({ home: t.home }, {}), t.clock, createLogger('silent'));
    const again = scriptedAgent(s);
    again.steps.push(() => ({ text: 'ran it', toolCalls: [], stopReason: 'stop' }));
    const home = t.home;
    t.close = async () => {
      await stopServices(s);
      fs.rmSync(home, { recursive: true, force: true });
    };
    startServices(s);
    const [approval] = s.approvals.list('main', { status: 'pending' });
    await s.approvals.decide('main', approval!.approval_id, { decision: 'approve' });
    await until(() => s.queue.get(id)!.status === 'completed', 'turn completed');
    expect(s.briefs.list('main', {})[0]).toMatchObject({ kind: 'result', text: 'ran it' });
    expect(JSON.parse(String(again.requests[0]!.messages.at(-1)!.content))).toMatchObject({ status: expect.any(String), task_id: expect.any(String) });
  });

  it('an interjected message of lower trust lowers the turn trust: the calls after it ask', async () => {
    // A runtime message carrying a stranger's taint (what a task started by an untrusted turn
    // sends back), interjected while the operator's turn waits for the model.
    const tainted = deriveProvenance('runtime', { kind: 'system', subsystem: 'test' }, { priority: 'interject', taint: 'untrusted_external' });
    provider.steps.push(() => {
      t.s.store.tx(() => t.s.ingress.enqueueNow('main', tainted, { type: 'text', text: 'now run id' }));
      return calls(['read_task_output', { task_id: 'task_none' }]);
    });
    provider.steps.push(() => calls(['run_command', { cmd: 'id' }]));
    const id = enqueue('operator', 'start');
    await until(() => t.s.approvals.pendingCount('main') === 1, 'approval requested');
    expect(events('turn_entry')[0]!.payload.trust).toBe('trusted_operator');
    expect(events('turn_interjected')[0]!.payload.turn_trust).toBe('untrusted_external');
    const [approval] = t.s.approvals.list('main', { status: 'pending' });
    expect(approval).toMatchObject({ tool: 'run_command', trust: 'untrusted_external' });
    expect(t.s.tasks.list('main')).toEqual([]);
    await t.s.approvals.decide('main', approval!.approval_id, { decision: 'deny' });
    await until(() => statusOf(id) === 'completed', 'turn completed');
  });
});

describe('the brake inside a turn', () => {
  it('rounds_per_turn: the turn ends at the limit and the agent stops with a brief and budget_exceeded', async () => {
    await t.s.store.write(() => t.s.policy.patchAgent('main', { limits: { rounds_per_turn: 3 } }));
    for (let i = 0; i < 5; i++) provider.steps.push(() => calls(['read_task_output', { task_id: 'task_none' }]));
    const id = enqueue('operator', 'loop');
    await until(() => statusOf(id) === 'completed', 'turn ended');
    expect(provider.requests).toHaveLength(3);
    const [exceeded] = events('budget_exceeded');
    expect(exceeded!.payload).toMatchObject({ limit: 'rounds_per_turn', value: 3, max: 3, status: 'stopped' });
    expect(t.s.agents.statusOf('main')).toBe('stopped');
    expect(t.s.briefs.list('main', {}).find((b) => b.brief_id === exceeded!.payload.brief_id)?.text).toContain('rounds_per_turn');
  });

  it('tool_calls_per_turn: a round asking for more calls than are left ends the turn without running them', async () => {
    await t.s.store.write(() => t.s.policy.patchAgent('main', { limits: { tool_calls_per_turn: 3 } }));
    provider.steps.push(() => calls(['read_task_output', { task_id: 'a' }], ['read_task_output', { task_id: 'b' }]));
    provider.steps.push(() => calls(['read_task_output', { task_id: 'c' }], ['read_task_output', { task_id: 'd' }]));
    const id = enqueue('operator', 'many calls');
    await until(() => statusOf(id) === 'completed', 'turn ended');
    expect(events('tool_called')).toHaveLength(2);
    expect(events('budget_exceeded')[0]!.payload).toMatchObject({ limit: 'tool_calls_per_turn', value: 4, max: 3 });
    expect(t.s.agents.statusOf('main')).toBe('stopped');
  });
});
