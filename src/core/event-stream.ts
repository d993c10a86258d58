/**
 * The one parser of the Server-Sent Events wire format (WHATWG event-stream), for every client in
 * svc: the CLI following the daemon's streams and the model providers reading streamed answers.
 * Fields `id`, `event` and `data` (multi-line data joined by `\n`), comments and other fields
 * ignored, a frame dispatched at each blank line. Lines may end in LF, CRLF or CR and text may
 * arrive split anywhere.
 */
export interface EventStreamFrame {
  id?: string;
  event?: string;
  /** null when the frame had no `data:` line. */
  data: string | null;
}

export class EventStreamParser {
  private buffer = '';
  private frame: { id?: string; event?: string; data: string[] } = { data: [] };

  /** Feed text; returns the frames it completed. */
  push(text: string): EventStreamFrame[] {
    this.buffer += text;
    return this.drain(false);
  }

  /** End of stream: a last frame without its blank line still counts. */
  end(): EventStreamFrame[] {
    return this.drain(true);
  }

  private drain(final: boolean): EventStreamFrame[] {
    const out: EventStreamFrame[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A trailing CR may be the first half of CRLF: wait for more unless the stream ended.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1 && !final)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line, out);
    }
    if (final) {
      if (this.buffer) this.line(this.buffer, out);
      this.buffer = '';
      this.line('', out);
    }
    return out;
  }

  private line(line: string, out: EventStreamFrame[]): void {
    if (line === '') {
      const f = this.frame;
      this.frame = { data: [] };
      if (f.data.length > 0 || f.id !== undefined) out.push({ id: f.id, event: f.event, data: f.data.length > 0 ? f.data.join('\n') : null });
      return;
    }
    if (line.startsWith(':')) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.frame.data.push(value);
    else if (field === 'id') this.frame.id = value;
    else if (field === 'event') this.frame.event = value;
  }
}
