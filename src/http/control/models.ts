/** The models catalog (spec Discovery rows) and per-agent model overrides (spec Control plane rows). */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  ClearModelBody,
  ModelCatalogResponse,
  ModelOverrideResponse,
  ModelRefreshBody,
  ModelRefreshResponse,
  SetModelBody,
} from '../schemas/index.js';

const tags = ['models'];

export function modelRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/models',
      auth: 'read',
      tags,
      summary: 'The cached models catalog (no provider contact)',
      description:
        'builtin/echo, each configured provider\'s static `models`, and models found by earlier discoveries (kept across restarts). `model_availability` is false for the models of a provider whose last discovery failed.',
      responses: { 200: { description: 'Catalog', schema: ModelCatalogResponse } },
      handler: () => ({ ok: true, ...s.models.list() }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/models/refresh',
      bodyExample: { force: true },
      auth: 'control',
      tags,
      summary: 'Discover models of providers whose cache is missing, failed or expired',
      description:
        'Discovery (GET {base_url}/models) runs in parallel, one attempt per provider with a 10 s timeout; a successful discovery is reused for 10 minutes unless `force` is true. A failing provider appears in `errors` and does not hide the others.',
      body: ModelRefreshBody,
      bodyOptional: true,
      responses: { 200: { description: 'Catalog after discovery', schema: ModelRefreshResponse } },
      handler: async ({ body }) => ({ ok: true, ...(await s.models.refresh({ force: body.force ?? false })) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/model',
      operationId: 'setAgentModel',
      errors: { 400: ['unknown_model'] },
      bodyExample: { model: 'builtin/echo' },
      auth: 'control',
      tags,
      summary: "Set the agent's model override",
      description:
        'The model must be in the catalog; a model of a configured provider that is not listed triggers one discovery of that provider first. Otherwise 400 unknown_model. Appends model_changed.',
      params: AgentIdParams,
      body: SetModelBody,
      responses: { 200: { description: 'Override set', schema: ModelOverrideResponse } },
      handler: async ({ params, body }) => ({ ok: true, ...(await s.models.setOverride(params.id, body.model, body.authority_class ?? null)) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/model/clear',
      bodyExample: { authority_class: 'operator_instruction' },
      auth: 'control',
      tags,
      summary: 'Clear the model override: back to model.default',
      description: 'Appends model_changed.',
      params: AgentIdParams,
      body: ClearModelBody,
      bodyOptional: true,
      responses: { 200: { description: 'Override cleared', schema: ModelOverrideResponse } },
      handler: ({ params, body }) => ({ ok: true, ...s.models.clearOverride(params.id, body.authority_class ?? null) }),
    }),
  ];
}
