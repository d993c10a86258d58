/** Model windows and prices (docs/context.md#models): the catalog, the config's overrides, refusals. */
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { ConfigSchema } from '../../src/config/schema.js';
import type { ResolvedConfig } from '../../src/config/load.js';
import { budgetOf } from '../../src/runtime/context/index.js';
import { costAt, ModelSpecs } from '../../src/runtime/models/specs.js';

const specsOf = (toml: string) => new ModelSpecs({ values: ConfigSchema.parse(parseToml(toml)) } as unknown as ResolvedConfig);
const PROVIDERS = '[providers.oa]\nkind = "openai"\nbase_url = "http://127.0.0.1:1/v1"\n[providers.local]\nkind = "openai"\nbase_url = "http://127.0.0.1:2/v1"\n';

describe('model specs', () => {
  it('knows well-known models by the start of their name, whatever the provider is called; the longest name wins', () => {
    const s = specsOf(PROVIDERS);
    expect(s.of('oa/gpt-4o-2024-08-06')).toMatchObject({ context_window: 128_000, max_output_tokens: 16_384, limits_source: 'catalog', pricing: { input: 2.5, output: 10 } });
    expect(s.of('oa/gpt-4o-mini')).toMatchObject({ pricing: { input: 0.15 } });
    expect(s.of('local/claude-sonnet-4-5-20250929')).toMatchObject({ context_window: 200_000, pricing_source: 'catalog' });
    // A name that merely starts with a catalog name's letters is not it.
    expect(s.of('oa/gpt-4oddity')).toMatchObject({ limits_source: 'default', pricing: null, pricing_source: null });
  });

  it('config overrides per model, then per provider; an unknown model gets the defaults and no price; builtin is free', () => {
    const s = specsOf(`${PROVIDERS}[models.limits."local/*"]\ncontext_window = 8192\n[models.limits."local/big"]\ncontext_window = 65536\nmax_output_tokens = 4096\n[models.pricing."local/*"]\ninput = 0.1\noutput = 0.2\n`);
    expect(s.of('local/big')).toMatchObject({ context_window: 65_536, max_output_tokens: 4096, limits_source: 'config', pricing: { input: 0.1 }, pricing_source: 'config' });
    // The output limit never takes more than half the window.
    expect(s.of('local/small')).toMatchObject({ context_window: 8192, max_output_tokens: 4096 });
    expect(budgetOf(s.of('local/small')).prompt).toBe(4096);
    expect(s.of('oa/mystery')).toMatchObject({ context_window: 128_000, max_output_tokens: 8192, pricing: null });
    expect(s.costOf('oa/mystery', { input_tokens: 1000 })).toBeNull();
    expect(s.costOf('builtin/echo', { input_tokens: 1000, output_tokens: 10 })).toBe(0);
  });

  it('prices cached input at its own price, reasoning as output; unknown pricing keys are warnings', () => {
    const p = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
    // 1M input of which 400k read from and 100k written to the cache, 200k output.
    expect(costAt(p, { input_tokens: 1_000_000, cache_read_tokens: 400_000, cache_write_tokens: 100_000, output_tokens: 200_000, reasoning_tokens: 50_000 })).toBeCloseTo(1.5 + 0.12 + 0.375 + 3, 6);
    expect(costAt({ input: 2, output: 8 }, { input_tokens: 1_000_000, cache_read_tokens: 1_000_000 })).toBeCloseTo(2, 6);
    const s = specsOf(`${PROVIDERS}[models.pricing."oa/gpt-4o"]\ninput = 1\noutput = 1\n[models.pricing."ghost/x"]\ninput = 1\noutput = 1\n[models.pricing."oa/house-model"]\ninput = 1\noutput = 1\n`);
    expect(s.unknownPricing(['oa/house-model'])).toEqual(['ghost/x']);
    expect(s.unknownPricing([])).toEqual(['ghost/x', 'oa/house-model']);
  });

  it('refuses a window, price or share that is negative, absurd or of the wrong type, naming the key', () => {
    const problem = (toml: string) => {
      const r = ConfigSchema.safeParse(parseToml(toml));
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problem('[models.limits."fake/m"]\ncontext_window = -5\n')).toEqual([expect.stringMatching(/^models\.limits\.fake\/m\.context_window: /)]);
    expect(problem('[models.limits."fake/m"]\ncontext_window = 1e12\n')).toEqual([expect.stringMatching(/^models\.limits\.fake\/m\.context_window: /)]);
    expect(problem('[models.pricing."fake/m"]\ninput = "cheap"\noutput = 1\n')).toEqual([expect.stringMatching(/^models\.pricing\.fake\/m\.input: /)]);
    expect(problem('[models.pricing."nope"]\ninput = 1\noutput = 1\n')).toEqual(['models.pricing.nope: the key must be a model ref "provider/model" or "provider/*"']);
    expect(problem('[context]\ncompact_at = 2\n')).toEqual([expect.stringMatching(/^context\.compact_at: /)]);
    expect(problem('[context]\ncompact_at = 0.3\nkeep_recent = 0.4\n')).toEqual(['context.keep_recent: must be below compact_at']);
    expect(problem('[policy.limits]\nmax_cost_per_day = -1\n')).toEqual([expect.stringMatching(/^policy\.limits\.max_cost_per_day: /)]);
    expect(problem('[policy.limits]\nmax_tokens_per_day = 1.5\n')).toEqual([expect.stringMatching(/^policy\.limits\.max_tokens_per_day: /)]);
  });
});
