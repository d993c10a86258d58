/**
 * The inbox through the control plane (/api/inbox/…, the inbox API's own routes): agents,
 * sources, subscriptions and timers; an inbox agent's entries (AgentInbox's: an item, or a digest
 * of a thread's items), live through its watch stream, with ack.
 */
import { useState } from 'preact/hooks';
import { enc, get, post, qs } from './api.js';
import { useEventSource } from './live.js';
import type { InboxAgent, InboxEntry, InboxSource, InboxSubscription, InboxTimer } from './types.js';
import { ActionButton, href, Status, ResourceTable, Time, useResource, useThrottled } from './ui.js';

const INBOX = '/api/inbox';

export function InboxPage({ agentId }: { agentId: string | null }) {
  return agentId ? <InboxEntries agentId={agentId} /> : <InboxOverview />;
}

function InboxOverview() {
  const agents = useResource(() => get<{ agents: InboxAgent[] }>(`${INBOX}/agents`), []);
  const sources = useResource(() => get<{ sources: InboxSource[] }>(`${INBOX}/sources`), []);
  const subs = useResource(() => get<{ subscriptions: InboxSubscription[] }>(`${INBOX}/subscriptions`), []);
  const timers = useResource(() => get<{ timers: InboxTimer[] }>(`${INBOX}/timers`), []);
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
          ['Status', (a) => <Status value={a.status} />],
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
      <h2>Timers</h2>
      <ResourceTable
        resource={timers}
        rows={(d) => d.timers}
        rowKey={(t) => t.scheduleId}
        empty="No timers."
        columns={[
          ['Timer', (t) => <code>{t.scheduleId}</code>],
          ['Agent', (t) => <a href={href('inbox', t.agentId)}>{nameOf(t.agentId)}</a>],
          ['When', (t) => timerWhen(t)],
          ['State', (t) => <Status value={t.state} />],
          ['Next', (t) => (t.nextFireAt ? <Time at={t.nextFireAt} /> : '-')],
          ['Message', (t) => t.message],
        ]}
      />
    </main>
  );
}

function timerWhen(t: InboxTimer): string {
  if (t.mode === 'at') return `at ${t.at}`;
  if (t.mode === 'every') return `every ${(t.intervalMs ?? 0) / 1000} s`;
  return `cron ${t.cronExpr} (${t.timezone})`;
}

/** One line of what an entry is: an event's type and subject, a direct item's sender and text, a digest's summary. */
function what(e: InboxEntry): string {
  if (e.event) return `${e.event.type}${e.event.subject ? ` · ${e.event.subject}` : ''}`;
  if (e.itemKind === 'direct' || e.itemKind === 'timer') return `${e.sender ? `${e.sender}: ` : ''}${e.message ?? ''}`;
  return e.summary;
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
          ['Kind', (e) => (e.kind === 'digest_snapshot' ? `digest of ${e.count}` : (e.itemKind ?? e.kind))],
          ['What', (e) => what(e)],
          ['Subscriptions', (e) => e.subscriptionIds.length || null],
          ['Data', (e) => (e.rawPayload !== undefined && e.itemKind === 'event' ? <code>{JSON.stringify(e.rawPayload).slice(0, 200)}</code> : null)],
          ['Created', (e) => <Time at={e.createdAt} />],
          ['', (e) => (e.ackedAt ? <span class="muted">acked</span> : <ActionButton label="Ack" action={() => ack({ entryIds: [e.entryId] })} />)],
        ]}
      />
    </main>
  );
}
