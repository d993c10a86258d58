/**
 * AgentInbox's filter language runs inside the append's transaction, like CEL (cel-cost.test.ts),
 * on expressions and events a stranger may have written. What is checked, by what is counted and
 * not by time: the prototype chain is never read, however a key is spelt; deep nesting is refused
 * before jexl parses it (its parser takes seconds for a few thousand brackets); huge strings,
 * lists, format/join and nested collection filters stop at the evaluation's cost limit; `matches`
 * and `glob` run in time linear in their input where JavaScript's engine backtracks for ever, and
 * still answer as RegExp.prototype.test does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { AgentInboxBindings, compileAgentInbox, MAX_BRACKET_NESTING, MAX_DEPTH } from '../../src/inbox/subscriptions/agentinbox-expr.js';
import { compileFilter, CostBudget, EVAL_COST_BASE } from '../../src/inbox/subscriptions/filters.js';
import { compileGlob, compileRegex } from '../../src/inbox/subscriptions/linear-regex.js';
import type { StoredEvent } from '../../src/inbox/streams/types.js';

const event = (data: unknown, metadata: Record<string, unknown> = {}): StoredEvent => ({
  sourceId: 'src_a',
  offset: 1,
  id: 'e1',
  type: 't',
  subject: null,
  time: '',
  data,
  metadata,
  appendedAt: '',
  pruned: false,
});

function refusal(expr: string): AppError {
  try {
    compileFilter({ expr });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected ${expr} to be refused`);
}

/** One evaluation as the matcher runs it (the event admitted by its JSON length first). */
function pass(expr: string, e: StoredEvent) {
  const budget = new CostBudget();
  budget.admit(JSON.stringify(e).length);
  const matched = compileFilter({ expr }).test(e, budget);
  return { matched, overruns: budget.overruns };
}

/** Units one evaluation used, and its value. */
function cost(expr: string, data: unknown, limit = 1_000_000) {
  const r = compileAgentInbox(expr, EVAL_COST_BASE).run(new AgentInboxBindings({ type: 't', data, metadata: {} }, () => undefined), limit);
  return { ok: r.ok, value: r.ok ? r.value : undefined, cost: r.cost, overBudget: !r.ok && r.overBudget };
}

describe('the prototype chain is not reachable', () => {
  it('bracketed keys, computed keys and string methods read own properties only', () => {
    const e = event({ key: 'constructor', list: [1], s: 'abc' });
    for (const read of [
      'payload["constructor"]',
      'payload["__proto__"]',
      'payload[payload.key]',
      'payload.list["map"]',
      'payload.s["toString"]',
      'payload.s.concat',
      'payload.list.concat',
      'format("x")["constructor"]',
    ]) {
      // Guarded so that AgentInbox's check on an empty event passes (it reads [key] of undefined).
      const expr = `exists(payload.list) && exists(payload.s) && ${read} != undefined`;
      expect(compileFilter({ expr }).test(e), expr).toBe(false);
    }
    // Own fields named like prototype members are the event's own data, and are read.
    const own = event(JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}'));
    expect(compileFilter({ expr: 'exists(payload["__proto__"]) && payload["__proto__"].x == 1 && payload["constructor"] == "c"' }).test(own)).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // Strings and lists keep their own length and indices.
    expect(compileFilter({ expr: 'exists(payload.s) && payload.s[1] == "b" && payload.s["length"] == 3 && payload.list[0] == 1' }).test(e)).toBe(true);
  });

  it('names of Object.prototype members are refused as identifiers, functions and transforms', () => {
    for (const expr of ['metadata.constructor', 'metadata.__proto__ == 1', 'metadata.hasOwnProperty', 'valueOf(metadata)', 'constructor(metadata)', 'metadata|toString']) {
      expect(refusal(expr).code, expr).toBe('invalid_filter');
    }
  });
});

describe('nesting is refused at creation', () => {
  it(`brackets deeper than ${MAX_BRACKET_NESTING}: 400 filter_too_costly, before jexl parses them`, () => {
    const nested = (n: number) => `${'('.repeat(n)}metadata.a${')'.repeat(n)} == 1`;
    expect(compileFilter({ expr: nested(MAX_BRACKET_NESTING) }).test(event({}, { a: 1 }))).toBe(true);
    for (const n of [MAX_BRACKET_NESTING + 1, 2000]) {
      const err = refusal(nested(n));
      expect([err.code, err.message]).toEqual(['filter_too_costly', expect.stringContaining(`nests brackets ${n} deep`)]);
    }
    expect(refusal(`contains(${'['.repeat(40)}1${']'.repeat(40)}, metadata)`).code).toBe('filter_too_costly');
  });

  it(`trees deeper than ${MAX_DEPTH} (long chains of ! or &&): 400 filter_too_costly`, () => {
    expect(refusal(`${'!'.repeat(MAX_DEPTH + 5)}metadata`).code).toBe('filter_too_costly');
    expect(refusal(Array.from({ length: MAX_DEPTH + 5 }, () => 'metadata').join(' && ')).code).toBe('filter_too_costly');
    expect(compileFilter({ expr: Array.from({ length: 50 }, () => 'metadata').join(' && ') }).test(event({}))).toBe(true);
  });

  it('longer than 4,096 characters: 400 invalid_filter; a stored filter skips the creation bounds', () => {
    expect(refusal(`metadata.a == "${'x'.repeat(4100)}"`).code).toBe('invalid_filter');
    const deep = `${'('.repeat(40)}metadata.a${')'.repeat(40)} == 1`;
    expect(compileFilter({ expr: deep }, undefined, { stored: true }).test(event({}, { a: 1 }))).toBe(true);
  });
});

