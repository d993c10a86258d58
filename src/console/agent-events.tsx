/**
 * An agent's live event log. The stream opens without a cursor (live), and on every (re)open the
 * newest page is read and merged by event_seq, so nothing between the page and the stream is
 * lost. event_seq has no gaps: a jump means frames this page did not listen for, read from the
 * events page instead. After a network drop EventSource resumes with Last-Event-ID by itself.
 */
import { useCallback, useRef, useState } from 'preact/hooks';
import { enc, get, qs } from './api.js';
import { useEventSource } from './live.js';
import type { EventEnvelope, EventsPage } from './types.js';
import { Time } from './ui.js';

/** Events kept on the page (newest first). */
const KEEP = 500;
const PAGE = 100;
const REOPEN_MS = 2000;

export function useAgentEvents(agentId: string, onEvent: () => void): { events: EventEnvelope[]; live: boolean } {
  const [events, setEvents] = useState<EventEnvelope[]>([]);
  const [live, setLive] = useState(false);
  const [generation, setGeneration] = useState(0);
  const newest = useRef(0);
  const base = `/api/agents/${enc(agentId)}/events`;

  const merge = useCallback((more: EventEnvelope[]) => {
    if (more.length === 0) return;
    newest.current = Math.max(newest.current, ...more.map((e) => e.event_seq));
    setEvents((prev) => {
      const bySeq = new Map(prev.map((e) => [e.event_seq, e]));
      for (const e of more) bySeq.set(e.event_seq, e);
      return [...bySeq.values()].sort((a, b) => b.event_seq - a.event_seq).slice(0, KEEP);
    });
  }, []);

  const readPage = (query: Record<string, number | string>) => get<EventsPage>(base + qs(query)).then((p) => merge(p.events), () => {});

  useEventSource(`${base}/stream`, {
    onOpen: () => {
      setLive(true);
      void readPage({ order: 'desc', limit: PAGE });
    },
    onEvent: (e) => {
      if (e.agent_id !== agentId) return;
      const before = newest.current;
      merge([e]);
      if (before > 0 && e.event_seq > before + 1) void readPage({ after_seq: before, before_seq: e.event_seq, limit: Math.min(1000, e.event_seq - before - 1) });
      onEvent();
    },
    onClosed: () => {
      // Refused for good (a pruned cursor, the daemon restarting, a session that ended): a new
      // stream after a pause, so a lasting refusal never becomes a tight loop.
      setLive(false);
      setTimeout(() => setGeneration((g) => g + 1), REOPEN_MS);
    },
  }, generation);
  return { events, live };
}

/** One line per event; the payload opens on click. */
export function EventList({ events, live }: { events: EventEnvelope[]; live: boolean }) {
  return (
    <section>
      <p class="muted">
        <span class={live ? 'dot live' : 'dot'} /> {live ? 'live' : 'connecting…'} · newest first
      </p>
      <ol class="events">
        {events.map((e) => (
          <li key={e.event_seq} data-seq={e.event_seq} data-type={e.type}>
            <details>
              <summary>
                <span class="seq">#{e.event_seq}</span> <Time at={e.ts} /> <strong>{e.type}</strong> <span class="muted">{summaryOf(e)}</span>
              </summary>
              <pre>{JSON.stringify({ provenance: e.provenance, payload: e.payload }, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A short line for the most telling payload field. */
function summaryOf(e: EventEnvelope): string {
  const p = e.payload;
  for (const key of ['text', 'summary', 'objective', 'status', 'reason', 'title']) {
    const v = p[key];
    if (typeof v === 'string' && v) return v.length > 120 ? `${v.slice(0, 120)}…` : v;
  }
  return '';
}
