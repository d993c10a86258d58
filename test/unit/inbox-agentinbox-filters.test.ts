/**
 * AgentInbox's filter language (docs/agentinbox.md#filters). Every filter of
 * fixtures/agentinbox-filters.json (the examples of AgentInbox's filtering documentation, its
 * helpers, operators and names, and JEXL's own rules) matches the events AgentInbox 1.0.3's daemon
 * matched, recorded in the fixture, except where the fixture says why svc answers otherwise. Random
 * expressions give what jexl's own evaluator gives. svc's CEL over `event` is told apart by the
 * names it reads and keeps its answers (inbox-subscriptions.test.ts).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { HELPERS } from '../../src/inbox/subscriptions/agentinbox-functions.js';
import { AgentInboxBindings, agentInboxSourceType, compileAgentInbox, type SourceFacts } from '../../src/inbox/subscriptions/agentinbox-expr.js';
import { compileFilter, EVAL_COST_BASE, type FilterSpec } from '../../src/inbox/subscriptions/filters.js';
import type { StoredEvent } from '../../src/inbox/streams/types.js';

interface NativeEvent {
  sourceNativeId: string;
  eventVariant: string;
  metadata?: Record<string, unknown>;
  rawPayload?: Record<string, unknown>;
}
interface Case {
  name: string;
  filter: FilterSpec;
  agentinbox: { matched?: string[]; status?: number; error?: string };
  svc?: { matched?: string[]; code?: string; why: string };
}

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agentinbox-filters.json');
const fixture = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { sourceType: string; sourceKey: string; events: NativeEvent[]; filters: Case[] };

/** An AgentInbox-style event as svc stores it (fromNativeEvent: type = eventVariant, data = rawPayload). */
const stored = (e: NativeEvent, offset: number): StoredEvent => ({
  sourceId: 'src_a',
  offset,
  id: `${e.eventVariant}:${e.sourceNativeId}`,
  type: e.eventVariant,
  subject: null,
  time: '2030-01-01T00:00:00.000Z',
  data: e.rawPayload ?? null,
  metadata: e.metadata ?? {},
  appendedAt: '2030-01-01T00:00:00.000Z',
  pruned: false,
});
const events = fixture.events.map((e, i) => stored(e, i + 1));
const localSource: SourceFacts = { sourceType: fixture.sourceType, streamKind: 'events', streamKey: fixture.sourceKey };
const sources = () => localSource;

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe("the examples of AgentInbox's filtering documentation, as its daemon matched them", () => {
  it.each(fixture.filters.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const want = c.svc ?? c.agentinbox;
    if (want.matched === undefined) {
      // AgentInbox refuses these at creation (500, its message); svc says 400 invalid_filter.
      expect(refusal(() => compileFilter(c.filter)).code).toBe(c.svc?.code ?? 'invalid_filter');
      return;
    }
    const filter = compileFilter(c.filter);
    const matched = events.filter((e) => filter.test(e, undefined, sources)).map((e) => e.id.slice(e.id.indexOf(':') + 1));
    expect(matched).toEqual(want.matched);
  });

  it('the documented examples are all there and none of them differs from AgentInbox', () => {
    const documented = fixture.filters.filter((c) => c.name.startsWith('doc: '));
    expect(documented.length).toBe(14);
    expect(documented.filter((c) => c.svc)).toEqual([]);
    expect(fixture.filters.filter((c) => c.svc).map((c) => c.name)).toHaveLength(7);
  });
});

