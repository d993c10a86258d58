/**
 * The inbox through the control plane (/api/inbox/…, the inbox API's own routes): agents,
 * sources and subscriptions; an inbox agent's entries, live through its watch stream, with ack.
 */
import { useState } from 'preact/hooks';
import { enc, get, post, qs } from './api.js';
import { useEventSource } from './live.js';
import type { InboxAgent, InboxEntry, InboxSource, InboxSubscription } from './types.js';
import { ActionButton, href, Status, ResourceTable, Time, useResource, useThrottled } from './ui.js';

const INBOX = '/api/inbox';

export function InboxPage({ agentId }: { agentId: string | null }) {
  return agentId ? <InboxEntries agentId={agentId} /> : <InboxOverview />;
}

function InboxOverview() {
  const agents = useResource(() => get<{ agents: InboxAgent[] }>(`${INBOX}/agents`), []);
  const sources = useResource(() => get<{ sources: InboxSource[] }>(`${INBOX}/sources`), []);
  const subs = useResource(() => get<{ subscriptions: InboxSubscription[] }>(`${INBOX}/subscriptions`), []);
  const nameOf = (id: string) => agents.data?.agents.find((a) => a.agentId === id)?.name ?? id;
  return (
    <main>
      <h1>Inbox</h1>
      <h2>Agents</h2>
      <ResourceTable
        resource={agents}
        rows={(d) => d.agents}
        rowKey={(a) => a.agentId}
        empty="No inbox agents."
        columns={[
          ['Agent', (a) => <a href={href('inbox', a.agentId)}>{a.name ?? a.agentId}</a>],
          ['Id', (a) => <code>{a.agentId}</code>],
          ['Delivery', (a) => (a.deliveryPaused ? 'paused' : 'on')],
          ['Created', (a) => <Time at={a.createdAt} />],
        ]}
      />
      <h2>Sources</h2>
      <ResourceTable
        resource={sources}
        rows={(d) => d.sources}
        rowKey={(s) => s.sourceId}
        empty="No sources."
        columns={[
          ['Source', (s) => <code>{s.sourceId}</code>],
          ['Type', (s) => (s.sourceType === s.hostType ? s.sourceType : `${s.hostType}: ${s.sourceType}`)],
          ['Stream', (s) => `${s.streamKind} / ${s.streamKey}`],
          ['State', (s) => (s.error ? <span title={s.error}><Status value={s.state} /></span> : <Status value={s.state} />)],
          ['Created', (s) => <Time at={s.createdAt} />],
        ]}
      />
      <h2>Subscriptions</h2>
      <ResourceTable
        resource={subs}
        rows={(d) => d.subscriptions}
        rowKey={(s) => s.subscriptionId}
        empty="No subscriptions."
        columns={[
          ['Subscription', (s) => <code>{s.subscriptionId}</code>],
          ['Agent', (s) => <a href={href('inbox', s.agentId)}>{nameOf(s.agentId)}</a>],
          ['Source', (s) => <code>{s.sourceId}</code>],
          ['Filter', (s) => <code>{JSON.stringify(s.filter)}</code>],
          ['Consumed', (s) => s.consumedOffset],
          ['Created', (s) => <Time at={s.createdAt} />],
        ]}
      />
    </main>
  );
}

/** Reload at most this often while entries arrive. */
const RELOAD_MS = 300;

function InboxEntries({ agentId }: { agentId: string }) {
  const [includeAcked, setIncludeAcked] = useState(false);
  const base = `${INBOX}/agents/${enc(agentId)}/inbox`;
  const summary = useResource(() => get<{ unackedCount: number }>(base), [agentId]);
  const entries = useResource(() => get<{ entries: InboxEntry[] }>(`${base}/items${qs({ includeAcked, limit: 200 })}`), [agentId, includeAcked]);
  const reload = useThrottled(() => {
    summary.reload();
    entries.reload();
  }, RELOAD_MS);
  // The watch stream's frames are `event: items`; a new entry reloads the list.
  useEventSource<unknown>(`${base}/watch`, { names: ['items'], onEvent: reload });
  const ack = (body: Record<string, unknown>) => post(`${base}/ack`, body).then(reload);
  return (
    <main>
      <p>
        <a href={href('inbox')}>Inbox</a> /
      </p>
      <h1>
        Inbox of {agentId} {summary.data && <span class="muted">({summary.data.unackedCount} unacknowledged)</span>}
      </h1>
      <p>
        <label>
          <input type="checkbox" checked={includeAcked} onChange={(e) => setIncludeAcked((e.currentTarget as HTMLInputElement).checked)} /> show acknowledged
        </label>{' '}
        <ActionButton label="Ack all" action={() => ack({ all: true })} />
      </p>
      <ResourceTable
        resource={entries}
        rows={(d) => d.entries}
        rowKey={(e) => e.entryId}
        empty="No entries."
        columns={[
          ['Entry', (e) => <code>{e.entryId}</code>],
          ['Kind', (e) => e.kind],
          ['What', (e) => (e.event ? `${e.event.type}${e.event.subject ? ` · ${e.event.subject}` : ''}` : `${e.sender ? `${e.sender}: ` : ''}${e.message ?? ''}`)],
          ['Data', (e) => (e.event?.data !== undefined ? <code>{JSON.stringify(e.event.data).slice(0, 200)}</code> : null)],
          ['Created', (e) => <Time at={e.createdAt} />],
          ['', (e) => (e.ackedAt ? <span class="muted">acked</span> : <ActionButton label="Ack" action={() => ack({ entryIds: [e.entryId] })} />)],
        ]}
      />
    </main>
  );
}
