import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { chunksOf, idsOf, MAX_CHUNK, MIN_CHUNK, runsOf, TEXT_THRESHOLD } from '../../src/store/texts.js';
import { testServices } from '../helpers/services.js';

const dirs: string[] = [];
const stores: Store[] = [];
function open(): Store {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-texts-'));
  dirs.push(dir);
  const store = Store.open(path.join(dir, 'svc.db'));
  stores.push(store);
  return store;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Word-like text of `n` characters, without line breaks, from a seed. */
function words(n: number, seed = 1): string {
  const vocabulary = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
  let x = seed;
  let out = '';
  while (out.length < n) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += `${vocabulary[(x >> 16) % vocabulary.length]}${(x >> 12) % 10 === 0 ? '. ' : ' '}`;
  }
  return out.slice(0, n);
}

const shared = (a: string[], b: string[]) => a.filter((c) => b.includes(c)).length;
const count = (store: Store) => store.db.prepare('SELECT count(*) FROM texts').pluck().get() as number;

/** Encode `value` as a JSON column of one row and read it back. */
function roundTrip(store: Store, value: unknown): { stored: string; textIds: string | null; back: unknown } {
  return store.tx(() => {
    const row = store.texts.row();
    const stored = row.json(value);
    const textIds = row.textIds();
    return { stored, textIds, back: store.texts.read(textIds).json(stored) };
  });
}

describe('content-defined chunks', () => {
  it('join back to the text; each is MIN_CHUNK..MAX_CHUNK long but the last', () => {
    const text = words(100_000);
    const chunks = chunksOf(text);
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBeGreaterThan(100_000 / MAX_CHUNK);
    for (const c of chunks.slice(0, -1)) {
      expect(c.length).toBeGreaterThan(MIN_CHUNK);
      expect(c.length).toBeLessThanOrEqual(MAX_CHUNK);
    }
  });

  it('a header line before a text, and "echo: " before that, leave the text its own chunks', () => {
    const text = words(16_384);
    const alone = chunksOf(text);
    const header = '[webhook_event from webhook (source=ci); trust untrusted; authority external_evidence; priority normal]';
    const entry = chunksOf(`${header}\n${text}`);
    const reply = chunksOf(`echo: ${header}\n${text}`);
    expect(entry).toEqual([`${header}\n`, ...alone]);
    expect(reply).toEqual([`echo: ${header}\n`, ...alone]);
  });

  it('boundaries re-align after a prefix without a line break', () => {
    const text = words(64_000, 7);
    const alone = chunksOf(text);
    for (const prefix of ['x', 'echo: ', words(300, 3), words(2000, 5)]) {
      const prefixed = chunksOf(prefix + text);
      expect(shared(alone, prefixed), JSON.stringify(prefix.slice(0, 20))).toBeGreaterThanOrEqual(alone.length - 3);
    }
  });

  it('never cut between the two halves of a surrogate pair', () => {
    const text = '😀é漢字'.repeat(5000);
    const chunks = chunksOf(text);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(text);
    for (const c of chunks) expect(c.isWellFormed()).toBe(true);
  });

  it('chunk ids are written as runs and read back', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 40 }), (ids) => {
        if (ids.length > 0) expect(idsOf(runsOf(ids))).toEqual(ids);
      }),
    );
    expect(runsOf([2, 3, 4, 5, 9, 1, 2])).toBe('2-5,9,1-2');
  });
});

