/**
 * Token counting (docs/context.md#token-counting): OpenAI families counted with their own
 * encodings, exactly, also when a text is encoded in pieces; the estimate's error on English,
 * code and JSON within the stated bounds; the calibration from reported usage; and texts no
 * count may fail on or spend unbounded time on.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENCODE_MAX_CHARS, estimateTokens, PIECE_CHARS, pieceEnd, SAMPLE_ABOVE_CHARS, TokenCounter } from '../../src/runtime/context/index.js';
import type { ChatMessage, ToolSpec } from '../../src/runtime/providers/index.js';

interface Encoding {
  encode(text: string, opts?: { disallowedSpecial: Set<string> }): number[];
  countTokens(text: string, opts?: { disallowedSpecial: Set<string> }): number;
}
const load = createRequire(import.meta.url);
const o200k = load('gpt-tokenizer/encoding/o200k_base') as Encoding;
const cl100k = load('gpt-tokenizer/encoding/cl100k_base') as Encoding;
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const repo = (p: string) => fs.readFileSync(path.join(import.meta.dirname, '../..', p), 'utf8');

describe('families', () => {
  const tc = new TokenCounter();
  it.each([
    ['openai/gpt-4o', 'o200k'],
    ['openai/gpt-4o-mini-2024-07-18', 'o200k'],
    ['azure/gpt-4.1-nano', 'o200k'],
    ['openai/gpt-5', 'o200k'],
    ['openai/o1', 'o200k'],
    ['openai/o3-mini', 'o200k'],
    ['openai/o4-mini', 'o200k'],
    ['router/openai/GPT-4o', 'o200k'],
    ['openai/ft:gpt-4o-mini:acme::abc', 'o200k'],
    ['openai/gpt-4', 'cl100k'],
    ['openai/gpt-4-turbo', 'cl100k'],
    ['openai/gpt-3.5-turbo', 'cl100k'],
    ['anthropic/claude-sonnet-4-5', 'estimate'],
    ['local/llama3.1:8b', 'estimate'],
    ['local/o1x', 'estimate'],
    ['local/gpt-40', 'estimate'],
    ['builtin/echo', 'estimate'],
    ['', 'estimate'],
  ])('%s is %s', (ref, family) => {
    expect(tc.familyOf(ref)).toBe(family);
  });
});

describe('OpenAI encodings', () => {
  const tc = new TokenCounter();

  it('counts what the encoding itself counts', () => {
    expect(tc.count('hello world', 'openai/gpt-4')).toBe(2);
    expect(cl100k.encode('hello world')).toEqual([15339, 1917]);
    expect(tc.count('tiktoken is great!', 'openai/gpt-4o')).toBe(6);
    expect(tc.count('日本語のテキスト', 'openai/gpt-4o')).toBe(6);
    expect(tc.count('日本語のテキスト', 'openai/gpt-3.5-turbo')).toBe(8);
    expect(tc.count('', 'openai/gpt-4o')).toBe(0);
    // A special token inside a text is text, as the APIs take it.
    expect(tc.count('<|endoftext|>', 'openai/gpt-4o')).toBe(7);
  });

  it('counts a long text in pieces exactly as in one piece', () => {
    for (const p of ['docs/architecture.md', 'src/runtime/files/service.ts', 'openapi/control-plane.json']) {
      const text = repo(p).slice(0, 120_000);
      expect(text.length).toBeGreaterThan(PIECE_CHARS * 4);
      expect(tc.count(text, 'openai/gpt-4o'), p).toBe(o200k.encode(text, AS_TEXT).length);
      expect(tc.count(text, 'openai/gpt-4'), p).toBe(cl100k.encode(text, AS_TEXT).length);
    }
  });

  it('cuts pieces after a line break or before a word, never inside a surrogate pair', () => {
    const prose = 'word '.repeat(1000);
    const cut = pieceEnd(prose, 0);
    expect(cut).toBeLessThanOrEqual(PIECE_CHARS);
    expect(prose[cut]).toBe(' ');
    expect(prose[cut - 1]).toBe('d');
    const lines = 'a line of text\n'.repeat(500);
    expect(lines[pieceEnd(lines, 0) - 1]).toBe('\n');
    const emoji = '😀'.repeat(PIECE_CHARS);
    expect(pieceEnd(emoji, 0)).toBe(PIECE_CHARS);
    // From an odd offset the limit falls after a high surrogate: the piece ends one before.
    expect(pieceEnd(emoji, 1)).toBe(PIECE_CHARS);
    expect(pieceEnd('short', 0)).toBe(5);
  });

  it('loads an encoding only when a model of its family is counted', () => {
    const loaded: string[] = [];
    const spy = new TokenCounter({ load: (m) => (loaded.push(m), load(m)) });
    spy.count('some text', 'anthropic/claude-sonnet-4');
    spy.countMessages('system', [{ role: 'user', content: 'hi' }], [], 'local/llama3');
    expect(loaded).toEqual([]);
    expect(spy.warm('anthropic/claude-sonnet-4')).toBe(false);
    expect(loaded).toEqual([]);
    spy.count('some text', 'openai/gpt-4o');
    spy.count('more text', 'openai/gpt-4o-mini');
    expect(spy.warm('openai/o3')).toBe(true);
    expect(loaded).toEqual(['gpt-tokenizer/encoding/o200k_base']);
    expect(spy.warm('openai/gpt-4')).toBe(true);
    expect(loaded).toEqual(['gpt-tokenizer/encoding/o200k_base', 'gpt-tokenizer/encoding/cl100k_base']);
  });

  it('estimates when an encoding cannot be loaded, and says so once', () => {
    const failures: string[] = [];
    const tc2 = new TokenCounter({
      load: () => {
        throw new Error('missing');
      },
      onLoadError: (family) => failures.push(family),
    });
    expect(tc2.warm('openai/gpt-4o')).toBe(false);
    expect(tc2.count('hello world again', 'openai/gpt-4o')).toBe(estimateTokens('hello world again'));
    tc2.count('and again', 'openai/gpt-4o');
    expect(failures).toEqual(['o200k']);
  });
});

describe('the estimate', () => {
  /** 8 KiB pieces of a text (the last one only when it is at least 1 KiB). */
  const pieces = (text: string) => {
    const out: string[] = [];
    for (let p = 0; p < text.length; p += 8192) if (text.length - p >= 1024) out.push(text.slice(p, p + 8192));
    return out;
  };
  const samples: Record<string, string> = {
    english: ['docs/architecture.md', 'docs/security.md', 'README.md'].map(repo).join('\n'),
    code: ['src/runtime/files/service.ts', 'src/runtime/workspaces/workspaces.ts', 'src/runtime/providers/openai.ts', 'src/config/schema.ts'].map(repo).join('\n'),
    json: repo('openapi/control-plane.json').slice(0, 200_000),
  };

  it.each(Object.keys(samples))('stays within 25%% of cl100k and o200k on any 8 KiB of %s, and within 10%% over it', (kind) => {
    for (const enc of [cl100k, o200k]) {
      let estimated = 0;
      let actual = 0;
      for (const piece of pieces(samples[kind]!)) {
        const e = estimateTokens(piece);
        const a = enc.countTokens(piece, AS_TEXT);
        expect(Math.abs(e - a) / a).toBeLessThan(0.25);
        estimated += e;
        actual += a;
      }
      expect(Math.abs(estimated - actual) / actual).toBeLessThan(0.1);
    }
  });

  it('counts CJK and emoji as more tokens per byte than ASCII prose', () => {
    const ascii = 'the quick brown fox jumps over the lazy dog ';
    const cjk = '日本語のテキストです。';
    expect(estimateTokens(ascii) / Buffer.byteLength(ascii)).toBeLessThan(0.3);
    expect(estimateTokens(cjk) / Buffer.byteLength(cjk)).toBeGreaterThan(0.3);
    expect(estimateTokens('😀😀')).toBe(4);
  });

  it('samples a text over a MiB evenly and scales to its length', () => {
    for (const kind of Object.keys(samples)) {
      const unit = samples[kind]!;
      const times = Math.ceil((10 * 1024 * 1024) / unit.length);
      const whole = estimateTokens(unit.repeat(times));
      expect(unit.length * times).toBeGreaterThan(SAMPLE_ABOVE_CHARS);
      expect(Math.abs(whole - estimateTokens(unit) * times) / whole, kind).toBeLessThan(0.03);
    }
  });

  it('is what non-OpenAI models get', () => {
    const tc = new TokenCounter();
    const text = samples.code!.slice(0, 5000);
    expect(tc.count(text, 'anthropic/claude-sonnet-4')).toBe(estimateTokens(text));
  });
});

