/**
 * An agent's live event log. The newest page is read first; the stream then starts after its
 * head (`?after_seq=H`), so nothing between the two is lost. After a network drop EventSource
 * reconnects to the same URL by itself and sends `Last-Event-ID`; the daemon takes the later of
 * the two cursors, so the stream resumes after the last event this page received. event_seq has
 * no gaps: a jump means frames of a kind this page did not listen for (live.ts), read from the
 * events page instead. Every event that reaches the page this way calls `onEvent` (the open panel
 * reloads), whether it came on the stream or in a page read: the first page is read while the
 * panels load, and an event committed between a panel's read and the page's (a task that
 * finished) is only in the page.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, enc, get, qs } from './api.js';
import { useEventSource } from './live.js';
import { Diff, ExecutionDetail } from './tools-panel.js';
import type { EventEnvelope, EventsPage } from './types.js';
import { Time } from './ui.js';

/** Events kept on the page (newest first). */
const KEEP = 500;
const PAGE = 100;
const REOPEN_MS = 2000;

export function useAgentEvents(agentId: string, onEvent: () => void): { events: EventEnvelope[]; live: boolean } {
  const [events, setEvents] = useState<EventEnvelope[]>([]);
  const [live, setLive] = useState(false);
  // The stream's first cursor (the head of the first page); a new generation reads the page again.
  const [start, setStart] = useState<{ after: number; generation: number } | null>(null);
  const [generation, setGeneration] = useState(0);
  const newest = useRef(0);
  const notify = useRef(onEvent);
  notify.current = onEvent;
  const base = `/api/agents/${enc(agentId)}/events`;
  const again = () => setTimeout(() => setGeneration((g) => g + 1), REOPEN_MS);

  /** Adds events to the list; the panels reload when one is newer than any seen before. */
  const merge = useCallback((more: EventEnvelope[]) => {
    if (more.length === 0) return;
    if (more.some((e) => e.event_seq > newest.current)) notify.current();
    newest.current = Math.max(newest.current, ...more.map((e) => e.event_seq));
    setEvents((prev) => {
      const bySeq = new Map(prev.map((e) => [e.event_seq, e]));
      for (const e of more) bySeq.set(e.event_seq, e);
      return [...bySeq.values()].sort((a, b) => b.event_seq - a.event_seq).slice(0, KEEP);
    });
  }, []);

  useEffect(() => {
    let current = true;
    get<EventsPage>(base + qs({ order: 'desc', limit: PAGE })).then(
      (page) => {
        if (!current) return;
        merge(page.events);
        setStart({ after: Math.max(newest.current, page.events[0]?.event_seq ?? 0), generation });
      },
      // An agent that does not exist (or no longer does) is said by the page; anything else is retried.
      (err: unknown) => current && !(err instanceof ApiError && err.status === 404) && again(),
    );
    return () => {
      current = false;
    };
  }, [base, generation]);

  useEventSource(
    start && `${base}/stream${qs({ after_seq: start.after })}`,
    {
      onOpen: () => setLive(true),
      onEvent: (e) => {
        if (e.agent_id !== agentId) return;
        const before = newest.current;
        merge([e]);
        if (before > 0 && e.event_seq > before + 1) {
          void get<EventsPage>(base + qs({ after_seq: before, before_seq: e.event_seq, limit: Math.min(1000, e.event_seq - before - 1) })).then((p) => merge(p.events), () => {});
        }
      },
      onDown: () => setLive(false),
      // Refused for good (a cursor retention pruned, a session that ended): read the page again
      // after a pause, so a lasting refusal never becomes a tight loop.
      onClosed: () => {
        setLive(false);
        again();
      },
    },
    start?.generation ?? 0,
  );
  return { events, live };
}

/**
 * One line per event; the payload opens on click, with the diff of a file change, the summary of a
 * compaction and, for an event of a tool call, the call's record and artifacts.
 */
export function EventList({ agentId, events, live }: { agentId: string; events: EventEnvelope[]; live: boolean }) {
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
              {typeof e.payload.diff === 'string' && <Diff text={e.payload.diff} />}
              {e.type === 'context_compacted' && <pre class="summary">{String(e.payload.summary ?? '')}</pre>}
              <pre>{JSON.stringify({ provenance: e.provenance, payload: e.payload }, null, 2)}</pre>
              {typeof e.payload.tool_execution_id === 'string' && e.type !== 'tool_called' && <OpenExecution agentId={agentId} executionId={e.payload.tool_execution_id} />}
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The tool execution's record, loaded when asked for. */
function OpenExecution({ agentId, executionId }: { agentId: string; executionId: string }) {
  const [open, setOpen] = useState(false);
  return open ? (
    <ExecutionDetail agentId={agentId} executionId={executionId} />
  ) : (
    <button type="button" class="link" onClick={() => setOpen(true)}>
      Tool execution {executionId}
    </button>
  );
}

/** A short line for the most telling payload field. */
function summaryOf(e: EventEnvelope): string {
  const p = e.payload;
  if (e.type === 'file_changed') return `${String(p.op)} ${String(p.path)}${p.moved_to ? ` → ${String(p.moved_to)}` : ''} (${String(p.bytes_before ?? 0)} → ${String(p.bytes_after ?? 0)} bytes)`;
  if (e.type === 'context_compacted') {
    const how = p.method === 'dropped' ? `dropped (${String(p.reason ?? '')})` : 'summarised';
    return `entries #${String(p.from_seq)}–#${String(p.through_seq)} ${how}: ${String(p.tokens_before)} → ${String(p.tokens_after)} tokens${p.forced ? ', forced' : ''}`;
  }
  if (typeof p.name === 'string' && typeof p.tool_call_id === 'string') return p.ok === false ? `${p.name} refused or failed` : p.name;
  for (const key of ['text', 'summary', 'objective', 'status', 'reason', 'title']) {
    const v = p[key];
    if (typeof v === 'string' && v) return v.length > 120 ? `${v.slice(0, 120)}…` : v;
  }
  return '';
}
