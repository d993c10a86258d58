/**
 * Server-Sent Events from a provider's streamed answer, parsed by the shared event-stream parser
 * (src/core/event-stream.ts); chunks may split anywhere, including inside a UTF-8 character.
 */
import { EventStreamParser, type EventStreamFrame } from '../../core/event-stream.js';

export interface SseMessage {
  event: string;
  data: string;
}

/** Provider streams: bytes in, only frames that carry data out, `message` when unnamed. */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private readonly parser = new EventStreamParser();

  /** Feed raw bytes; returns the events completed by them. */
  push(chunk: Uint8Array): SseMessage[] {
    return messages(this.parser.push(this.decoder.decode(chunk, { stream: true })));
  }

  /** End of stream: a last event without its blank line still counts. */
  end(): SseMessage[] {
    const rest = this.decoder.decode();
    return messages([...(rest ? this.parser.push(rest) : []), ...this.parser.end()]);
  }
}

function messages(frames: EventStreamFrame[]): SseMessage[] {
  const out: SseMessage[] = [];
  for (const f of frames) if (f.data !== null) out.push({ event: f.event || 'message', data: f.data });
  return out;
}
