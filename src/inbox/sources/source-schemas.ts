/**
 * A source's schema (`GET /sources/{id}/schema`, `/streams/{id}/schema`) and AgentInbox's schema
 * preview of a kind before any source exists (`POST /streams/schema-preview`): AgentInbox's
 * resolved schema (source-kinds.ts) with svc's JSON Schemas beside it (`configSchema`, the config as
 * svc checks it, with a remote module's own schema set in as `properties.moduleConfig`;
 * `eventSchema`, an appended event; `moduleConfigSchema`, `moduleError`).
 *
 * A preview checks the config as creating a source of that kind would: a github config must name
 * owner and repo (400 invalid_request naming the field); a remote one names a module that is
 * loaded in a worker, its moduleConfig checked and its validate run (the 400s of source creation);
 * `remote:<name>` must name a module whose file is called so (400 invalid_source_config). Nothing
 * is stored.
 */
import { z } from 'zod';
import { errors } from '../../core/index.js';
import { EventInputSchema } from '../streams/index.js';
import type { SourceCredentials } from './credentials.js';
import { moduleSpecFor, sourceConfigSchema } from './host-types.js';
import type { JsonSchema } from './json-schema.js';
import type { SourceSchema } from './records.js';
import type { RemoteModules } from './remote-sources.js';
import { hostOfKind, moduleName, parseSourceRef, resolvedSchema, SOURCE_KINDS, type SourceKind } from './source-kinds.js';

export type SchemaPreview = Omit<SourceSchema, 'sourceId'>;

export interface PreviewInput {
  sourceRef: string;
  config?: Record<string, unknown>;
  configRef?: string | null;
}

const eventSchema = (): JsonSchema => z.toJSONSchema(EventInputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** The config schema with a module's own one set in as moduleConfig. */
function withModuleSchema(configSchema: JsonSchema, moduleConfigSchema: JsonSchema | null): JsonSchema {
  if (!moduleConfigSchema) return configSchema;
  const properties = (configSchema.properties ?? {}) as Record<string, unknown>;
  return { ...configSchema, properties: { ...properties, moduleConfig: moduleConfigSchema } };
}

/** Everything of a schema answer but the source id. */
export function schemaOf(kind: SourceKind, modulePath: string | null, module: { schema: JsonSchema | null; error: string | null }): SchemaPreview {
  const configSchema = withModuleSchema(sourceConfigSchema(hostOfKind(kind).hostType), module.schema);
  return { ...resolvedSchema(kind, modulePath, configSchema), configSchema, eventSchema: eventSchema(), moduleConfigSchema: module.schema, moduleError: module.error };
}

export async function previewSchema(input: PreviewInput, deps: { modules: RemoteModules; credentials: SourceCredentials }): Promise<SchemaPreview> {
  const ref = parseSourceRef(input.sourceRef);
  if (!ref) throw errors.unknownSourceKind(input.sourceRef, [...SOURCE_KINDS]);
  const config = input.config ?? {};
  const { hostType, streamKind } = hostOfKind(ref.kind);
  const spec = moduleSpecFor(hostType, streamKind, '', config);
  if (spec === null || spec.builtin !== null) return schemaOf(ref.kind, null, { schema: null, error: null });
  if (ref.moduleName !== null && moduleName(spec.modulePath) !== ref.moduleName) {
    throw errors.invalidSourceConfig(`${input.sourceRef} names module ${JSON.stringify(ref.moduleName)}, but config.modulePath is ${JSON.stringify(moduleName(spec.modulePath))}`);
  }
  const resolved = deps.credentials.resolve({ hostId: '(preview)', config: {} }, input.configRef ?? null);
  const { schema } = await deps.modules.check(spec, { hostConfig: {}, credential: resolved.ok ? resolved.credential : null });
  return schemaOf(ref.kind, spec.modulePath, { schema, error: null });
}
