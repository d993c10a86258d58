/**
 * read_file's line ranges: the file is read in chunks, lines before the range are only counted,
 * and the lines of the range are kept until the byte budget is spent. The budget counts both the
 * raw bytes (`max_bytes`) and what the lines cost once JSON-encoded in the tool result (quotes and
 * control characters are escaped), so an answer fits the result cap whole. A cut always ends on a
 * whole line and says which line to ask for next; only a single line longer than the budget is cut
 * inside (at a UTF-8 character boundary), and the answer says so. Counting the file's lines to the
 * end costs a scan, done for files up to `max_file_bytes`; past that `total_lines` is null unless
 * the range reached the end.
 */
import type { Reader } from './file-io.js';

const CHUNK = 64 * 1024;
const NL = 0x0a;

export interface LineRange {
  /** First line wanted, 1-based. */
  offsetLine: number;
  /** Most lines wanted (null: as many as the budget allows). */
  limitLines: number | null;
  /** Raw bytes of content at most. */
  maxBytes: number;
  /** JSON-encoded bytes of content at most. */
  maxEncoded: number;
  /** Count the lines to the end of a file up to this size. */
  countUpTo: number;
}

export interface LineSlice {
  start_line: number;
  end_line: number;
  total_lines: number | null;
  content: string;
  /** A cap cut the range short (the lines asked for were not all returned). */
  truncated: boolean;
  /** The single line at `start_line` is longer than the budget; content holds its start. */
  line_cut: boolean;
  /** Where to go on (null: the file ends here). */
  next_offset_line: number | null;
}

/** Characters JSON.stringify escapes. */
const ESCAPED = /["\\\u0000-\u001f]/;

/** JSON-encoded byte size of `s` (of `bytes` UTF-8 bytes) without its quotes. */
function encodedSize(s: string, bytes = Buffer.byteLength(s)): number {
  return ESCAPED.test(s) ? Buffer.byteLength(JSON.stringify(s)) - 2 : bytes;
}

/** `buf` cut to at most `n` bytes, never inside a UTF-8 character. */
export function cutUtf8(buf: Buffer, n: number): Buffer {
  if (buf.length <= n) return buf;
  let end = n;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end);
}

/** Read the lines of `range` from an open file of `size` bytes. */
export async function readLines(reader: Reader, size: number, range: LineRange): Promise<LineSlice> {
  const buf = Buffer.alloc(CHUNK);
  const counting = size <= range.countUpTo;
  const kept: string[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let newlines = 0;
  let lastByte = -1;
  let rawUsed = 0;
  let encUsed = 0;
  let stop: 'limit' | 'budget' | null = null;
  let lineCut = false;
  let pos = 0;
  let eof = false;

  /** A whole line of the range: keep it, or stop because the budget is spent. */
  const finishLine = (): void => {
    const bytes = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const text = bytes.toString('utf8');
    const enc = encodedSize(text, bytes.length);
    if (rawUsed + bytes.length > range.maxBytes || encUsed + enc > range.maxEncoded) {
      if (kept.length === 0) {
        // The first line alone is over the budget: its start, cut where both budgets allow.
        let cut = cutUtf8(bytes, range.maxBytes);
        while (cut.length > 0 && encodedSize(cut.toString('utf8')) > range.maxEncoded) cut = cutUtf8(cut, Math.floor(cut.length * 0.9));
        kept.push(cut.toString('utf8'));
        lineCut = true;
      }
      stop = 'budget';
      return;
    }
    kept.push(text);
    rawUsed += bytes.length;
    encUsed += enc;
    if (range.limitLines !== null && kept.length >= range.limitLines) stop = 'limit';
  };

  outer: for (;;) {
    const bytesRead = await reader.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) {
      eof = true;
      break;
    }
    pos += bytesRead;
    const chunk = buf.subarray(0, bytesRead);
    lastByte = chunk[bytesRead - 1]!;
    let from = 0;
    while (from < bytesRead) {
      const nl = chunk.indexOf(NL, from);
      const end = nl === -1 ? bytesRead : nl + 1;
      if (stop === null && newlines + 1 >= range.offsetLine) {
        // Keep no more of a long line than could ever be shown (+4: enough to see it is over).
        const room = range.maxBytes + 4 - pendingBytes;
        if (room > 0) {
          const piece = Buffer.from(chunk.subarray(from, Math.min(end, from + room)));
          pending.push(piece);
          pendingBytes += piece.length;
        }
        if (nl !== -1) finishLine();
      }
      if (nl !== -1) newlines++;
      from = end;
      if (stop !== null && !counting) break outer;
    }
  }
  // The last line, without a newline after it.
  if (eof && stop === null && pendingBytes > 0) finishLine();
  const total = eof ? newlines + (pos > 0 && lastByte !== NL ? 1 : 0) : null;
  const startLine = range.offsetLine;
  const endLine = startLine + kept.length - 1;
  const more = total === null || endLine < total;
  return {
    start_line: startLine,
    end_line: endLine,
    total_lines: total,
    content: kept.join(''),
    truncated: stop === 'budget',
    line_cut: lineCut,
    next_offset_line: more && kept.length > 0 ? endLine + 1 : null,
  };
}