describe('texts no count fails on', () => {
  const tc = new TokenCounter();
  const odd = ['\uD800', 'a\uDC00b', '\uDBFF', '\u0000\u0000\u0001', '\uFFFE\uFFFF', 'x'.repeat(10) + '\uD83D', '\r\n\v\f\t'];

  it.each(['openai/gpt-4o', 'openai/gpt-4', 'anthropic/claude-3-5-haiku'])('counts lone surrogates, NUL and control characters for %s', (ref) => {
    for (const s of odd) {
      const n = tc.count(s, ref);
      expect(Number.isInteger(n) && n > 0, JSON.stringify(s)).toBe(true);
    }
  });

  it('estimates a text over the encoding limit without encoding it', () => {
    const calls: number[] = [];
    const spy = new TokenCounter({
      load: (m) => {
        const real = load(m) as Encoding;
        return { countTokens: (t, o) => (calls.push(t.length), real.countTokens(t, o)) };
      },
    });
    // A run of one letter is the encoder's worst case (quadratic merging).
    const huge = 'a'.repeat(10 * 1024 * 1024);
    expect(spy.count(huge, 'openai/gpt-4o')).toBe(estimateTokens(huge));
    expect(calls).toEqual([]);
    // Just under the limit it is encoded, in pieces no longer than PIECE_CHARS.
    const under = 'a'.repeat(ENCODE_MAX_CHARS);
    expect(spy.count(under, 'openai/gpt-4o')).toBe(ENCODE_MAX_CHARS / 8);
    expect(calls.length).toBe(ENCODE_MAX_CHARS / PIECE_CHARS);
    expect(Math.max(...calls)).toBe(PIECE_CHARS);
  });

  it('counts a request whose tool arguments JSON cannot hold', () => {
    const args: Record<string, unknown> = { n: 10n };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const messages: ChatMessage[] = [{ role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'f', arguments: args }, { id: 'c2', name: 'g', arguments: cyclic }] }];
    expect(tc.countMessages('', messages, [], 'openai/gpt-4o')).toBeGreaterThan(0);
  });
});

