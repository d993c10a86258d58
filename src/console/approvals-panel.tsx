/**
 * What the agent's tool policy holds back: the tool calls waiting for the operator (approve once,
 * for the rest of the turn, always, or deny with a note), the lines that say the agent waits or
 * was paused by the brake, and the effective policy with forms that change the agent's own layer
 * (PATCH /api/control/agents/:id/policy, as `svc policy set` does).
 */
import type { ComponentChildren } from 'preact';
import { api, enc, get, post, qs } from './api.js';
import type { Approval, EventEnvelope, PolicyView } from './types.js';
import { ActionButton, ActionForm, ErrorNote, field, Table, Time, useResource } from './ui.js';

const read = (agentId: string, path: string) => `/api/agents/${enc(agentId)}${path}`;
const write = (agentId: string, path: string) => `/api/control/agents/${enc(agentId)}${path}`;

/** The newest event of one of `types` among the page's events (newest first), or null. */
export function newest(events: EventEnvelope[], types: readonly string[]): EventEnvelope | null {
  return events.find((e) => types.includes(e.type)) ?? null;
}

export const APPROVAL_EVENTS = ['tool_approval_requested', 'tool_approval_decided'] as const;

/** Where the turn's lowest-trust input came from: `channel_event from channel/ci`. */
function taintOf(t: Approval['tainted_by']): string {
  if (!t) return 'no message (the runtime itself)';
  const origin = ['kind', 'source', 'channel', 'sender']
    .map((k) => t.origin[k])
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .join('/');
  return `${t.kind}${origin ? ` from ${origin}` : ''} (${t.trust})`;
}

/**
 * The pending requests of the agent, reloaded when an approval event streams in (`seq`: the
 * newest such event) and after a decision made here.
 */
export function ApprovalsPanel({ agentId, seq }: { agentId: string; seq: number }) {
  const list = useResource(() => get<{ approvals: Approval[] }>(read(agentId, '/approvals') + qs({ status: 'pending' })), [agentId, seq]);
  const decide = (a: Approval, body: Record<string, unknown>) => post(write(agentId, `/approvals/${enc(a.approval_id)}`), body);
  const pending = list.data?.approvals ?? [];
  return (
    <section class="approvals" aria-label="Approvals">
      <h2>
        Approvals {pending.length > 0 && <span class="status status-waiting_approval">{pending.length} waiting</span>}
      </h2>
      <ErrorNote error={list.error} />
      {list.data && pending.length === 0 && <p class="muted">No tool call waits for approval.</p>}
      {pending.map((a) => (
        <article key={a.approval_id} class="approval" data-approval={a.approval_id}>
          <h3>
            <code>{a.tool}</code> <span class="muted">({a.classes.join(', ')})</span> at trust <strong>{a.trust}</strong>
          </h3>
          <p class="facts">
            input from {taintOf(a.tainted_by)} · asked <Time at={a.requested_at} /> · denied if undecided by <Time at={a.expires_at} />
          </p>
          <pre class="arguments">{JSON.stringify(a.arguments, null, 2)}</pre>
          <div class="decide">
            <ActionButton label="Approve" title="this call only" done={list.reload} action={() => decide(a, { decision: 'approve', remember: 'once' })} />
            <ActionButton label="Approve for this turn" title={`${a.tool} may run for the rest of this turn`} done={list.reload} action={() => decide(a, { decision: 'approve', remember: 'turn' })} />
            <ActionButton
              label="Always allow"
              title={`adds a rule to the agent's policy: ${a.tool} is allowed at trust ${a.trust}`}
              done={list.reload}
              action={() => decide(a, { decision: 'approve', remember: 'always' })}
            />
            <ActionForm name="deny" label="Deny" done={list.reload} action={(data) => decide(a, { decision: 'deny', note: field(data, 'note') || undefined })}>
              <input name="note" placeholder="note to the model (optional)" aria-label="note" />
            </ActionForm>
          </div>
        </article>
      ))}
    </section>
  );
}

/** The unmistakable lines: a tool call waits for the operator; the brake paused the agent. */
export function PolicyAlerts({ waiting, brake, resume }: { waiting: boolean; brake: EventEnvelope | null; resume: () => Promise<unknown> }) {
  const p = brake?.payload as { limit?: string; value?: number; max?: number } | undefined;
  return (
    <>
      {waiting && (
        <p class="alert alert-waiting" role="status">
          Waiting for approval: the current turn stopped at a tool call until you decide it (Approvals, below).
        </p>
      )}
      {brake && (
        <p class="alert alert-brake" role="alert">
          Paused by the brake: <code>{p?.limit}</code> reached its limit ({p?.value} of {p?.max}) at <Time at={brake.ts} />. Nothing runs until you resume it.{' '}
          <ActionButton label="Resume" title="control start: a fresh budget" action={resume} />
        </p>
      )}
    </>
  );
}

