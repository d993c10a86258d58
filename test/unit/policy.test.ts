/**
 * The tool policy's rules in isolation: argument patterns (whose `*` never crosses a shell control
 * character), decisions by class and trust with the strictest class winning, rules before classes,
 * layers (config, template, agent) and the agent layer's validation; the brake's counting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compilePattern, matchesArguments } from '../../src/runtime/policy/index.js';
import { Brake } from '../../src/runtime/run-loop/brake.js';
import { LIMIT_DEFAULTS } from '../../src/config/index.js';
import type { Message } from '../../src/runtime/agents/index.js';
import { testServices, type TestServices } from '../helpers/services.js';

describe('argument patterns', () => {
  it('match the whole value; * and ? stop at shell control characters; \\ escapes', () => {
    const p = (pattern: string, value: string) => compilePattern(pattern).test(value);
    expect(p('npm test*', 'npm test')).toBe(true);
    expect(p('npm test*', 'npm test -- --watch src/a.ts')).toBe(true);
    for (const evil of ['npm test; id', 'npm test && id', 'npm test | sh', 'npm test $(id)', 'npm test `id`', 'npm test > /etc/x', 'npm test\nid', 'npm test (id)']) {
      expect(p('npm test*', evil), evil).toBe(false);
    }
    expect(p('x?z', 'xyz')).toBe(true);
    expect(p('x?z', 'x;z')).toBe(false);
    expect(p('a\\*b', 'a*b')).toBe(true);
    expect(p('a\\*b', 'axxb')).toBe(false);
    expect(p('ls', 'ls -la')).toBe(false);
    expect(p('a.c', 'abc')).toBe(false);
  });

  it('every named argument must match; absent ones are "" and non-strings are JSON', () => {
    expect(matchesArguments({ cmd: 'echo *' }, { cmd: 'echo hi' })).toBe(true);
    expect(matchesArguments({ cmd: 'echo *', workdir: '*' }, { cmd: 'echo hi' })).toBe(true);
    expect(matchesArguments({ network: 'true' }, { network: true })).toBe(true);
    expect(matchesArguments({ network: 'true' }, {})).toBe(false);
    expect(matchesArguments(undefined, { anything: 1 })).toBe(true);
  });
});

describe('PolicyService', () => {
  let t: TestServices;
  afterEach(() => t?.close());
  const call = (tool: string, classes: Array<'read' | 'write' | 'exec' | 'network' | 'agents'>, args: Record<string, unknown> = {}) => ({ tool, classes, arguments: args });

  it('decides by class at the turn trust with the built-in defaults; the strictest class wins', () => {
    t = testServices();
    const d = (c: ReturnType<typeof call>, trust: Parameters<TestServices['s']['policy']['decide']>[2]) => t.s.policy.decide('main', c, trust).decision;
    expect(d(call('run_command', ['exec']), 'trusted_operator')).toBe('allow');
    expect(d(call('run_command', ['exec']), 'trusted_system')).toBe('allow');
    expect(d(call('create_timer', ['write']), 'trusted_integration')).toBe('allow');
    expect(d(call('run_command', ['exec']), 'trusted_integration')).toBe('ask');
    expect(d(call('open_skill', ['read']), 'untrusted_external')).toBe('allow');
    expect(d(call('create_timer', ['write']), 'untrusted_external')).toBe('ask');
    expect(d(call('spawn_agent', ['agents']), 'untrusted_external')).toBe('ask');
  });

  it('layers: config, then the template, then the agent; agent rules are tried first', async () => {
    t = testServices({
      configToml: `[policy]\nrules = [{ tool = "run_command", arguments = { cmd = "make*" }, decision = "allow" }]\n[policy.classes.untrusted_external]\nexec = "deny"\n[policy.templates.default.limits]\nturns_per_hour = 10\n`,
    });
    const { policy } = t.s;
    expect(policy.decide('main', call('run_command', ['exec'], { cmd: 'make all' }), 'untrusted_external')).toMatchObject({ decision: 'allow', source: { kind: 'rule', layer: 'config' } });
    expect(policy.decide('main', call('run_command', ['exec'], { cmd: 'rm -rf /' }), 'untrusted_external').decision).toBe('deny');
    expect(policy.decide('main', call('run_command', ['exec', 'network'], { cmd: 'curl x' }), 'trusted_integration').decision).toBe('ask');
    t.s.agents.create('templated', { template: 'default' });
    expect(policy.effective('templated').limits.turns_per_hour).toBe(10);
    expect(policy.layers('templated').template).toMatchObject({ name: 'default' });
    expect(policy.effective('main').limits.turns_per_hour).toBe(LIMIT_DEFAULTS.turns_per_hour);
    await t.s.store.write(() => policy.patchAgent('main', { rules: [{ tool: 'run_command', decision: 'deny' }], approval_timeout_s: 60 }));
    expect(policy.decide('main', call('run_command', ['exec'], { cmd: 'make all' }), 'trusted_operator')).toMatchObject({ decision: 'deny', source: { kind: 'rule', layer: 'agent', index: 0 } });
    expect(policy.effective('main').approval_timeout_s).toBe(60);
    await t.s.store.write(() => policy.patchAgent('main', { rules: null }));
    expect(policy.effective('main').rules.map((r) => r.source)).toEqual(['config']);
  });

  it('refuses an invalid agent layer with invalid_policy naming the path, and keeps the old one', async () => {
    t = testServices();
    const { policy } = t.s;
    await t.s.store.write(() => policy.patchAgent('main', { limits: { rounds_per_turn: 4 } }));
    for (const patch of [{ classes: { untrusted_external: { exec: 'maybe' } } }, { rules: [{ tool: 'x', arguments: { a: 'b\\' }, decision: 'allow' }] }, { nonsense: 1 }]) {
      expect(() => t.s.store.tx(() => policy.patchAgent('main', patch)), JSON.stringify(patch)).toThrow(expect.objectContaining({ code: 'invalid_policy' }));
    }
    expect(policy.effective('main').limits.rounds_per_turn).toBe(4);
  });
});

describe('the brake', () => {
  const msg = (origin: string) => ({ origin: { kind: origin } }) as unknown as Message;
  const limits = { ...LIMIT_DEFAULTS, turns_per_hour: 5, runtime_turns_in_a_row: 3 };

  it('counts runtime turns in a row (an operator or external message ends the run) and turns in the last hour', () => {
    const b = new Brake();
    let now = 0;
    for (const o of ['operator', 'task', 'timer', 'system']) b.started('a', msg(o), (now += 1000));
    expect(b.check('a', msg('task'), limits, now)).toMatchObject({ limit: 'runtime_turns_in_a_row', value: 3, max: 3 });
    expect(b.check('a', msg('channel'), limits, now)).toBeNull();
    b.started('a', msg('channel'), (now += 1000));
    expect(b.check('a', msg('task'), limits, now)).toMatchObject({ limit: 'turns_per_hour', value: 5 });
    expect(b.check('a', msg('task'), limits, now + 3_600_000 - 4000)).toBeNull();
    b.reset('a');
    expect(b.check('a', msg('task'), limits, now)).toBeNull();
  });
});
