/**
 * Server-Sent Events from a provider's streamed answer (the WHATWG event-stream format): `event:`
 * and `data:` fields, multi-line data joined by `\n`, comments and `id:`/`retry:` ignored, an
 * event dispatched at each blank line. Lines may end in LF, CRLF or CR and chunks may split
 * anywhere, including inside a UTF-8 character.
 */
export interface SseMessage {
  event: string;
  data: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** Feed raw bytes; returns the events completed by them. */
  push(chunk: Uint8Array): SseMessage[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** End of stream: a last event without its blank line still counts. */
  end(): SseMessage[] {
    this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(final: boolean): SseMessage[] {
    const out: SseMessage[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A trailing CR may be the first half of CRLF: wait for the next chunk unless the stream ended.
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

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}
