import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventSearch } from '../../src/runtime/views/event-search.js';
import { chunksOf, TEXT_THRESHOLD } from '../../src/store/texts.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let search: EventSearch;
beforeEach(() => {
  t = testServices({ start: false });
  t.s.store.tx(() => t.s.agents.create('a', {}));
  search = new EventSearch(t.s);
});
afterEach(() => t.close());

/** Word-like text of `n` characters with line breaks, quotes, backslashes and LIKE's wildcards. */
function prose(n: number, seed = 1): string {
  const parts = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'a', 'lazy', 'dog;', '"quoted"', 'back\\slash', 'line\nbreak', '50%', 'snake_case'];
  let x = seed;
  let out = '';
  while (out.length < n) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += `${parts[(x >> 16) % parts.length]} `;
  }
  return out.slice(0, n);
}

function enqueued(text: string): number {
  return t.s.store.tx(() => t.s.events.append('a', 'message_enqueued', { message_id: `msg_${text.length}`, body: { type: 'text', text } })).event_seq;
}
const seqsFor = (query: string) => search.search({ query }).results.map((r) => r.locator.event_seq);

describe('event search over long texts', () => {
  it('finds a match inside a long text and across a chunk boundary, and reads the whole text back', () => {
    const text = `${'x'.repeat(600)} ${prose(20_000).replace(/[^a-z ]/g, '')} needle-at-the-end`;
    const [first, second] = chunksOf(text);
    const across = text.slice(first!.length - 15, first!.length + 15);
    expect(text.indexOf(across)).toBe(first!.length - 15);
    const seq = enqueued(text);
    expect(t.s.store.db.prepare('SELECT payload FROM events WHERE event_seq = ?').pluck().get(seq)).not.toContain(second!.slice(0, 50));
    for (const query of [across, 'NEEDLE-AT-THE-END', second!.slice(10, 60)]) expect(seqsFor(query), query).toEqual([seq]);
    const [hit] = search.search({ query: 'needle-at-the-end' }).results;
    expect(hit!.preview.endsWith('needle-at-the-end')).toBe(true);
    expect(search.source(hit!.source_ref)).toMatchObject({ content: text, truncated: false });
  });

  it('matches a long text as it matches the same text stored inline (the JSON text is what is searched)', () => {
    const short = prose(TEXT_THRESHOLD - 1);
    const long = `${short} ${prose(3 * TEXT_THRESHOLD, 2)}`;
    const shortSeq = enqueued(short);
    const longSeq = enqueued(long);
    const words = /[a-z ]{20}/.exec(short)![0];
    for (const query of [words, '"quoted"', 'line\nbreak', 'back\\slash', '50%', 'snake_case', 'dog; "', 'msg_', 'text":"the']) {
      const inline = seqsFor(query).includes(shortSeq);
      expect(seqsFor(query).includes(longSeq), query).toBe(inline);
    }
    expect(seqsFor(words)).toEqual([longSeq, shortSeq]);
  });
});