describe('huge values stop at the cost limit', () => {
  const big = 'a'.repeat(1_000_000);

  it('a linear scan of a 1 MB string fits; concatenating it over and over does not', () => {
    expect(pass('contains(payload.s, "ab")', event({ s: `${big}ab` }))).toEqual({ matched: true, overruns: 0 });
    const concat = Array.from({ length: 40 }, () => 'payload.s').join(' + ');
    expect(pass(`contains(${concat}, "b")`, event({ s: big }))).toEqual({ matched: false, overruns: 1 });
  });

  it('format and join are charged for what they would build, before building it', () => {
    expect(pass(`format("${'{0}'.repeat(1000)}", payload.s) == ""`, event({ s: big }))).toEqual({ matched: false, overruns: 1 });
    expect(pass('join(payload.list, payload.s) == ""', event({ list: Array.from({ length: 1000 }, () => 1), s: 'x'.repeat(100_000) }))).toEqual({ matched: false, overruns: 1 });
    expect(pass('format("{0}-{1}", metadata.a, 2) == "x-2"', event({}, { a: 'x' }))).toEqual({ matched: true, overruns: 0 });
  });

  it('a collection filter inside another over 5,000 items is quadratic: stopped; one level is linear: fits', () => {
    const list = Array.from({ length: 5000 }, (_, i) => ({ n: i }));
    // (In JEXL `.length` of a list reads its first element's: [0] picks the element.)
    expect(pass('payload.list[.n == 4999][0].n == 4999', event({ list }))).toEqual({ matched: true, overruns: 0 });
    expect(pass('payload.list[.n == payload.list[.n == 1][0].n][0].n == 1', event({ list }))).toEqual({ matched: false, overruns: 1 });
  });

  it('comparing a large list by value is charged for the whole list each time', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => i);
    const expr = Array.from({ length: 30 }, () => 'payload.list == "x"').join(' || ');
    expect(pass(expr, event({ list }))).toEqual({ matched: false, overruns: 1 });
  });
});

describe('matches and glob run in linear time', () => {
  const as = 'a'.repeat(4096);
  it('catastrophic patterns for a backtracking engine: no match, at a cost linear in the input', () => {
    for (const [expr, units] of [
      ['matches(payload, "(a|a)*b")', 4096],
      ['matches(payload, "(a|aa)+$") && false', 4096],
      ['matches(payload, ".*.*.*.*.*.*x")', 4096],
      ['glob(payload, "*a*a*a*a*a*a*a*a*a*a*b")', 4096],
      ['glob(payload, "**a**a**a**a**b")', 4096],
    ] as const) {
      const r = cost(expr, as);
      expect([r.ok, r.value], expr).toEqual([true, false]);
      // One unit per character, plus one per eight live states: a few units per character at most.
      expect(r.cost, expr).toBeLessThan(units * 4);
    }
  });

  it('what matches is what RegExp matches (patterns of a small alphabet, inputs short enough for RegExp)', () => {
    const token = fc.constantFrom('a', 'b', '1', '.', '\\d', '\\w', '\\s', '\\b', '\\B', '\\.', '[ab]', '[^a]', '[a-c1]', '[\\d_]', '[\\W]', '^', '$', '|', '(', ')', '*', '+', '?', '{2}', '{1,2}', '{2,}', '*?', 'x{', '}', '\\x61', '\\u0062', '\\cA', '\\0', '-');
    const pattern = fc.array(token, { minLength: 1, maxLength: 8 }).map((t) => t.join(''));
    const input = fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '_', '-', '\n', '.', '\u0001', '\0'), maxLength: 10 });
    let checked = 0;
    fc.assert(
      fc.property(pattern, input, (p, s) => {
        let reference: RegExp;
        try {
          reference = new RegExp(p);
        } catch {
          return; // matches answers false for a pattern JavaScript refuses
        }
        const ours = compileRegex(p);
        expect(ours, p).not.toBeNull();
        expect(ours!.test(s, () => {}), `/${p}/ on ${JSON.stringify(s)}`).toBe(reference.test(s));
        checked++;
      }),
      { numRuns: 3000 },
    );
    expect(checked).toBeGreaterThan(1000);
  });

  it("glob answers as AgentInbox's regex (** is .*, * is [^/]*, the rest literal, whole string)", () => {
    const reference = (p: string) => {
      let re = '';
      for (let i = 0; i < p.length; i++) {
        if (p[i] === '*' && p[i + 1] === '*') {
          re += '.*';
          i++;
        } else if (p[i] === '*') re += '[^/]*';
        else re += p[i]!.replace(/[|\\{}()[\]^$+?.]/g, '\\$&');
      }
      return new RegExp(`^${re}$`);
    };
    const unit = fc.constantFrom('a', 'b', '/', '.', '?', '[', '\n', '-');
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(unit, fc.constant('*')), maxLength: 8 }), fc.string({ unit, maxLength: 10 }), (p, s) => {
        expect(compileGlob(p)!.test(s, () => {}), `${p} on ${JSON.stringify(s)}`).toBe(reference(p).test(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('an automaton too large to build (a counted repetition) is no match, not a long build', () => {
    expect(compileRegex('a{1000000}')).toBeNull();
    expect(compileRegex('(){1000000000}')).toBeNull();
    expect(cost('matches(payload, "a{0,100000}")', 'aaa')).toMatchObject({ ok: true, value: false });
  });
});
