/**
 * The agent's usage: today's budgets against what they count, then tokens and cost by UTC day and
 * by model (docs/context.md#usage-and-cost). A cost of models without a price is unknown, shown
 * as "-" and never as 0.
 */
import { enc, get, qs } from './api.js';
import type { Usage, UsageRow, UsageSection } from './types.js';
import { ErrorNote, ResourceTable, Time, useResource } from './ui.js';

const usd = (v: number | null) => (v === null ? '-' : v === 0 || v >= 0.01 ? `$${v.toFixed(2)}` : `$${v.toPrecision(2)}`);
const n = (v: number) => v.toLocaleString('en');

const COLUMNS: Array<[string, (r: UsageRow) => string]> = [
  ['Input', (r) => n(r.input_tokens)],
  ['Output', (r) => n(r.output_tokens)],
  ['Cache read', (r) => n(r.cache_read_tokens)],
  ['Cache write', (r) => n(r.cache_write_tokens)],
  ['Reasoning', (r) => n(r.reasoning_tokens)],
  ['Rounds', (r) => n(r.rounds)],
  ['Cost', (r) => usd(r.cost_usd) + (r.unpriced_rounds > 0 && r.cost_usd !== null ? ' +?' : '')],
];

export function UsagePanel({ agentId, version }: { agentId: string; version: number }) {
  const base = `/api/agents/${enc(agentId)}`;
  const state = useResource(() => get<{ usage: UsageSection }>(`${base}/state`), [agentId, version]);
  const byDay = useResource(() => get<Usage>(`${base}/usage` + qs({ by: 'day' })), [agentId, version]);
  const byModel = useResource(() => get<Usage>(`${base}/usage` + qs({ by: 'model' })), [agentId, version]);
  const u = state.data?.usage;
  return (
    <section class="usage">
      <ErrorNote error={state.error} />
      {u && <Budgets u={u} />}
      {u?.warnings.map((w) => <p key={w} class="alert alert-waiting">{w}</p>)}
      <h2>By day</h2>
      <ResourceTable resource={byDay} rows={(d) => [...d.rows].reverse()} rowKey={(r) => r.key ?? ''} empty="No model rounds yet." columns={[['Day (UTC)', (r) => r.key], ...COLUMNS]} />
      <h2>By model</h2>
      <ResourceTable resource={byModel} rows={(d) => d.rows} rowKey={(r) => r.key ?? ''} empty="No model rounds yet." columns={[['Model', (r) => r.key], ...COLUMNS]} />
      {byDay.data && byDay.data.total.unpriced_rounds > 0 && (
        <p class="muted">{byDay.data.total.unpriced_rounds} rounds are of models without a price ([models.pricing]): their cost is unknown and not in the sums (+?).</p>
      )}
    </section>
  );
}

/** Today against each budget (0: none). */
function Budgets({ u }: { u: UsageSection }) {
  const b = u.budgets;
  const of = (used: string, max: number, show: (v: number) => string) => (max > 0 ? `${used} of ${show(max)}` : `${used} (no budget)`);
  return (
    <table class="budgets">
      <tbody>
        <tr data-key="tokens_today">
          <th>Tokens today</th>
          <td>{of(n(b.today_tokens), b.max_tokens_per_day, n)}</td>
        </tr>
        <tr data-key="cost_today">
          <th>Cost today</th>
          <td>{of(usd(b.today_cost_usd), b.max_cost_per_day, (v) => usd(v))}</td>
        </tr>
        <tr data-key="tokens_per_turn">
          <th>Tokens per turn</th>
          <td>{b.max_tokens_per_turn > 0 ? `at most ${n(b.max_tokens_per_turn)}` : 'no budget'}</td>
        </tr>
        {b.counted_since && (
          <tr data-key="counted_since">
            <th>Counted since</th>
            <td>
              the resume at <Time at={b.counted_since} /> (the whole day: {n(u.today.tokens)} tokens, {usd(u.today.cost_usd)})
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