describe('which language an expr is in', () => {
  it('CEL over event stays CEL: its answers and its refusals', () => {
    const e = stored({ sourceNativeId: 'n', eventVariant: 'ci', metadata: { priority: 'high' }, rawPayload: { n: 5 } }, 1);
    expect(compileFilter({ expr: 'event.type == "ci" && event.data.n > 3' }).test(e)).toBe(true);
    expect(compileFilter({ expr: 'event.metadata.priority == "high"' }).test(e)).toBe(true);
    // A CEL comprehension variable named like one of AgentInbox's names is still CEL.
    expect(compileFilter({ expr: 'event.data.n > 1 && [1, 2].exists(payload, payload == 2)' }).test(e)).toBe(true);
    expect(refusal(() => compileFilter({ expr: 'event.type' })).message).toContain('must evaluate to a boolean');
  });

  it("an expr naming metadata, payload, eventVariant, sourceType or sourceKey is AgentInbox's", () => {
    const e = stored({ sourceNativeId: 'n', eventVariant: 'ci', metadata: { priority: 'high' } }, 1);
    for (const expr of ['metadata.priority == "high"', 'eventVariant == "ci"', 'exists(payload) && !exists(payload.x)', 'sourceKey == "acme/widgets"', 'sourceType == "local_event"']) {
      expect(compileFilter({ expr }).test(e, undefined, sources), expr).toBe(true);
    }
    // JEXL that CEL's grammar reads otherwise (// starts a comment there) or refuses is still AgentInbox's.
    expect(compileFilter({ expr: 'metadata.priority // 1 == 0 || metadata.priority == "high"' }).test(e)).toBe(true);
    expect(compileFilter({ expr: 'exists(metadata.labels[.x]) && eventVariant == "ci"' }).test(e)).toBe(true);
    // When CEL cannot parse it, an object key or a property named like a binding is not a name.
    for (const expr of ['event.type == {payload: 1}.metadata|lower', '{payload: 1}.x|lower == 2']) {
      expect(refusal(() => compileFilter({ expr })).message, expr).toMatch(/^invalid filter: expr does not parse: /);
    }
  });

  const refused: Array<[string, string, string]> = [
    ['both languages at once', 'event.type == "x" && metadata.a == 1', 'mixes'],
    ['a name neither binds', 'foo == 1', 'reads foo, which neither filter language binds'],
    ['a name AgentInbox does not bind beside its own', 'metadata.a == sourceId', 'names sourceId'],
    ['a CEL macro in AgentInbox language', 'has(metadata.a)', 'calls has'],
    ['a CEL method call read as JEXL', 'metadata.labels.exists(l, l == "bug")', 'names l'],
    ['a transform', 'metadata.name|lower == "ci"', 'transform |lower'],
    ['a JEXL syntax error', 'metadata.status ==', "does not parse as AgentInbox's filter language"],
    ['a CEL syntax error', 'event.type ==', 'does not parse'],
    ['a value AgentInbox cannot read on an empty event', 'metadata.labels[1] == "ci"', 'fails on an empty event'],
  ];
  it.each(refused)('%s: 400 invalid_filter naming the problem', (_name, expr, says) => {
    const err = refusal(() => compileFilter({ expr }));
    expect([err.status, err.code]).toEqual([400, 'invalid_filter']);
    expect(err.message).toContain(says);
  });

  it('a filter stored as CEL before keeps loading as CEL', () => {
    // Accepted as CEL before (its trial never reached metadata), so a load must not refuse it.
    const expr = 'event.type != "ci" || metadata.x == 1';
    expect(refusal(() => compileFilter({ expr })).message).toContain('mixes');
    const f = compileFilter({ expr }, undefined, { stored: true });
    expect([f.test(stored({ sourceNativeId: 'n', eventVariant: 'other' }, 1)), f.test(stored({ sourceNativeId: 'n', eventVariant: 'ci' }, 1))]).toEqual([true, false]);
  });
});

describe("AgentInbox's names for an svc event", () => {
  it('metadata, payload ({} when the event has no data), eventVariant; sourceType and sourceKey from the source', () => {
    const bare = stored({ sourceNativeId: 'n', eventVariant: 'ping' }, 1);
    expect(compileFilter({ expr: 'exists(payload) && join(payload, ",") == ""' }).test(bare)).toBe(true);
    const gh = (streamKind: string): SourceFacts => ({ sourceType: 'github', streamKind, streamKey: 'octo/hello' });
    const f = () => compileFilter({ expr: 'sourceType == "github_repo_ci" && sourceKey == "octo/hello"' });
    expect(f().test(bare, undefined, () => gh('ci_runs'))).toBe(true);
    expect(f().test(bare, undefined, () => gh('repo_events'))).toBe(false);
    expect(f().test(bare)).toBe(false); // no lookup: undefined
    expect([agentInboxSourceType(gh('issues')), agentInboxSourceType({ sourceType: 'remote_source', streamKind: 'k', streamKey: 'k' })]).toEqual(['github_repo', 'remote_source']);
  });

  it('looks a source up once, however many events', () => {
    let lookups = 0;
    const f = compileFilter({ expr: 'sourceKey == "acme/widgets"' });
    for (const e of events) expect(f.test(e, undefined, () => (lookups++, localSource))).toBe(true);
    expect(lookups).toBe(1);
  });
});

