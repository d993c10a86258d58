/**
 * `svc usage AGENT [--by day|work_item|model] [--from DAY] [--to DAY]` (docs/cli.md#usage): the
 * agent's tokens and cost from the usage ledger, one row per UTC day, work item or model, and a
 * total row.
 */
import { Option, type Command } from 'commander';
import type { components } from '../../generated/control-plane.js';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, print, table } from '../output.js';

type Usage = components['schemas']['UsageResponse'];
type Totals = components['schemas']['UsageTotals'];

const GROUPINGS = ['day', 'work_item', 'model'] as const;
const COLUMNS = ['input', 'output', 'cache_read', 'cache_write', 'reasoning', 'cost_usd'];

/** USD as people read it: cents for a cent or more, two significant digits below; '-' when unknown. */
export function usd(v: number | null): string {
  if (v === null) return '-';
  if (v === 0 || v >= 0.01) return v.toFixed(2);
  return v.toPrecision(2);
}

function line(key: string, t: Totals) {
  return { key, input: t.input_tokens, output: t.output_tokens, cache_read: t.cache_read_tokens, cache_write: t.cache_write_tokens, reasoning: t.reasoning_tokens, cost_usd: usd(t.cost_usd) };
}

function human(u: Usage): string {
  const none = u.by === 'work_item' ? '(no work item)' : '-';
  const rows = [...u.rows.map((r) => line(r.key ?? none, r)), line('total', u.total)].map(({ key, ...rest }) => ({ [u.by]: key, ...rest }));
  const lines = [u.rows.length === 0 ? 'no model rounds recorded' : table(rows, [u.by, ...COLUMNS])];
  if (u.total.unpriced_rounds > 0) lines.push(`${u.total.unpriced_rounds} of ${u.total.rounds} rounds are of models without a price: not in cost_usd ([models.pricing])`);
  if (u.total.estimated_rounds > 0) lines.push(`${u.total.estimated_rounds} rounds have estimated input tokens (the provider reported none)`);
  return lines.join('\n');
}

export function registerUsage(program: Command): void {
  clientOptions(program.command('usage <agent>').description("the agent's tokens and cost by UTC day, work item or model, with a total"))
    .addOption(new Option('--by <grouping>', 'one row per').choices(GROUPINGS).default('day'))
    .option('--from <day>', 'the first UTC day counted, YYYY-MM-DD')
    .option('--to <day>', 'the last UTC day counted, YYYY-MM-DD')
    .action(
      action(async (agent: string, flags: ClientFlags & { by: (typeof GROUPINGS)[number]; from?: string; to?: string }) => {
        const query = { by: flags.by, from: flags.from, to: flags.to };
        const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/usage', { params: { path: { id: agent }, query } }));
        print(res, flags.json, human);
      }),
    );
}
