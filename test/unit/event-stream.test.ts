/**
 * The shared event-stream parser (src/core/event-stream.ts): line ends of every kind split across
 * chunks, work linear in the bytes received, and the cap on a line and on one event's data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser, EventStreamTooLarge, type EventStreamFrame } from '../../src/core/event-stream.js';
import { SseParser } from '../../src/cli/control/events.js';

function feed(parser: EventStreamParser, chunks: Array<string | Uint8Array>): EventStreamFrame[] {
  const out: EventStreamFrame[] = [];
  for (const c of chunks) out.push(...parser.push(c));
  out.push(...parser.end());
  return out;
}

describe('EventStreamParser', () => {
  it('reads LF, CRLF and CR line ends, a CRLF split between two chunks included', () => {
    const cases: Array<[string, string[]]> = [
      ['LF', ['data: a\n', '\n']],
      ['CRLF in one chunk', ['data: a\r\n\r\n']],
      ['CRLF split after CR', ['data: a\r', '\n\r', '\n']],
      ['CR alone', ['data: a\r', '\r']],
      ['CR then another line', ['data: a\rdata: b\r\r']],
    ];
    for (const [name, chunks] of cases) {
      const expected = name === 'CR then another line' ? [{ data: 'a\nb' }] : [{ data: 'a' }];
      expect([name, feed(new EventStreamParser(), chunks).map((f) => ({ data: f.data }))]).toEqual([name, expected]);
    }
  });

  it('gives the same frames however bytes are cut, inside a UTF-8 character or a CRLF included', () => {
    const text = 'id: 1\r\nevent: e\r\ndata: é✓\r\n\r\n: note\rdata: x\r\rdata: y\ndata: z\n\n';
    const bytes = new TextEncoder().encode(text);
    const expected = [
      { id: '1', event: 'e', data: 'é✓' },
      { id: undefined, event: undefined, data: 'x' },
      { id: undefined, event: undefined, data: 'y\nz' },
    ];
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 20 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i], end));
        expect(feed(new EventStreamParser(), chunks)).toEqual(expected);
      }),
    );
  });

  it('scans each byte once: a long line fed one byte at a time costs work linear in its length', () => {
    // Count the characters handed to any scan for a line end: the old parser ran a regular
    // expression over the whole buffer at every chunk (quadratic); the new one searches each chunk.
    // Patched by hand, not spied: a spy would keep every argument of 100,000 calls.
    let scanned = 0;
    const exec = RegExp.prototype.exec;
    const indexOf = Buffer.prototype.indexOf;
    RegExp.prototype.exec = function (this: RegExp, s: string) {
      scanned += s.length;
      return exec.call(this, s);
    };
    Buffer.prototype.indexOf = function (this: Buffer, value: number, from?: number) {
      scanned += this.length - (from ?? 0);
      return indexOf.call(this, value, from);
    } as typeof indexOf;
    const n = 100_000;
    const out: EventStreamFrame[] = [];
    try {
      const parser = new EventStreamParser();
      out.push(...parser.push('data: '));
      for (let i = 0; i < n; i++) out.push(...parser.push('x'));
      out.push(...parser.push('\n\n'));
    } finally {
      RegExp.prototype.exec = exec;
      Buffer.prototype.indexOf = indexOf;
    }
    expect(out).toHaveLength(1);
    expect(out[0]!.data).toHaveLength(n);
    expect(scanned).toBeLessThan(4 * (n + 10));
  });

  it('fails a line longer than the cap, whether it comes in one chunk or many', () => {
    const cap = 1024;
    expect(() => new EventStreamParser({ maxLineBytes: cap }).push(`data: ${'x'.repeat(cap)}\n`)).toThrow(EventStreamTooLarge);
    const parser = new EventStreamParser({ maxLineBytes: cap });
    parser.push('data: ');
    let thrown: unknown = null;
    try {
      for (let i = 0; i < 10 * cap; i++) parser.push('x'); // never a line end: the hostile case
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(EventStreamTooLarge);
    expect((thrown as Error).message).toBe('an event-stream line is longer than 1024 bytes');
    // A line of exactly the cap is fine.
    expect(feed(new EventStreamParser({ maxLineBytes: cap }), [`data: ${'x'.repeat(cap - 6)}\n\n`])[0]!.data).toHaveLength(cap - 6);
  });

  it("fails an event whose data lines together pass the cap, though each line is short", () => {
    const parser = new EventStreamParser({ maxLineBytes: 1024 });
    expect(() => {
      for (let i = 0; i < 1000; i++) parser.push('data: 0123456789\n');
    }).toThrow(/an event's data is longer than 1024 bytes/);
    // Short events one after another are fine: the count starts again at each blank line.
    const ok = new EventStreamParser({ maxLineBytes: 1024 });
    for (let i = 0; i < 1000; i++) expect(ok.push('data: 0123456789\n\n')).toHaveLength(1);
  });

  it('counts comments and unknown fields toward the line cap but never keeps them', () => {
    const parser = new EventStreamParser({ maxLineBytes: 64 });
    for (let i = 0; i < 10_000; i++) expect(parser.push(': keep-alive\nretry: 5\n')).toEqual([]);
    expect(() => parser.push(`: ${'c'.repeat(100)}\n`)).toThrow(EventStreamTooLarge);
  });
});

describe('the CLI follower (SseParser of src/cli/control/events.ts)', () => {
  it('reports a stream it cannot read once, to onError, and parses nothing after it', () => {
    const frames: string[] = [];
    const errors: Error[] = [];
    const parser = new SseParser((f) => frames.push(f.data), (err) => errors.push(err));
    parser.push('data: one\n\n');
    parser.push(Buffer.alloc(17 * 1024 * 1024, 'x'));
    parser.push('\n\ndata: two\n\n');
    expect(frames).toEqual(['one']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(EventStreamTooLarge);
  });
});
