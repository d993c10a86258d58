/**
 * The real system's search, memory read and template catalog (not in our spec; the Holon web GUI
 * calls them). Search and memory read answer from the memory index (runtime/memory/). Read-only, auth `read` like the agent reads; search and memory/get are POSTs only
 * because their input is a JSON body (which a page on another origin cannot send without a CORS
 * preflight).
 */
import { TemplateCatalog } from '../../runtime/agents/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  MemoryGetBody,
  MemoryGetResponse,
  SearchBody,
  SearchResponse,
  TemplateCatalogResponse,
  TemplateDetailResponse,
  TemplateIdParams,
} from '../schemas/index.js';

export function searchRoutes(s: Services): AnyRoute[] {
  const search = s.memory;
  const templates = new TemplateCatalog(s.config.home);
  return [
    defineRoute({
      method: 'POST',
      url: '/api/search',
      bodyExample: { query: 'release checklist', limit: 10 },
      auth: 'read',
      tags: ['search'],
      summary: "Find text in agents' event logs: messages, briefs, tool output, task and work item text",
      description:
        'From the memory index: ranked best first (bm25, the newer first among equals), at most `limit` (default 20). Every result is of type `message`; `kind` names the event kind, `locator.event_seq` the event. Unknown agent_ids: 404 agent_not_found.',
      body: SearchBody,
      responses: { 200: { description: 'Results', schema: SearchResponse } },
      handler: ({ body }) => search.search({ query: body.query, agentIds: body.agent_ids, limit: body.limit, types: body.types }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/memory/get',
      bodyExample: { source_ref: 'event:main:42', max_chars: 4000 },
      auth: 'read',
      tags: ['search'],
      summary: 'The whole text of a search result (source_ref event:<agent_id>:<event_seq>)',
      description: '404 memory_source_not_found for any other source_ref.',
      body: MemoryGetBody,
      responses: { 200: { description: 'Text', schema: MemoryGetResponse } },
      handler: ({ body }) => search.source(body.source_ref, body.max_chars),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/templates/catalog',
      auth: 'read',
      tags: ['templates'],
      summary: 'Agent templates: the built-in ones and the directories under <home>/templates',
      responses: { 200: { description: 'Catalog', schema: TemplateCatalogResponse } },
      handler: () => ({ ok: true, catalog: templates.list(), sources: [], diagnostics: [] }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/templates/catalog/:catalog_id',
      operationId: 'getTemplate',
      auth: 'read',
      tags: ['templates'],
      summary: 'One template with its instructions (404 template_not_found)',
      params: TemplateIdParams,
      responses: { 200: { description: 'Detail', schema: TemplateDetailResponse } },
      handler: ({ params }) => ({ ok: true, detail: templates.detail(params.catalog_id) }),
    }),
  ];
}
