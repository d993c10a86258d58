/**
 * Server-Sent Events from a provider's streamed answer, parsed by the shared event-stream parser
 * (src/core/event-stream.ts, which also caps the length of a line); chunks may split anywhere,
 * including inside a UTF-8 character.
 */
import { EventStreamParser, type EventStreamFrame } from '../../core/index.js';

export interface SseMessage {
  event: string;
  data: string;
}

/** Provider streams: bytes in, only frames that carry data out, `message` when unnamed. */
export class SseParser {
  constructor(private readonly parser = new EventStreamParser()) {}

  /** Feed raw bytes; returns the events completed by them. Throws EventStreamTooLarge past the parser's cap. */
  push(chunk: Uint8Array): SseMessage[] {
    return messages(this.parser.push(chunk));
  }

  /** End of stream: a last event without its blank line still counts. */
  end(): SseMessage[] {
    return messages(this.parser.end());
  }
}

function messages(frames: EventStreamFrame[]): SseMessage[] {
  const out: SseMessage[] = [];
  for (const f of frames) if (f.data !== null) out.push({ event: f.event || 'message', data: f.data });
  return out;
}
