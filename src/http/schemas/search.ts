/** Search over the memory index and template catalog schemas (the real system's routes; docs/holon-gui.md). */
import { z } from 'zod';
import { SEARCH_MAX_LIMIT } from '../../runtime/memory/index.js';
import '../openapi.js';

export const SearchBody = z
  .looseObject({
    query: z.string().max(1000).openapi({ description: 'non-empty after trimming; words matched whole (case, diacritics and English endings folded), a "quoted phrase" together; never query syntax' }),
    agent_ids: z.array(z.string().min(1)).max(64).optional().openapi({ description: 'agents to search (each must exist); default every public agent' }),
    include_all_workspaces: z.boolean().optional().openapi({ description: 'accepted; svc searches agents, not workspaces' }),
    limit: z.number().int().min(1).max(SEARCH_MAX_LIMIT).optional(),
    types: z.array(z.string()).max(16).optional().openapi({ description: 'result types; every result is `message`' }),
  })
  .openapi('SearchRequest');

export const SearchResponse = z
  .object({
    query: z.string(),
    limit: z.number().int(),
    results: z.array(
      z.object({
        result_type: z.literal('message'),
        type: z.literal('message'),
        agent_id: z.string(),
        kind: z.string().openapi({ description: 'the event kind the text is from' }),
        source_ref: z.string().openapi({ description: '`event:<agent_id>:<event_seq>`; POST /api/memory/get reads the whole text' }),
        preview: z.string(),
        created_at: z.string(),
        locator: z.object({
          evidence_id: z.string(),
          event_seq: z.number().int(),
          message_id: z.string().nullable(),
          turn_id: z.string().nullable(),
          task_id: z.string().nullable(),
          work_item_id: z.string().nullable(),
        }),
      }),
    ),
  })
  .openapi('SearchResponse');

export const MemoryGetBody = z
  .looseObject({ source_ref: z.string().min(1).max(300), max_chars: z.number().int().min(1).max(1_000_000).optional() })
  .openapi('MemoryGetRequest');

export const MemoryGetResponse = z
  .object({ kind: z.string(), source_ref: z.string(), title: z.string(), content: z.string(), truncated: z.boolean(), updated_at: z.string() })
  .openapi('MemoryGetResult');

const TemplateEntry = z
  .object({
    catalog_id: z.string(),
    template: z.string().openapi({ description: 'the name to pass as `template` of POST /api/control/agents/:id/create' }),
    template_id: z.string(),
    name: z.string(),
    source: z.enum(['builtin', 'user_global']).openapi({ description: 'built into svc, or a directory under <home>/templates' }),
    path: z.string().nullable(),
    description: z.string().openapi({ description: 'the first paragraph of its AGENTS.md or AGENT.md' }),
    included_skills: z.array(z.string()),
  })
  .openapi('TemplateCatalogEntry');

export const TemplateCatalogResponse = z
  .object({
    ok: z.literal(true),
    catalog: z.array(TemplateEntry),
    sources: z.array(z.unknown()).openapi({ description: 'always empty: svc has no remote template sources' }),
    diagnostics: z.array(z.unknown()),
  })
  .openapi('TemplateCatalog');

export const TemplateIdParams = z.object({ catalog_id: z.string().min(1).max(200) });

export const TemplateDetailResponse = z
  .object({
    ok: z.literal(true),
    detail: TemplateEntry.extend({
      source_location: z.string(),
      summary: z.string(),
      agents_md: z.string().openapi({ description: 'AGENTS.md (else AGENT.md) of the template, at most 64 KiB' }),
      initial_message: z.string().nullable().openapi({ description: 'INITIAL_MESSAGE.md of a directory template' }),
      skills: z.array(z.object({ kind: z.string(), reference: z.string() })),
    }),
  })
  .openapi('TemplateDetail');
