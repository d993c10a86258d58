/**
 * Tool execution records outside a turn: the age rule (`events.retain_days`) prunes old rows and
 * their artifacts, a call left running by a stopped daemon is interrupted at start, and an
 * agent's records go with it.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices({ start: false, configToml: '[events]\nretain_days = 30\n' });
});
afterEach(async () => {
  await t.close();
});

function record(id: string, at: string) {
  const x = t.s.executions;
  t.s.store.tx(() => {
    x.begin({ execution_id: id, agent_id: 'main', turn_id: 'turn_T', round: 1, tool_call_id: 'c1', tool_name: 'read_file', trust: 'trusted_operator', arguments: { path: 'a' }, created_at: at });
    x.complete(id, { ok: true, classes: ['read'], content: '{"content":"x"}', duration_ms: 3, completed_at: at, artifacts: [{ kind: 'diff', name: 'a', media_type: 'text/x-diff', content: '+x' }] });
  });
}

it('prunes records older than retain_days with their artifacts, interrupts calls a stopped daemon left running, and forgets a deleted agent', () => {
  const now = t.clock.now();
  record('tex_old', new Date(now - 31 * 86_400_000).toISOString());
  record('tex_new', new Date(now - 86_400_000).toISOString());
  t.s.store.tx(() => t.s.executions.begin({ execution_id: 'tex_cut', agent_id: 'main', turn_id: 'turn_U', round: 1, tool_call_id: 'c2', tool_name: 'run_command', trust: 'trusted_operator', arguments: {}, created_at: new Date(now).toISOString() }));
  t.s.executions.start();
  t.s.executions.stop();
  expect(t.s.executions.list('main', { limit: 10 }).map((r) => [r.id, r.status])).toEqual([
    ['tex_new', 'success'],
    ['tex_cut', 'interrupted'],
  ]);
  expect(() => t.s.executions.artifact('main', 'tex_old', 0)).toThrow(/not found/);
  expect(t.s.store.db.prepare("SELECT count(*) FROM tool_execution_artifacts WHERE execution_id = 'tex_old'").pluck().get()).toBe(0);
  expect(t.s.executions.artifact('main', 'tex_new', 0)).toMatchObject({ kind: 'diff', content: '+x', next_offset: null });
  t.s.executions.stopAgent('main');
  expect(t.s.executions.list('main', { limit: 10 })).toEqual([]);
});
