/**
 * Token counting (docs/context.md#token-counting). OpenAI models are counted with their own
 * encodings (npm `gpt-tokenizer`: o200k_base, cl100k_base), loaded on first use of the family;
 * every other model gets the estimate of token-estimate.ts. A count is raw: what the provider
 * then reports (`observe`) teaches a per-model correction (`factor`) that the caller multiplies
 * the counts by.
 *
 * Bounded time: a text over ENCODE_MAX_CHARS is estimated, not encoded, and a text that is
 * encoded goes through the encoder in pieces of at most PIECE_CHARS, cut after a line break or
 * before a space where there is one. Byte-pair merging is quadratic in the length of one
 * pre-token (256 KiB of `a` takes a minute in one piece, 13 ms in pieces); cutting at those
 * places changes no pre-token, so ordinary text counts exactly as in one piece.
 */
import { createRequire } from 'node:module';
import type { ChatMessage, ToolSpec } from '../providers/index.js';
import { estimateTokens } from './token-estimate.js';

export type TokenFamily = 'o200k' | 'cl100k' | 'estimate';

/** Texts longer than this (UTF-16 code units) are estimated instead of encoded. */
export const ENCODE_MAX_CHARS = 256 * 1024;
/** Longest piece handed to the encoder at once. */
export const PIECE_CHARS = 2048;

/**
 * What a request adds around its texts (the chat format's framing): every message its role and
 * delimiters, the reply its primer, every tool its wrapper, and tools at all a preamble the
 * provider writes. OpenAI's published rule for chat messages is 3 per message plus 3; the tool
 * figures are what both wire formats add around a schema, roughly: observe() corrects the rest.
 */
export const OVERHEAD = { message: 4, reply: 3, toolCall: 4, tool: 8, tools: 16 } as const;

/** Calibration: the weight of a new observation once the average has settled, and its bounds. */
const EMA_WEIGHT = 0.1;
const FACTOR_MIN = 0.5;
const FACTOR_MAX = 2;
/** Prompts counted below this many tokens teach nothing (framing dominates them). */
const OBSERVE_MIN_COUNTED = 32;
/** Models whose correction is kept (the oldest observed goes first). */
const MAX_MODELS = 256;
/**
 * Counts kept per encoded text, so a history counted again each turn is encoded once: texts of
 * at least CACHE_MIN_CHARS, at most CACHE_MAX_CHARS of them in all per family (the least recently
 * used go first).
 */
const CACHE_MIN_CHARS = 256;
const CACHE_MAX_CHARS = 8 * 1024 * 1024;

interface Encoder {
  countTokens(text: string, opts: { disallowedSpecial: Set<string> }): number;
}

/** A special token in a text (`<|endoftext|>`) is counted as the text it is, as the APIs do. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const ENCODING_MODULE: Record<Exclude<TokenFamily, 'estimate'>, string> = {
  o200k: 'gpt-tokenizer/encoding/o200k_base',
  cl100k: 'gpt-tokenizer/encoding/cl100k_base',
};

/** Model names by family: the name after the last `/`, lower-cased, starts with one of these. */
const O200K = /^(?:ft:)?(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4|codex-mini)(?![a-z0-9])/;
const CL100K = /^(?:ft:)?(?:gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)(?![a-z0-9])/;

interface Calibration {
  factor: number;
  observations: number;
}

export interface TokenCounterOptions {
  /** Loads an encoding module (tests); default: require from the installed package. */
  load?: (module: string) => Encoder;
  /** Told once when an encoding cannot be loaded (its family is estimated from then on). */
  onLoadError?: (family: TokenFamily, err: unknown) => void;
}

export class TokenCounter {
  private readonly encoders = new Map<TokenFamily, Encoder | null>();
  private readonly calibration = new Map<string, Calibration>();
  private readonly caches = new Map<TokenFamily, CountCache>();
  private readonly load: (module: string) => Encoder;

  constructor(private readonly opts: TokenCounterOptions = {}) {
    this.load = opts.load ?? ((m) => createRequire(import.meta.url)(m) as Encoder);
  }

  /** The tokenizer family of a model, by its name (`openai/gpt-4o-mini` → o200k). */
  familyOf(modelRef: string): TokenFamily {
    const name = modelRef.slice(modelRef.lastIndexOf('/') + 1).toLowerCase();
    if (O200K.test(name)) return 'o200k';
    if (CL100K.test(name)) return 'cl100k';
    return 'estimate';
  }

  /**
   * Load the model's encoding now rather than at its first count (loading o200k holds the event
   * loop for about half a second: better at start than in the middle of a turn). Returns whether
   * the model is counted with its own encoding.
   */
  warm(modelRef: string): boolean {
    const family = this.familyOf(modelRef);
    return family !== 'estimate' && this.encoder(family) !== null;
  }

  /** Raw tokens of a text for the model (not corrected by `factor`). Never throws. */
  count(text: string, modelRef: string): number {
    return this.countIn(this.familyOf(modelRef), text);
  }

