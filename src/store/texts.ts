/**
 * Long texts stored once (migration 023, table `texts`; src/store/README.md). One message's text
 * used to reach the database many times over: the message body, its `message_enqueued` event, the
 * conversation history (behind a header line), and the reply quoting it in the history, the round
 * activity, the brief and `brief_created` (twice). The owning columns (`events.payload`,
 * `messages.body`/`metadata`, `conversation_history.content`, `turn_activities.payload`,
 * `briefs.text`) keep their shape but hold each long string as a reference to chunks of `texts`,
 * so a text is on the disk once however many rows quote it.
 *
 * - A string value of at least TEXT_THRESHOLD UTF-16 code units is cut into chunks at
 *   content-defined boundaries: a gear rolling hash over the last 32 characters, a cut where its
 *   top bits are zero, MIN_CHUNK to MAX_CHUNK characters a chunk. A boundary depends only on the
 *   characters just before it, so cuts re-align after a differing prefix. The first chunk ends at
 *   the last line break among the first MIN_CHUNK characters, if any: T, "header\nT" and
 *   "echo: header\nT" then differ in their first chunk only. A cut never splits a surrogate pair.
 * - Each chunk is stored once by the sha256 of its UTF-8 bytes (`INSERT ... ON CONFLICT DO
 *   NOTHING`), and the string becomes the reference "\u0000" + its chunk ids as runs ("2-12,14").
 *   A stored string that itself begins with "\u0000" is escaped by doubling that character;
 *   decoding undoes both. Only string values are touched, never object keys. Shorter strings stay
 *   inline, and so does a string that is not well-formed UTF-16 (a lone surrogate: SQLite's TEXT
 *   cannot hold it, JSON escapes it).
 * - Each owning row records the chunk ids it references in `text_ids` (a JSON array in the order
 *   of its references, each distinct string once; NULL when nothing in the row is encoded).
 *   `text_ids` is also what marks a row as encoded: a row with NULL is read as it is, which is how
 *   every row written before migration 023 is read. A row that only needed an escape gets `[]`.
 * - Triggers on each owning table count references (`texts.refs`: one per owning row, however
 *   often the row names the chunk) and delete a chunk whose count reaches 0, so no delete site
 *   (an agent purge, or anything that deletes rows later) needs to know about texts.
 *
 * An encoder inserts new chunks with refs 0 and the owning row's insert, right after in the same
 * transaction, counts them; if that insert fails, the enclosing transaction or savepoint rolls
 * both back. Chunk contents are never cached by id (a freed id may be reused by another chunk);
 * the long strings stored last are remembered with the digests of their chunks and reused only
 * while their ids still name chunks with those digests.
 */
import { hash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** Strings this long (UTF-16 code units) or longer are stored in `texts`. */
export const TEXT_THRESHOLD = 1024;
/** Chunk sizes in UTF-16 code units; an ASCII chunk of MAX_CHUNK fits in one 4 KiB page. */
export const MIN_CHUNK = 512;
export const MAX_CHUNK = 4000;
/** A cut where these bits of the gear hash are zero: one in 1024 positions past MIN_CHUNK. */
const CUT_MASK = 0xffc00000 | 0;
/** The gear hash shifts one bit per character: its top bits depend on the last 32 characters. */
const WINDOW = 32;

/** The first character of a reference, and of an escaped string (doubled). */
const MARK = '\u0000';

/** 256 fixed pseudo-random words (xorshift32 from a fixed seed): the same cuts in every release. */
const GEAR = (() => {
  const table = new Int32Array(256);
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x;
  }
  return table;
})();

function gear(code: number): number {
  return GEAR[(code ^ (code >>> 8)) & 0xff]!;
}

/** End offset of the chunk of `s` starting at `start`. */
function cutAfter(s: string, start: number): number {
  const n = s.length;
  if (n - start <= MIN_CHUNK) return n;
  const limit = Math.min(n, start + MAX_CHUNK);
  let h = 0;
  let i = start + MIN_CHUNK - WINDOW;
  for (; i < start + MIN_CHUNK; i++) h = ((h << 1) + gear(s.charCodeAt(i))) | 0;
  let cut = limit;
  for (; i < limit; i++) {
    h = ((h << 1) + gear(s.charCodeAt(i))) | 0;
    if ((h & CUT_MASK) === 0) {
      cut = i + 1;
      break;
    }
  }
  // Never between the two halves of a surrogate pair (the string is well-formed: the next one is the low half).
  const before = s.charCodeAt(cut - 1);
  if (cut < n && before >= 0xd800 && before <= 0xdbff) cut++;
  return cut;
}

