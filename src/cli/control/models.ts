/** `svc models list|refresh|set|clear`: the models catalog and per-agent model overrides. */
import type { Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, print, table, type Row } from '../output.js';

interface CatalogModel extends Row {
  id: string;
  provider: string;
  source: string;
}

interface Catalog {
  available_models: CatalogModel[];
  model_availability: Record<string, boolean>;
  default_model: string;
  errors?: Array<{ provider: string; kind: string; message: string }>;
}

/** One row per model, the default marked; discovery errors (refresh) after the table. */
function humanCatalog(c: Catalog): string {
  const rows = c.available_models.map((m) => ({
    ...m,
    available: c.model_availability[m.id] ?? true,
    default: m.id === c.default_model ? '*' : '',
  }));
  const lines = [table(rows, ['id', 'provider', 'source', 'available', 'default'])];
  if (!c.available_models.some((m) => m.id === c.default_model)) lines.push(`default model ${c.default_model} is not in the catalog`);
  for (const e of c.errors ?? []) lines.push(`error: ${e.provider}: ${e.kind}: ${e.message}`);
  return lines.join('\n');
}

export function registerModels(program: Command): void {
  const models = program.command('models').description('models catalog and per-agent model overrides');

  clientOptions(models.command('list').description('the cached catalog (no provider is contacted)')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/models'));
      print(res, flags.json, humanCatalog);
    }),
  );

  clientOptions(models.command('refresh').description('discover models of providers whose cache is missing or expired'))
    .option('--force', 'ask every provider, ignoring the cache TTL')
    .action(
      action(async (flags: ClientFlags & { force?: boolean }) => {
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/models/refresh', { body: flags.force ? { force: true } : {} }));
        print(res, flags.json, humanCatalog);
      }),
    );

  clientOptions(models.command('set <agent> <model>').description("set the agent's model override (a ref from `svc models list`)")).action(
    action(async (agent: string, model: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/model', { params: { path: { id: agent } }, body: { model } }));
      print(res, flags.json, (r) => `${r.agent_id}: model ${r.model} (override ${r.model_override})`);
    }),
  );

  clientOptions(models.command('clear <agent>').description('clear the override: the agent uses model.default')).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/model/clear', { params: { path: { id: agent } }, body: {} }));
      print(res, flags.json, (r) => `${r.agent_id}: model ${r.model} (no override)`);
    }),
  );
}
