/**
 * Live event streams with the browser's EventSource. A frame's SSE event name is its kind, and
 * EventSource delivers named frames only to listeners of that name, so the console listens to
 * every kind svc gives a level (src/events/wire/levels.ts) and their Holon companions. event_seq is
 * gap-free per agent, so a frame of a kind nobody listened to shows up as a gap: the agent page
 * fills it from the events page (agent-events.tsx). After a dropped connection EventSource
 * reconnects by itself with `Last-Event-ID`, and the daemon resumes after that event.
 * `withCredentials` only matters cross-origin; same-origin requests carry the session cookie anyway.
 */
import { useEffect, useRef } from 'preact/hooks';
import { COMPANION_KINDS, LEVELLED_KINDS } from '../events/wire/index.js';
import type { EventEnvelope } from './types.js';

export const STREAMED_KINDS = [...new Set([...LEVELLED_KINDS, ...Object.keys(COMPANION_KINDS), 'message'])];

export interface StreamHandlers<T = EventEnvelope> {
  /** The frame names to listen to (default: every event kind of an agent's log). */
  names?: readonly string[];
  onEvent: (data: T) => void;
  /** The connection is (again) open: a fresh connection without a cursor starts live, so reload what came before. */
  onOpen?: () => void;
  /** The connection dropped; EventSource is reconnecting by itself (with Last-Event-ID). */
  onDown?: () => void;
  /** The daemon refused the stream for good (e.g. the cursor left the replay window): start a new one. */
  onClosed?: () => void;
}

/** One EventSource on `url` (none while null) while the component is mounted; a new `generation` opens a new one. */
export function useEventSource<T = EventEnvelope>(url: string | null, handlers: StreamHandlers<T>, generation = 0): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (url === null) return;
    const source = new EventSource(url, { withCredentials: true });
    const frame = (e: MessageEvent<string>) => {
      try {
        latest.current.onEvent(JSON.parse(e.data) as T);
      } catch {
        /* not JSON */
      }
    };
    for (const name of latest.current.names ?? STREAMED_KINDS) source.addEventListener(name, frame);
    source.onopen = () => latest.current.onOpen?.();
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) latest.current.onClosed?.();
      else latest.current.onDown?.();
    };
    return () => source.close();
  }, [url, generation]);
}
