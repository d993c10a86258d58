/** Models catalog and model override schemas (spec Discovery `/api/models`, Control plane `/model`). */
import { z } from 'zod';
import { AuthorityClass } from './common.js';

const CatalogModel = z
  .object({
    id: z.string().openapi({ example: 'ollama/llama3.2', description: 'model ref: provider/model' }),
    model: z.string().openapi({ description: 'the same model ref (the real system\'s name)' }),
    display_name: z.string(),
    provider: z.string(),
    kind: z.string().openapi({ description: 'builtin, openai or anthropic' }),
    source: z.enum(['builtin', 'config', 'discovered']).openapi({ description: 'builtin/echo; a static `models` entry of the provider config; or found by discovery' }),
  })
  .openapi('CatalogModel');

const CatalogProvider = z
  .object({
    name: z.string(),
    kind: z.string(),
    base_url: z.string(),
    available: z.boolean().openapi({ description: 'false when the last discovery of this provider failed' }),
    discovered_at: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    last_error: z.object({ kind: z.string(), message: z.string() }).nullable(),
    api_key: z.enum(['not_required', 'set', 'missing']).openapi({ description: 'whether the key (api_key_env or credential_profile) is there; the key itself is never shown' }),
  })
  .openapi('CatalogProvider');

const catalogShape = {
  ok: z.literal(true),
  available_models: z.array(CatalogModel),
  model_availability: z.record(z.string(), z.boolean()).openapi({ description: 'model id → usable (false for a provider whose last discovery failed)' }),
  default_model: z.string().openapi({ description: 'model.default: the model of agents without an override' }),
  providers: z.array(CatalogProvider),
};

export const ModelCatalogResponse = z.object(catalogShape).openapi('ModelCatalog');

export const DiscoveryError = z
  .object({ provider: z.string(), kind: z.string(), message: z.string(), status: z.number().int().nullable() })
  .openapi('ModelDiscoveryError');

export const ModelRefreshResponse = z
  .object({
    ...catalogShape,
    refreshed: z.array(z.string()).openapi({ description: 'providers asked this time (the others had a fresh cache)' }),
    errors: z.array(DiscoveryError),
  })
  .openapi('ModelRefreshResult');

export const ModelRefreshBody = z
  .strictObject({ force: z.boolean().optional().openapi({ description: 'ask every provider, ignoring the cache TTL' }) })
  .openapi('ModelRefreshRequest');

export const SetModelBody = z
  .looseObject({
    model: z.string().min(1).openapi({ example: 'builtin/echo', description: 'a model ref listed by GET /api/models (provider/model)' }),
    authority_class: AuthorityClass,
  })
  .openapi('SetModelRequest');

export const ClearModelBody = z.looseObject({ authority_class: AuthorityClass }).openapi('ClearModelRequest');

export const ModelOverrideResponse = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    model: z.string().openapi({ description: 'the effective model: the override, else model.default' }),
    model_override: z.string().nullable(),
  })
  .openapi('ModelOverrideResult');
