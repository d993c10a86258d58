/**
 * The one parser of the Server-Sent Events wire format (WHATWG event-stream), for every client in
 * svc: the CLI following the daemon's streams and the model providers reading streamed answers.
 * Fields `id`, `event` and `data` (multi-line data joined by `\n`), comments and other fields
 * ignored, a frame dispatched at each blank line. Lines may end in LF, CRLF or CR and bytes may
 * arrive split anywhere, including inside a UTF-8 character.
 *
 * Linear in the bytes received: each chunk is scanned once, from where the last one ended, and
 * an unfinished line is kept as a list of pieces joined only when its end arrives. A line, or a
 * frame's data, longer than `maxLineBytes` fails the stream (EventStreamTooLarge) instead of
 * growing without end: the peer on the other side is not trusted to ever send a newline.
 */
export interface EventStreamFrame {
  id?: string;
  event?: string;
  /** null when the frame had no `data:` line. */
  data: string | null;
}

/** The cap when the caller names none: far above any frame the daemon sends, well below harm. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** A line or a frame's data over the parser's cap; the stream cannot be read further. */
export class EventStreamTooLarge extends Error {
  constructor(
    readonly what: 'line' | 'data',
    readonly limitBytes: number,
  ) {
    super(what === 'line' ? `an event-stream line is longer than ${limitBytes} bytes` : `an event's data is longer than ${limitBytes} bytes`);
    this.name = 'EventStreamTooLarge';
  }
}

const LF = 0x0a;
const CR = 0x0d;

export class EventStreamParser {
  /** The unfinished line: its pieces (copies or whole chunks) and their total length. */
  private pieces: Buffer[] = [];
  private pending = 0;
  /** The last line ended in CR: an LF opening the next chunk is the rest of that CRLF. */
  private afterCR = false;
  private frame: { id?: string; event?: string; data: string[]; bytes: number } = { data: [], bytes: 0 };
  private readonly maxLineBytes: number;

  constructor(opts: { maxLineBytes?: number } = {}) {
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Feed bytes (or text, taken as UTF-8); returns the frames they completed. */
  push(chunk: Uint8Array | string): EventStreamFrame[] {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: EventStreamFrame[] = [];
    let pos = 0;
    if (this.afterCR && buf.length > 0) {
      this.afterCR = false;
      if (buf[0] === LF) pos = 1;
    }
    // The next LF and CR at or after `pos`, each searched again only once passed (-1: none left).
    let lf = -2;
    let cr = -2;
    while (pos < buf.length) {
      if (lf !== -1 && lf < pos) lf = buf.indexOf(LF, pos);
      if (cr !== -1 && cr < pos) cr = buf.indexOf(CR, pos);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      this.line(this.finish(buf, pos, end), out);
      pos = end + 1;
      if (buf[end] === CR) {
        if (pos === buf.length) this.afterCR = true;
        else if (buf[pos] === LF) pos++;
      }
    }
    if (pos < buf.length) {
      this.grow(buf.length - pos);
      // A tail is copied so it does not hold its whole chunk alive; a chunk without a line end is kept as it is.
      this.pieces.push(pos === 0 ? buf : Buffer.from(buf.subarray(pos)));
    }
    return out;
  }

  /** End of stream: a last frame without its blank line still counts. */
  end(): EventStreamFrame[] {
    const out: EventStreamFrame[] = [];
    if (this.pending > 0) this.line(this.finish(Buffer.alloc(0), 0, 0), out);
    this.afterCR = false;
    this.line('', out);
    return out;
  }

  private grow(bytes: number): void {
    this.pending += bytes;
    if (this.pending > this.maxLineBytes) throw new EventStreamTooLarge('line', this.maxLineBytes);
  }

  /** The unfinished line completed by `buf[start, end)`, decoded. */
  private finish(buf: Buffer, start: number, end: number): string {
    this.grow(end - start);
    if (this.pieces.length === 0) {
      this.pending = 0;
      return buf.toString('utf8', start, end);
    }
    const line = Buffer.concat([...this.pieces, buf.subarray(start, end)], this.pending).toString('utf8');
    this.pieces = [];
    this.pending = 0;
    return line;
  }

  private line(line: string, out: EventStreamFrame[]): void {
    if (line === '') {
      const f = this.frame;
      this.frame = { data: [], bytes: 0 };
      if (f.data.length > 0 || f.id !== undefined) out.push({ id: f.id, event: f.event, data: f.data.length > 0 ? f.data.join('\n') : null });
      return;
    }
    if (line.startsWith(':')) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      // Many short data lines without a blank one would grow the frame as one long line does.
      this.frame.bytes += Buffer.byteLength(value) + 1;
      if (this.frame.bytes > this.maxLineBytes) throw new EventStreamTooLarge('data', this.maxLineBytes);
      this.frame.data.push(value);
    } else if (field === 'id') this.frame.id = value;
    else if (field === 'event') this.frame.event = value;
  }
}