const SOURCE_MARK: Record<string, string> = { agent: ' (agent)', template: ' (template)' };

/** The effective policy, reloaded on `policy_changed` (`seq`) and after a change made here. */
export function PolicyPanel({ agentId, seq }: { agentId: string; seq: number }) {
  const policy = useResource(() => get<PolicyView>(read(agentId, '/policy')), [agentId, seq]);
  const p = policy.data;
  if (!p) return <ErrorNote error={policy.error} />;
  const { effective, layers } = p;
  // PATCH replaces a whole key of the agent's layer: a cell or a limit is merged into what it holds.
  const patch = (body: Record<string, unknown>) => api('PATCH', write(agentId, '/policy'), body);
  const setCell = (data: FormData) => {
    const [trust, cls] = [field(data, 'trust'), field(data, 'class')];
    const classes = { ...(layers.agent?.classes ?? {}) };
    classes[trust] = { ...(classes[trust] ?? {}), [cls]: field(data, 'decision') };
    return patch({ classes });
  };
  const setLimit = (data: FormData) => patch({ limits: { ...(layers.agent?.limits ?? {}), [field(data, 'limit')]: Number(field(data, 'value')) } });
  const options = (values: string[]) => values.map((v) => <option key={v} value={v}>{v}</option>);
  const classes = Object.keys(Object.values(effective.classes)[0] ?? {});
  const layerOf = (trust: string, cls: string) =>
    layers.agent?.classes?.[trust]?.[cls] !== undefined ? 'agent' : layers.template?.layer?.classes?.[trust]?.[cls] !== undefined ? 'template' : 'config';
  return (
    <section class="policy">
      <ErrorNote error={policy.error} />
      <p class="muted">
        Layers: config{layers.template && <>, template {layers.template.name}</>}
        {layers.agent && <>, agent</>}. The forms below change the agent's own layer (as <code>svc policy set</code> does).
      </p>
      <Table
        rows={Object.keys(effective.classes)}
        rowKey={(t) => t}
        empty="No trust levels."
        columns={[
          ['Trust', (t) => t],
          ...classes.map((c): [string, (t: string) => ComponentChildren] => [
            c,
            (t) => (
              <span class={`decision decision-${effective.classes[t]?.[c]}`}>
                {effective.classes[t]?.[c]}
                {SOURCE_MARK[layerOf(t, c)] && <span class="muted">{SOURCE_MARK[layerOf(t, c)]}</span>}
              </span>
            ),
          ]),
        ]}
      />
      <h3>Rules (tried in order; the first that matches decides)</h3>
      <Table
        rows={effective.rules.map((r, i) => ({ ...r, n: i + 1 }))}
        rowKey={(r) => String(r.n)}
        empty="No rules."
        columns={[
          ['#', (r) => r.n],
          ['Layer', (r) => r.source],
          ['Tool', (r) => <code>{r.tool}</code>],
          ['Trust', (r) => r.trust?.join(', ') ?? 'all'],
          ['Arguments', (r) => (r.arguments ? Object.entries(r.arguments).map(([k, v]) => `${k}=${v}`).join(' ') : '*')],
          ['Decision', (r) => r.decision],
        ]}
      />
      <h3>Brake and timeout</h3>
      <Table
        rows={[...Object.entries(effective.limits), ['approval_timeout_s', effective.approval_timeout_s] as [string, number]]}
        rowKey={([k]) => k}
        empty=""
        columns={[
          ['Limit', ([k]) => k],
          ['Value', ([, v]) => v],
        ]}
      />
      <h3>Change the agent's layer</h3>
      <ActionForm name="policy-class" label="Set decision" done={policy.reload} action={setCell}>
        <select name="trust" aria-label="trust">{options(Object.keys(effective.classes))}</select>
        <select name="class" aria-label="class">{options(classes)}</select>
        <select name="decision" aria-label="decision">{options(['allow', 'ask', 'deny'])}</select>
      </ActionForm>
      <ActionForm name="policy-limit" label="Set limit" done={policy.reload} action={setLimit}>
        <select name="limit" aria-label="limit">{options(Object.keys(effective.limits))}</select>
        <input name="value" type="number" min="0" step="any" required aria-label="value" />
      </ActionForm>
      {layers.agent && <ActionButton label="Clear the agent's layer" title="back to the template's and the config's policy" done={policy.reload} action={() => patch({ classes: null, rules: null, limits: null, approval_timeout_s: null })} />}
    </section>
  );
}
