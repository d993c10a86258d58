/**
 * What a model can take and what it costs (docs/context.md#models): its context window, its
 * output limit and its prices in USD per million tokens. A built-in catalog names well-known
 * models by the start of their name (`gpt-4o-2024-08-06` is `gpt-4o`; the longest match wins), so
 * it applies whatever a provider is called in config. `[models.limits]` and `[models.pricing]`
 * override it per model ref (`openai/gpt-4o`) or per provider (`local/*`); a model nobody knows
 * gets `[context] default_context_window` / `default_max_output_tokens` and no price (its cost
 * is unknown, never 0). `builtin/echo` is free.
 */
import type { ModelPricing, ResolvedConfig } from '../../config/index.js';
import type { RoundUsage } from '../providers/index.js';
import { splitModelRef } from './registry.js';

export interface ModelSpec {
  model_ref: string;
  context_window: number;
  max_output_tokens: number;
  /** USD per million tokens; null when no price is known. */
  pricing: ModelPricing | null;
  /** Where the window and the price came from. */
  limits_source: 'config' | 'catalog' | 'default';
  pricing_source: 'config' | 'catalog' | 'free' | null;
}

interface CatalogEntry {
  window: number;
  output: number;
  /** input, output, cache read, cache write (USD per million tokens). */
  price: [number, number, number?, number?];
}

/** Published windows, output limits and list prices of well-known models. */
const CATALOG: Record<string, CatalogEntry> = {
  'gpt-4o': { window: 128_000, output: 16_384, price: [2.5, 10, 1.25] },
  'gpt-4o-mini': { window: 128_000, output: 16_384, price: [0.15, 0.6, 0.075] },
  'gpt-4.1': { window: 1_047_576, output: 32_768, price: [2, 8, 0.5] },
  'gpt-4.1-mini': { window: 1_047_576, output: 32_768, price: [0.4, 1.6, 0.1] },
  'gpt-4.1-nano': { window: 1_047_576, output: 32_768, price: [0.1, 0.4, 0.025] },
  'gpt-5': { window: 400_000, output: 128_000, price: [1.25, 10, 0.125] },
  'gpt-5-mini': { window: 400_000, output: 128_000, price: [0.25, 2, 0.025] },
  'gpt-5-nano': { window: 400_000, output: 128_000, price: [0.05, 0.4, 0.005] },
  o3: { window: 200_000, output: 100_000, price: [2, 8, 0.5] },
  'o3-mini': { window: 200_000, output: 100_000, price: [1.1, 4.4, 0.55] },
  'o4-mini': { window: 200_000, output: 100_000, price: [1.1, 4.4, 0.275] },
  'claude-opus-4': { window: 200_000, output: 32_000, price: [15, 75, 1.5, 18.75] },
  'claude-opus-4-5': { window: 200_000, output: 64_000, price: [5, 25, 0.5, 6.25] },
  'claude-sonnet-4': { window: 200_000, output: 64_000, price: [3, 15, 0.3, 3.75] },
  'claude-3-7-sonnet': { window: 200_000, output: 64_000, price: [3, 15, 0.3, 3.75] },
  'claude-3-5-sonnet': { window: 200_000, output: 8_192, price: [3, 15, 0.3, 3.75] },
  'claude-haiku-4-5': { window: 200_000, output: 64_000, price: [1, 5, 0.1, 1.25] },
  'claude-3-5-haiku': { window: 200_000, output: 8_192, price: [0.8, 4, 0.08, 1] },
};

const CATALOG_NAMES = Object.keys(CATALOG).sort((a, b) => b.length - a.length);

/** The catalog entry whose name the model's name starts with (at a word boundary), or null. */
function catalogEntry(model: string): CatalogEntry | null {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  const hit = CATALOG_NAMES.find((n) => name === n || (name.startsWith(n) && /[-:@.]/.test(name[n.length]!)));
  return hit ? CATALOG[hit]! : null;
}

export class ModelSpecs {
  constructor(private readonly config: ResolvedConfig) {}

  of(modelRef: string): ModelSpec {
    const { context, models } = this.config.values;
    const ref = splitModelRef(modelRef);
    const keys = [modelRef, ...(ref ? [`${ref.provider}/*`] : [])];
    const entry = ref ? catalogEntry(ref.model) : null;
    const builtin = ref?.provider === 'builtin';
    const limitKey = keys.find((k) => Object.hasOwn(models.limits, k));
    const priceKey = keys.find((k) => Object.hasOwn(models.pricing, k));
    const limits = limitKey ? models.limits[limitKey]! : null;
    const window = limits?.context_window ?? entry?.window ?? context.default_context_window;
    const output = limits?.max_output_tokens ?? entry?.output ?? context.default_max_output_tokens;
    const pricing = priceKey ? models.pricing[priceKey]! : entry ? priceOf(entry) : builtin ? { input: 0, output: 0 } : null;
    return {
      model_ref: modelRef,
      context_window: window,
      // An output limit never takes more than half the window.
      max_output_tokens: Math.min(output, Math.floor(window / 2)),
      pricing,
      limits_source: limits ? 'config' : entry ? 'catalog' : 'default',
      pricing_source: priceKey ? 'config' : entry ? 'catalog' : builtin ? 'free' : null,
    };
  }

  /** USD for one round's usage at the model's prices; null when the price is unknown. */
  costOf(modelRef: string, usage: RoundUsage): number | null {
    const p = this.of(modelRef).pricing;
    return p ? costAt(p, usage) : null;
  }

  /** `[models.pricing]` keys that name no model the catalog, the config or `known` has (a warning, not an error). */
  unknownPricing(known: readonly string[]): string[] {
    const providers = new Set(['builtin', ...Object.keys(this.config.values.providers)]);
    const refs = new Set(known);
    return Object.keys(this.config.values.models.pricing).filter((key) => {
      const ref = splitModelRef(key);
      if (!ref || !providers.has(ref.provider)) return true;
      return ref.model !== '*' && !refs.has(key) && catalogEntry(ref.model) === null;
    });
  }
}

function priceOf(e: CatalogEntry): ModelPricing {
  const [input, output, cacheRead, cacheWrite] = e.price;
  return { input, output, ...(cacheRead !== undefined ? { cache_read: cacheRead } : {}), ...(cacheWrite !== undefined ? { cache_write: cacheWrite } : {}) };
}

/**
 * The cost of a usage at prices per million tokens. Cached input is billed at its own price when
 * there is one, else as input; reasoning is part of the output.
 */
export function costAt(p: ModelPricing, u: RoundUsage): number {
  const read = u.cache_read_tokens ?? 0;
  const write = u.cache_write_tokens ?? 0;
  const plain = Math.max(0, (u.input_tokens ?? 0) - read - write);
  const micro = plain * p.input + read * (p.cache_read ?? p.input) + write * (p.cache_write ?? p.input) + (u.output_tokens ?? 0) * p.output;
  return micro / 1_000_000;
}