describe('a whole request', () => {
  const tc = new TokenCounter();
  const ref = 'openai/gpt-4o';
  const tool: ToolSpec = { name: 'read_file', description: 'Read a file of the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };

  it('adds the framing of every message, the tool calls as JSON and the tool specs as JSON', () => {
    const base = tc.countMessages('You are svc.', [], [], ref);
    expect(base).toBe(3 + 4 + tc.count('You are svc.', ref));
    const withUser = tc.countMessages('You are svc.', [{ role: 'user', content: 'read a.txt' }], [], ref);
    expect(withUser - base).toBe(4 + tc.count('read a.txt', ref));
    const call: ChatMessage = { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.txt' } }] };
    const withCall = tc.countMessages('You are svc.', [call], [], ref);
    expect(withCall - base).toBe(4 + 4 + tc.count('call_1 read_file {"path":"a.txt"}', ref));
    const result: ChatMessage = { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'hello' };
    expect(tc.countMessages('You are svc.', [result], [], ref) - base).toBe(4 + tc.count('hello', ref) + tc.count('read_file call_1', ref));
    const withTool = tc.countMessages('You are svc.', [], [tool], ref);
    expect(withTool - base).toBe(16 + 8 + tc.count(JSON.stringify(tool), ref));
  });

  it('grows with a longer tool argument', () => {
    const msg = (p: string): ChatMessage[] => [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', name: 'read_file', arguments: { path: p } }] }];
    expect(tc.countMessages('', msg('a'.repeat(400)), [], ref)).toBeGreaterThan(tc.countMessages('', msg('a'), [], ref) + 40);
  });
});

describe('calibration', () => {
  it('is 1 until a report arrives, then converges toward the reported ratio', () => {
    const tc = new TokenCounter();
    const ref = 'anthropic/claude-sonnet-4';
    expect(tc.factor(ref)).toBe(1);
    tc.observe(ref, 1000, 1200);
    expect(tc.factor(ref)).toBeCloseTo(1.1, 5); // the first report against the starting 1
    for (let i = 0; i < 40; i++) tc.observe(ref, 1000 + i, Math.round((1000 + i) * 1.2));
    expect(tc.factor(ref)).toBeGreaterThan(1.19);
    expect(tc.factor(ref)).toBeLessThan(1.21);
    // Other models keep their own, whatever their names.
    expect(tc.factor('local/llama3')).toBe(1);
    tc.observe('__proto__', 1000, 1500);
    expect(tc.factor('constructor')).toBe(1);
    expect(tc.factor('__proto__')).toBeCloseTo(1.25, 5);
  });

  it('does not swing on one odd report', () => {
    const tc = new TokenCounter();
    const ref = 'local/qwen3';
    for (let i = 0; i < 30; i++) tc.observe(ref, 2000, 1800);
    const settled = tc.factor(ref);
    expect(settled).toBeCloseTo(0.9, 2);
    tc.observe(ref, 2000, 200_000);
    expect(tc.factor(ref)).toBeLessThan(settled + 0.12);
    expect(tc.factor(ref)).toBeGreaterThan(settled);
  });

  it('stays within [0.5, 2]', () => {
    const tc = new TokenCounter();
    for (let i = 0; i < 100; i++) {
      tc.observe('a/high', 1000, 10_000);
      tc.observe('a/low', 1000, 10);
      expect(tc.factor('a/high')).toBeLessThanOrEqual(2);
      expect(tc.factor('a/low')).toBeGreaterThanOrEqual(0.5);
    }
    expect(tc.factor('a/high')).toBeCloseTo(2, 3);
    expect(tc.factor('a/low')).toBeCloseTo(0.5, 3);
  });

  it('ignores reports that teach nothing: tiny prompts, zero, NaN, infinities', () => {
    const tc = new TokenCounter();
    tc.observe('a/m', 10, 30);
    tc.observe('a/m', 1000, 0);
    tc.observe('a/m', 1000, -5);
    tc.observe('a/m', Number.NaN, 1000);
    tc.observe('a/m', 1000, Number.POSITIVE_INFINITY);
    expect(tc.factor('a/m')).toBe(1);
  });
});
