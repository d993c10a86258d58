/**
 * Reading a provider's answer without trusting the server to be reasonable: the limits of one
 * model round ([model] in the config), the timers that enforce them, and the two readers of a
 * body (an event stream, or one document) that stay inside them. A server that sends a line with
 * no end, a body with no end, or keep-alives and nothing else fails the round with a
 * ProviderError; it never holds the daemon's event loop or memory.
 */
import { MODEL_LIMIT_DEFAULTS } from '../../config/index.js';
import { chunksOf, EventStreamParser, EventStreamTooLarge } from '../../core/index.js';
import { SseParser, type SseMessage } from './sse-parser.js';
import { ProviderError } from './types.js';

export interface StreamLimits {
  /** Longest line of an event stream, and longest data of one event (bytes): `model.stream_max_line_bytes`. */
  maxLineBytes: number;
  /** Largest non-streamed answer, and most content (text, thoughts, tool arguments) a streamed one may carry: `model.max_reply_bytes`. */
  maxReplyBytes: number;
  /** How long a request may go without content (headers, a data event, body bytes); keep-alives do not count: `model.stream_idle_timeout_ms`. */
  idleTimeoutMs: number;
  /** How long one round may take in all, retries and their waits included: `model.round_deadline_ms`. */
  roundDeadlineMs: number;
}

/** The limits [model] sets by default (config/schema.ts says why each is what it is). */
export const DEFAULT_LIMITS: StreamLimits = {
  maxLineBytes: MODEL_LIMIT_DEFAULTS.stream_max_line_bytes,
  maxReplyBytes: MODEL_LIMIT_DEFAULTS.max_reply_bytes,
  idleTimeoutMs: MODEL_LIMIT_DEFAULTS.stream_idle_timeout_ms,
  roundDeadlineMs: MODEL_LIMIT_DEFAULTS.round_deadline_ms,
};

/** Schedules `fn` after `ms`; the function returned cancels it. Tests inject one they fire by hand. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export const realTimer: SetTimer = (fn, ms) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

/** An abort signal raised `ms` after the last `restart()`: an idle timeout, or a deadline never restarted. */
export class Alarm {
  private readonly ctl = new AbortController();
  private cancel: () => void = () => {};

  constructor(
    private readonly ms: number,
    private readonly setTimer: SetTimer,
  ) {
    this.restart();
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  get fired(): boolean {
    return this.ctl.signal.aborted;
  }

  restart(): void {
    this.cancel();
    if (!this.fired) this.cancel = this.setTimer(() => this.ctl.abort(), this.ms);
  }

  clear(): void {
    this.cancel();
    this.cancel = () => {};
  }
}

/**
 * The SSE messages of a streamed answer. Only a message that carries data is content and restarts
 * the idle timer; comments and `ping` events (Anthropic's keep-alive) are not, so a server that
 * sends nothing else runs into the idle timeout.
 */
export async function* sseMessages(provider: string, res: Response, limits: StreamLimits, alive: () => void): AsyncIterable<SseMessage> {
  if (!res.body) return;
  const parser = new SseParser(new EventStreamParser({ maxLineBytes: limits.maxLineBytes }));
  try {
    for await (const chunk of chunksOf(res.body)) {
      const msgs = parser.push(chunk);
      // One restart of the idle timer per chunk that carries content, not one per message.
      if (msgs.some((m) => m.event !== 'ping')) alive();
      yield* msgs;
    }
    yield* parser.end();
  } catch (err) {
    if (err instanceof EventStreamTooLarge) throw tooLarge(provider, `${err.message} (model.stream_max_line_bytes)`);
    throw err;
  }
}

export function tooLarge(provider: string, detail: string): ProviderError {
  return new ProviderError('protocol', 'reply_too_large', `provider ${provider}: ${detail}`);
}