describe('the helpers as AgentInbox defines them', () => {
  const call = (name: string, ...args: unknown[]) => HELPERS[name]!(() => {}, args);
  it('contains: substring, deep element equality, else false', () => {
    expect([call('contains', 'abc', 'b'), call('contains', 'abc', 1), call('contains', [{ a: [1] }], { a: [1] }), call('contains', { a: 1 }, 'a')]).toEqual([true, false, true, false]);
  });
  it('format, join, exists', () => {
    expect([call('format', '{1}{0}{2}', 'a', 'b'), call('format', 5), call('format', '{0}', null)]).toEqual(['ba', '', '']);
    expect([call('join', [1, null, 'x']), call('join', ['a', 'b'], 5), call('join', 'ab', '-')]).toEqual(['1,,x', 'a,b', '']);
    expect([call('exists', 0), call('exists', null), call('exists', undefined), call('exists', '')]).toEqual([true, false, false, true]);
  });
  it('matches refuses what AgentInbox refuses', () => {
    expect(call('matches', 'release/1.2', '^release/\\d+\\.\\d+$')).toBe(true);
    for (const pattern of ['', 'x'.repeat(257), '(?=a)a', '(a)\\1', '(a+)+', '(a*)*', '[']) expect(call('matches', 'aaaa', pattern), pattern).toBe(false);
    expect(call('matches', 'a'.repeat(4097), 'a')).toBe(false);
  });
  it('is the eight of the RFC, and nothing from a prototype', () => {
    expect(Object.keys(HELPERS).sort()).toEqual(['contains', 'endsWith', 'exists', 'format', 'glob', 'join', 'matches', 'startsWith']);
    expect(Object.hasOwn(HELPERS, 'constructor') || 'constructor' in HELPERS).toBe(false);
  });
});

// --- jexl itself -------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
type JexlInstance = { addFunction(name: string, fn: (...a: unknown[]) => unknown): void; compile(e: string): { _getAst(): unknown; evalSync(ctx: unknown): unknown } };
const { Jexl } = require('jexl') as { Jexl: new () => JexlInstance };

describe('the pinned jexl', () => {
  it('builds the trees the evaluator reads (a new release that changes them fails here)', () => {
    const jexl = new Jexl();
    const ast = (e: string) => JSON.parse(JSON.stringify(jexl.compile(e)._getAst()));
    expect(ast('(a.b[.c == 1][0] || f(x|t, [1], {k: "v"})) ? !y : z')).toEqual({
      type: 'ConditionalExpression',
      test: {
        type: 'BinaryExpression',
        operator: '||',
        left: {
          type: 'FilterExpression',
          relative: false,
          expr: { type: 'Literal', value: 0 },
          subject: {
            type: 'FilterExpression',
            relative: true,
            expr: { type: 'BinaryExpression', operator: '==', left: { type: 'Identifier', value: 'c', relative: true }, right: { type: 'Literal', value: 1 } },
            subject: { type: 'Identifier', value: 'b', from: { type: 'Identifier', value: 'a' } },
          },
        },
        right: {
          type: 'FunctionCall',
          name: 'f',
          pool: 'functions',
          args: [
            { type: 'FunctionCall', name: 't', pool: 'transforms', args: [{ type: 'Identifier', value: 'x' }] },
            { type: 'ArrayLiteral', value: [{ type: 'Literal', value: 1 }] },
            { type: 'ObjectLiteral', value: { k: { type: 'Literal', value: 'v' } } },
          ],
        },
      },
      consequent: { type: 'UnaryExpression', operator: '!', right: { type: 'Identifier', value: 'y' } },
      alternate: { type: 'Identifier', value: 'z' },
    });
    // && and || share one precedence: (a || b) && c.
    expect(ast('a || b && c')).toMatchObject({ operator: '&&', left: { operator: '||' } });
  });
});