describe('encoding of stored columns', () => {
  const long = words(TEXT_THRESHOLD * 3);
  /** Strings at the edges: a leading "\u0000", the threshold, unicode, lone surrogates. */
  const edgy = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string().map((s) => `\u0000${s}`),
    fc.string().map((s) => `\u0000\u0000${s}`),
    fc.constantFrom('', '\u0000', '\u0000\u0000', '\u00001,2', '\u00002-3'),
    fc.constantFrom(TEXT_THRESHOLD - 1, TEXT_THRESHOLD, TEXT_THRESHOLD + 1, 5000).map((n) => words(n, n)),
    fc.constantFrom(long, `\u0000${long}`, `\u0000\u0000${long}`, `😀${long}\ud800`, `${long}\udc00`, '漢字😀'.repeat(700)),
  );
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, edgy, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(fc.oneof(fc.string(), fc.constant('\u0000key'), fc.constant(long)), tie('value'), { maxKeys: 4 }),
  })).value;

  it('reads back every JSON value exactly as JSON.stringify wrote it', () => {
    const store = open();
    fc.assert(
      fc.property(json, (value) => {
        const { back } = roundTrip(store, value);
        expect(JSON.stringify(back)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('reads back every plain-text column exactly', () => {
    const store = open();
    fc.assert(
      fc.property(edgy, (text) => {
        const back = store.tx(() => {
          const row = store.texts.row();
          const stored = row.text(text);
          return store.texts.read(row.textIds()).text(stored);
        });
        expect(back).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a row of short strings as JSON.stringify wrote it, with no text_ids', () => {
    const store = open();
    const value = { a: 'short', b: [1, 'x'.repeat(TEXT_THRESHOLD - 1)], c: { d: null, '\u0000key': 'inline' } };
    expect(roundTrip(store, value)).toMatchObject({ stored: JSON.stringify(value), textIds: null });
    expect(count(store)).toBe(0);
  });

  it('stores a string of TEXT_THRESHOLD characters in texts, never a key', () => {
    const store = open();
    const text = words(TEXT_THRESHOLD, 11);
    const { stored, textIds, back } = roundTrip(store, { [long]: text, n: [text] });
    expect(back).toEqual({ [long]: text, n: [text] });
    expect(stored).not.toContain(text);
    expect(stored).toContain(long);
    // One text twice in a row: its chunks are listed once.
    expect(JSON.parse(textIds!)).toEqual(store.db.prepare('SELECT text_id FROM texts ORDER BY text_id').pluck().all());
  });

  it('encodes what JSON.stringify writes: the result of toJSON, without undefined', () => {
    const store = open();
    const text = words(4000, 13);
    const value = { at: new Date(0), quoted: { toJSON: () => text }, gone: undefined, list: [undefined, text] };
    const { stored, textIds, back } = roundTrip(store, value);
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    expect(textIds).not.toBeNull();
    expect(stored).not.toContain(text);
  });

  it('escapes a leading "\\u0000" and marks the row as encoded', () => {
    const store = open();
    const value = { text: '\u0000not a reference', other: '\u00001' };
    const { stored, textIds, back } = roundTrip(store, value);
    expect([JSON.parse(stored), textIds]).toEqual([{ text: '\u0000\u0000not a reference', other: '\u0000\u00001' }, '[]']);
    expect(back).toEqual(value);
  });

  it('reads a row written before texts existed (text_ids NULL) as it is, even with a leading "\\u0000"', () => {
    const store = open();
    expect(store.texts.read(null).json('{"a":"\\u00001,2"}')).toEqual({ a: '\u00001,2' });
    expect(store.texts.read(null).text('\u00001,2')).toBe('\u00001,2');
  });

  it('stores a text once, however many rows and what header lines quote it', () => {
    const store = open();
    const text = words(16_384, 5);
    roundTrip(store, { body: text });
    const once = store.db.prepare('SELECT sum(length(content)) FROM texts').pluck().get() as number;
    expect(once).toBe(text.length);
    roundTrip(store, { payload: { text } });
    roundTrip(store, `[header]\n${text}`);
    roundTrip(store, `echo: [header]\n${text}`);
    const after = store.db.prepare('SELECT sum(length(content)) FROM texts').pluck().get() as number;
    expect(after - once).toBe('[header]\n'.length + 'echo: [header]\n'.length);
  });
});

describe('strings stored lately', () => {
  /** Store `text` as the brief `id` (inside a transaction), and read it back. */
  const brief = (store: Store, id: string, text: string) => {
    const row = store.texts.row();
    store.db
      .prepare("INSERT INTO briefs (brief_id, agent_id, kind, title, text, created_at, text_ids) VALUES (?, 'a', 'result', 't', ?, 't', ?)")
      .run(id, row.text(text), row.textIds());
  };
  const read = (store: Store, id: string) => {
    const row = store.db.prepare('SELECT text, text_ids FROM briefs WHERE brief_id = ?').get(id) as { text: string; text_ids: string | null };
    return store.texts.read(row.text_ids).text(row.text);
  };

  it('are stored again when their chunks were deleted, rolled back or their ids taken by other chunks', () => {
    const store = open();
    const [a, b] = [words(9000, 21), words(9000, 22)];
    store.tx(() => brief(store, 'one', a));
    store.tx(() => store.db.prepare("DELETE FROM briefs WHERE brief_id = 'one'").run());
    expect(count(store)).toBe(0);
    // The same ids now name b's chunks.
    store.tx(() => brief(store, 'other', b));
    store.tx(() => brief(store, 'two', a));
    expect([read(store, 'other'), read(store, 'two')]).toEqual([b, a]);
    expect(() =>
      store.tx(() => {
        brief(store, 'three', `${a}!`);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    store.tx(() => brief(store, 'four', `${a}!`));
    expect(read(store, 'four')).toBe(`${a}!`);
    expect(store.db.prepare('SELECT sum(length(content)) FROM texts').pluck().get()).toBe(a.length + b.length + chunksOf(`${a}!`).pop()!.length);
  });
});

describe('reference counts', () => {
  /** A minimal row of each owning table, holding `text` in its text column. */
  const owners: Record<string, { insert: string; column: 'json' | 'text'; remove: string }> = {
    events: {
      insert: "INSERT INTO events (agent_id, event_seq, id, ts, type, level, payload, text_ids) VALUES ('a', @n, 'e' || @n, 't', 'x', 0, @value, @ids)",
      column: 'json',
      remove: 'DELETE FROM events WHERE event_seq = @n',
    },
    messages: {
      insert: `INSERT INTO messages (message_id, agent_id, kind, origin, trust, authority_class, priority, priority_rank, body, metadata, text_ids,
                 delivery_surface, status, created_at, updated_at)
               VALUES ('m' || @n, 'a', 'k', '{}', 't', 'c', 'normal', 2, @value, '{}', @ids, 's', 'queued', 't', 't')`,
      column: 'json',
      remove: "DELETE FROM messages WHERE message_id = 'm' || @n",
    },
    conversation_history: {
      insert: "INSERT INTO conversation_history (agent_id, seq, role, content, created_at, text_ids) VALUES ('a', @n, 'user', @value, 't', @ids)",
      column: 'text',
      remove: 'DELETE FROM conversation_history WHERE seq = @n',
    },
    turn_activities: {
      insert: "INSERT INTO turn_activities (turn_id, seq, kind, payload, created_at, text_ids) VALUES ('turn', @n, 'k', @value, 't', @ids)",
      column: 'json',
      remove: 'DELETE FROM turn_activities WHERE seq = @n',
    },
    briefs: {
      insert: "INSERT INTO briefs (brief_id, agent_id, kind, title, text, created_at, text_ids) VALUES ('b' || @n, 'a', 'result', 't', @value, 't', @ids)",
      column: 'text',
      remove: "DELETE FROM briefs WHERE brief_id = 'b' || @n",
    },
  };

  for (const [table, owner] of Object.entries(owners)) {
    it(`${table}: a text stays while one row references it and goes with the last`, () => {
      const store = open();
      const text = words(8000, table.length);
      const insert = (n: number, value: string) =>
        store.tx(() => {
          const row = store.texts.row();
          const stored = owner.column === 'json' ? row.json({ text: value }) : row.text(value);
          store.db.prepare(owner.insert).run({ n, value: stored, ids: row.textIds() });
        });
      const remove = (n: number) => store.tx(() => store.db.prepare(owner.remove).run({ n }));
      insert(1, text);
      insert(2, `${text}${text}`);
      const chunks = count(store);
      expect(chunks).toBeGreaterThan(3);
      expect(store.db.prepare('SELECT min(refs), max(refs) FROM texts').raw().get()).toEqual([1, 2]);
      remove(1);
      expect(count(store)).toBeGreaterThan(0);
      expect(store.db.prepare('SELECT min(refs), max(refs) FROM texts').raw().get()).toEqual([1, 1]);
      remove(2);
      expect(count(store)).toBe(0);
    });
  }

  it('an update of text_ids moves the counts', () => {
    const store = open();
    const [a, b] = [words(3000, 1), words(3000, 2)];
    const encode = (v: string) => {
      const row = store.texts.row();
      return { text: row.text(v), ids: row.textIds() };
    };
    store.tx(() => {
      const first = encode(a);
      store.db.prepare("INSERT INTO briefs (brief_id, agent_id, kind, title, text, created_at, text_ids) VALUES ('b', 'a', 'result', 't', ?, 't', ?)").run(first.text, first.ids);
    });
    store.tx(() => {
      const second = encode(b);
      store.db.prepare("UPDATE briefs SET text = ?, text_ids = ? WHERE brief_id = 'b'").run(second.text, second.ids);
    });
    // Only b's chunks are left, each referenced once.
    expect(store.db.prepare('SELECT sum(length(content)), max(refs) FROM texts').raw().get()).toEqual([b.length, 1]);
    expect(store.texts.read(store.db.prepare('SELECT text_ids FROM briefs').pluck().get() as string).text(store.db.prepare('SELECT text FROM briefs').pluck().get() as string)).toBe(b);
    store.tx(() => store.db.prepare("UPDATE briefs SET text = 'short', text_ids = NULL").run());
    expect(count(store)).toBe(0);
  });

  it('deleting an agent frees the texts of its messages, events, history, activities and briefs', async () => {
    const t = testServices({ runLoop: true });
    try {
      const { s } = t;
      s.agents.create('doomed', {});
      const text = words(20_000, 3);
      const { message_id } = await s.ingress.controlPrompt('doomed', text);
      const end = Date.now() + 10_000;
      while (s.queue.get(message_id)?.status !== 'completed') {
        if (Date.now() > end) throw new Error('the turn did not complete');
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(s.briefs.list('doomed', {})[0]!.text).toBe(`echo: ${text}`);
      expect(count(s.store)).toBeGreaterThan(10);
      s.deletion.request('doomed', { cascadePrivateChildren: false });
      await s.deletion.idle();
      expect(count(s.store)).toBe(0);
    } finally {
      await t.close();
    }
  });
});