/**
 * The chunks of `s` at content-defined boundaries (their concatenation is `s`). The first chunk
 * ends at the last line break among the first MIN_CHUNK characters, if there is one: a few
 * lines put before a text (a message's header in the history, "echo: " and that header in a
 * reply quoting it) then make a chunk of their own, and the text's chunks are those it has alone.
 */
export function chunksOf(s: string): string[] {
  const chunks: string[] = [];
  const firstLines = s.lastIndexOf('\n', MIN_CHUNK - 1) + 1;
  if (firstLines > 0) chunks.push(s.slice(0, firstLines));
  for (let start = firstLines; start < s.length; ) {
    const end = cutAfter(s, start);
    chunks.push(s.slice(start, end));
    start = end;
  }
  return chunks;
}

declare global {
  interface String {
    /** ES2024 (Node 20): false when the string holds a lone surrogate. */
    isWellFormed(): boolean;
  }
}

/** A long string stored lately: its chunk ids, and their digests end to end (to check that the ids still name those chunks). */
interface Stored {
  ids: number[];
  digests: Buffer;
}

/**
 * The long strings remembered (Texts.chunkIds): the last few, of at most about 8 MB together. (Few:
 * V8 hashes a string past 16,383 characters by its length alone, so such keys share a bucket.)
 */
const RECENT_STRINGS = 8;
const RECENT_CHARS = 4 * 1024 * 1024;

export class Texts {
  private readonly stmt: ReturnType<typeof prepare>;
  /** The long strings stored last, oldest first. */
  private readonly recent = new Map<string, Stored>();
  private recentChars = 0;

  constructor(db: Database.Database) {
    this.stmt = prepare(db);
  }

  /** An encoder for one owning row: encode its columns, then store `textIds()` beside them. */
  row(): RowEncoder {
    return new RowEncoder(this);
  }

  /** A decoder of one row's columns, given its `text_ids`. */
  read(textIds: string | null): RowDecoder {
    return textIds === null ? PLAIN : new RowDecoder(this, textIds);
  }

  /**
   * The chunk ids of a long string; a chunk not stored yet is inserted with refs 0 (the owning
   * row's insert, right after, counts it). One text is written by several rows one after the
   * other (a message and its event; a reply in the history, the round, the brief and its event),
   * so the strings stored last are remembered. A remembered string is used again only if its ids
   * still name chunks of the same digests: a rollback or a delete since may have removed them,
   * and a freed id may be taken by another chunk.
   */
  chunkIds(s: string): number[] {
    const known = this.recent.get(s);
    if (known && this.stillStored(known)) return known.ids;
    const ids: number[] = [];
    const digests: Buffer[] = [];
    for (const chunk of chunksOf(s)) {
      const digest = hash('sha256', chunk, 'buffer');
      // Insert first: most chunks are new (a text is new once, then its repeats are remembered).
      ids.push((this.stmt.insert.get(digest, chunk) as number | undefined) ?? (this.stmt.find.get(digest) as number));
      digests.push(digest);
    }
    this.remember(s, { ids, digests: Buffer.concat(digests) });
    return ids;
  }

  private stillStored(known: Stored): boolean {
    return this.stmt.unchanged.get({ ids: JSON.stringify(known.ids), digests: known.digests }) === known.ids.length;
  }

  private remember(s: string, stored: Stored): void {
    if (this.recent.delete(s)) this.recentChars -= s.length;
    if (s.length > RECENT_CHARS) return;
    this.recent.set(s, stored);
    this.recentChars += s.length;
    for (const oldest of this.recent.keys()) {
      if (this.recentChars <= RECENT_CHARS && this.recent.size <= RECENT_STRINGS) break;
      this.recent.delete(oldest);
      this.recentChars -= oldest.length;
    }
  }

  /** The chunks a row references, by id. */
  load(textIds: string): Map<number, string> {
    const chunks = new Map<number, string>();
    for (const row of this.stmt.load.all(textIds) as Array<{ text_id: number; content: string }>) chunks.set(row.text_id, row.content);
    return chunks;
  }
}

/** Encodes the columns of one row; `textIds()` is what to store in its `text_ids`. */
export class RowEncoder {
  private readonly ids: number[] = [];
  /** The reference of each long string already encoded in this row (a row holding one twice lists its chunks once). */
  private refs: Map<string, string> | null = null;
  private encoded = false;

  constructor(private readonly texts: Texts) {}