  /**
   * Raw tokens of a whole request: the system prompt, every message with its framing, the tool
   * calls' arguments as the JSON sent, and the tool specs as JSON.
   */
  countMessages(system: string, messages: ChatMessage[], tools: ToolSpec[], modelRef: string): number {
    const family = this.familyOf(modelRef);
    let n = OVERHEAD.reply;
    if (system) n += OVERHEAD.message + this.countIn(family, system);
    for (const m of messages) {
      n += OVERHEAD.message + this.countIn(family, m.content);
      if (m.role === 'tool') n += this.countIn(family, `${m.name} ${m.tool_call_id}`);
      else if (m.role === 'assistant') {
        for (const c of m.tool_calls ?? []) n += OVERHEAD.toolCall + this.countIn(family, `${c.id} ${c.name} ${jsonOf(c.arguments)}`);
      }
    }
    if (tools.length > 0) {
      n += OVERHEAD.tools;
      for (const t of tools) n += OVERHEAD.tool + this.countIn(family, jsonOf({ name: t.name, description: t.description, parameters: t.parameters }));
    }
    return n;
  }

  /**
   * The provider reported `reported` input tokens for a prompt counted (countMessages, raw) as
   * `counted`. The ratio, clamped to [0.5, 2], joins the model's average: the n-th with weight
   * 1/(n+1) (a plain mean with the starting 1) until that falls to 0.1, then 0.1, so once settled
   * one odd report moves the factor by a tenth of its difference at most.
   */
  observe(modelRef: string, counted: number, reported: number): void {
    if (!Number.isFinite(counted) || !Number.isFinite(reported) || counted < OBSERVE_MIN_COUNTED || reported <= 0) return;
    const ratio = clamp(reported / counted);
    const cal = this.calibration.get(modelRef) ?? { factor: 1, observations: 0 };
    const weight = Math.max(EMA_WEIGHT, 1 / (cal.observations + 2));
    cal.factor = clamp(cal.factor + (ratio - cal.factor) * weight);
    cal.observations++;
    this.calibration.delete(modelRef);
    this.calibration.set(modelRef, cal);
    if (this.calibration.size > MAX_MODELS) this.calibration.delete(this.calibration.keys().next().value!);
  }

  /** The model's learnt correction (multiply raw counts by it): 1 until observed, within [0.5, 2]. */
  factor(modelRef: string): number {
    return this.calibration.get(modelRef)?.factor ?? 1;
  }

  private countIn(family: TokenFamily, text: string): number {
    if (typeof text !== 'string' || text.length === 0) return 0;
    if (text.length > ENCODE_MAX_CHARS || family === 'estimate') return estimateTokens(text);
    const encoder = this.encoder(family);
    if (!encoder) return estimateTokens(text);
    if (text.length < CACHE_MIN_CHARS) return encodeCount(encoder, text);
    let cache = this.caches.get(family);
    if (!cache) this.caches.set(family, (cache = new CountCache()));
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const n = encodeCount(encoder, text);
    cache.set(text, n);
    return n;
  }

  /** The family's encoder, loaded on first use; null when it cannot be loaded (then estimated). */
  private encoder(family: Exclude<TokenFamily, 'estimate'>): Encoder | null {
    let e = this.encoders.get(family);
    if (e === undefined) {
      try {
        e = this.load(ENCODING_MODULE[family]);
        if (typeof e?.countTokens !== 'function') throw new Error(`${ENCODING_MODULE[family]} has no countTokens`);
      } catch (err) {
        e = null;
        this.opts.onLoadError?.(family, err);
      }
      this.encoders.set(family, e);
    }
    return e;
  }
}

/** Encoded length of `text`, piece by piece (see the header); the estimate if the encoder fails. */
function encodeCount(encoder: Encoder, text: string): number {
  try {
    let n = 0;
    for (let pos = 0; pos < text.length; ) {
      const end = pieceEnd(text, pos);
      n += encoder.countTokens(pos === 0 && end === text.length ? text : text.slice(pos, end), AS_TEXT);
      pos = end;
    }
    return n;
  } catch {
    return estimateTokens(text);
  }
}

/**
 * Where the piece starting at `pos` ends: right after the last line break of its second half,
 * else before the last space there that follows a non-space (a space begins the next word's
 * pre-token), else at PIECE_CHARS (never between the halves of a surrogate pair).
 */
export function pieceEnd(text: string, pos: number): number {
  const limit = pos + PIECE_CHARS;
  if (limit >= text.length) return text.length;
  const half = pos + PIECE_CHARS / 2;
  const nl = text.lastIndexOf('\n', limit - 1);
  if (nl >= half) return nl + 1;
  for (let sp = text.lastIndexOf(' ', limit - 1); sp > half; sp = text.lastIndexOf(' ', sp - 1)) {
    const before = text.charCodeAt(sp - 1);
    if (before !== 32 && before !== 9 && before !== 10 && before !== 13) return sp;
  }
  const last = text.charCodeAt(limit - 1);
  return last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
}

/** Counts by text, least recently used first, bounded by the characters of the texts held. */
class CountCache {
  private readonly counts = new Map<string, number>();
  private chars = 0;

  get(text: string): number | undefined {
    const n = this.counts.get(text);
    if (n !== undefined) {
      this.counts.delete(text);
      this.counts.set(text, n);
    }
    return n;
  }

  set(text: string, n: number): void {
    this.counts.set(text, n);
    this.chars += text.length;
    for (const old of this.counts.keys()) {
      if (this.chars <= CACHE_MAX_CHARS) break;
      this.counts.delete(old);
      this.chars -= old.length;
    }
  }
}

function clamp(x: number): number {
  return Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, x));
}

/** JSON of a value as a request carries it; '' for one JSON cannot hold (never throws). */
function jsonOf(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}