describe("random expressions give what jexl's own evaluator gives", () => {
  const jexl = new Jexl();
  for (const name of Object.keys(HELPERS)) jexl.addFunction(name, (...args: unknown[]) => HELPERS[name]!(() => {}, args));
  const contexts = fixture.events.map((e) => ({ metadata: e.metadata ?? {}, payload: e.rawPayload ?? {}, eventVariant: e.eventVariant, sourceType: 'local_event', sourceKey: fixture.sourceKey }));
  const field = fc.constantFrom('status', 'conclusion', 'name', 'headBranch', 'number', 'priority', 'labels', 'attempt', 'draft', 'length', 'sender', 'login', 'head_commit', 'message', 'commits', 'author', 'missing');
  const literal = fc.constantFrom('0', '1', '87', '-1', '1.5', '"CI"', '"main"', '""', '"87"', '"bug"', "'completed'", 'true', 'false', 'null', '[]', '["CI", 87]', '{a: 1}');
  // Lists are where JEXL's rules are least like JavaScript's (a dot reads the first element): weighted up.
  const root = fc.constantFrom('metadata', 'payload', 'eventVariant', 'sourceKey', 'sourceType', 'payload.sender', 'payload.commits', 'metadata.labels', 'payload.commits', 'metadata.labels', 'metadata.pullRequestNumbers', 'metadata.name', 'metadata.flags', 'metadata.flags');
  const path_ = fc.tuple(root, fc.array(field, { maxLength: 2 })).map(([r, fs_]) => [r, ...fs_].join('.'));
  const { expr } = fc.letrec<{ expr: string; atom: string }>((tie) => ({
    atom: fc.oneof(
      literal,
      path_,
      path_.map((p) => `${p}[0]`),
      path_.map((p) => `${p}[.author == "bob" || .login]`),
      path_.map((p) => `${p}["name"]`),
      // A falsy element is filtered against the bindings instead.
      field.map((f) => `[0, "", "x", {status: 1}][.${f} || .eventVariant]`),
    ),
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('atom'),
      fc.tuple(tie('expr'), fc.constantFrom('==', '!=', '<', '<=', '>', '>=', '&&', '||', '+', '-', '*', '/', '//', '%', '^', 'in'), tie('expr')).map(([l, op, r]) => `${l} ${op} ${r}`),
      tie('expr').map((e) => `!${e}`),
      tie('expr').map((e) => `(${e})`),
      fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([a, b, c]) => `${a} ? ${b} : ${c}`),
      fc.tuple(fc.constantFrom(...Object.keys(HELPERS)), fc.array(tie('expr'), { minLength: 1, maxLength: 3 })).map(([f, args]) => `${f}(${args.join(', ')})`),
    ),
  }));

  it('the same value on every fixture event (or the same failure), and refused at creation by both or neither', () => {
    fc.assert(
      fc.property(expr, (e) => {
        let parsed: { evalSync(ctx: unknown): unknown } | null = null;
        let refused = false;
        try {
          parsed = jexl.compile(e);
          parsed.evalSync({ metadata: {}, payload: {}, eventVariant: '', sourceType: '', sourceKey: '' });
        } catch {
          refused = true; // AgentInbox refuses it at creation
        }
        const ours = (stored: boolean) => {
          try {
            return compileAgentInbox(e, EVAL_COST_BASE, stored);
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            return null;
          }
        };
        expect(ours(false) === null, e).toBe(refused);
        // Refused or not, whatever parses is evaluated alike (a stored filter skips the trial).
        const program = ours(true);
        expect(program === null, e).toBe(parsed === null);
        if (!parsed || !program) return;
        for (const [i, ctx] of contexts.entries()) {
          let want: { ok: boolean; value?: unknown };
          try {
            want = { ok: true, value: parsed.evalSync(ctx) };
          } catch {
            want = { ok: false };
          }
          const got = program.run(new AgentInboxBindings(events[i]!, sources), EVAL_COST_BASE);
          expect(got.ok ? { ok: true, value: got.value } : { ok: false }, `${e} on ${fixture.events[i]!.sourceNativeId}`).toEqual(want);
        }
      }),
      { numRuns: 500 },
    );
  });
});