  /** `JSON.stringify(value)` with long strings as references (and a leading "\u0000" escaped). */
  json(value: unknown): string {
    if (!longStringNear(value)) {
      const plain = JSON.stringify(value);
      // No string this long fits in the JSON, and none holds "\u0000": stored as it is (most rows).
      if (plain.length < TEXT_THRESHOLD && !plain.includes('\\u0000')) return plain;
    }
    // The replacer sees every value JSON.stringify writes (after toJSON), never a key.
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? this.encodeString(v) : v));
  }

  /** A plain-text column. */
  text(value: string): string {
    return this.encodeString(value);
  }

  /** The row's `text_ids`: the chunk ids its columns reference, in order, or null when nothing was encoded. */
  textIds(): string | null {
    return this.encoded ? JSON.stringify(this.ids) : null;
  }

  private encodeString(s: string): string {
    if (s.length >= TEXT_THRESHOLD && s.isWellFormed()) {
      this.encoded = true;
      this.refs ??= new Map();
      let ref = this.refs.get(s);
      if (ref === undefined) {
        const ids = this.texts.chunkIds(s);
        this.ids.push(...ids);
        ref = MARK + runsOf(ids);
        this.refs.set(s, ref);
      }
      return ref;
    }
    if (s.charCodeAt(0) !== 0) return s;
    this.encoded = true;
    return MARK + s;
  }
}

/**
 * Whether a long string is among the values of `value` or of the objects directly in it (where a
 * message's text, a reply or a brief sits in a payload): then the payload goes through the
 * replacer at once, and its long text is not serialised twice. Deeper ones are found all the same.
 */
function longStringNear(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= TEXT_THRESHOLD;
  if (value === null || typeof value !== 'object') return false;
  const values = value as Record<string, unknown>;
  for (const key in values) {
    const v = values[key];
    if (typeof v === 'string') {
      if (v.length >= TEXT_THRESHOLD) return true;
    } else if (v !== null && typeof v === 'object') {
      const inner = v as Record<string, unknown>;
      for (const k in inner) {
        const w = inner[k];
        if (typeof w === 'string' && w.length >= TEXT_THRESHOLD) return true;
      }
    }
  }
  return false;
}

/** Reads the columns of one row as they were before encoding (its chunks are loaded at the first reference). */
export class RowDecoder {
  private chunks: Map<number, string> | null = null;

  constructor(
    private readonly texts: Texts | null,
    private readonly textIds: string | null,
  ) {}

  json<T = unknown>(stored: string): T {
    if (this.textIds === null) return JSON.parse(stored) as T;
    return JSON.parse(stored, (_key, v: unknown) => (typeof v === 'string' ? this.decodeString(v) : v)) as T;
  }

  text(stored: string): string {
    return this.textIds === null ? stored : this.decodeString(stored);
  }

  private decodeString(s: string): string {
    if (s.charCodeAt(0) !== 0) return s;
    if (s.charCodeAt(1) === 0) return s.slice(1);
    const chunks = (this.chunks ??= this.texts!.load(this.textIds!));
    let out = '';
    for (const id of idsOf(s.slice(1))) {
      const chunk = chunks.get(id);
      if (chunk === undefined) throw new Error(`text chunk ${id} is missing from the database`);
      out += chunk;
    }
    return out;
  }
}

/**
 * Chunk ids as runs, "2-12,14,3": a new text's chunks are inserted one after the other, so its
 * reference stays short however long the text (rows of WITHOUT ROWID tables past ~1 KB spill
 * into an overflow page of their own).
 */
export function runsOf(ids: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < ids.length; ) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    runs.push(j > i ? `${ids[i]}-${ids[j]}` : `${ids[i]}`);
    i = j + 1;
  }
  return runs.join(',');
}

export function idsOf(runs: string): number[] {
  const ids: number[] = [];
  for (const run of runs.split(',')) {
    const dash = run.indexOf('-');
    if (dash < 0) ids.push(Number(run));
    else for (let id = Number(run.slice(0, dash)), last = Number(run.slice(dash + 1)); id <= last; id++) ids.push(id);
  }
  return ids;
}

/** The decoder of a row stored as it is (`text_ids` NULL: nothing encoded, e.g. written before migration 023). */
const PLAIN = new RowDecoder(null, null);

function prepare(db: Database.Database) {
  return {
    insert: db.prepare('INSERT INTO texts (hash, content) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING RETURNING text_id').pluck(),
    find: db.prepare('SELECT text_id FROM texts WHERE hash = ?').pluck(),
    /** How many of the ids (a JSON array) name a chunk whose digest is the one at the same place in the digests given. */
    unchanged: db
      .prepare('SELECT count(*) FROM json_each(@ids) j JOIN texts t ON t.text_id = j.value AND t.hash = substr(@digests, j.key * 32 + 1, 32)')
      .pluck(),
    load: db.prepare('SELECT text_id, content FROM texts WHERE text_id IN (SELECT value FROM json_each(?))'),
  };
}
