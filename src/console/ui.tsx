/** Small pieces every page uses: loading a resource, tables, times, errors, busy buttons, the hash route. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export interface Resource<T> {
  data: T | null;
  error: ApiError | null;
  reload: () => void;
}

/** Loads `load()` now, again when `deps` change or `reload()` is called; keeps the last data while reloading. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
      },
      (e: unknown) => live && setError(e instanceof ApiError ? e : new ApiError(0, 'error', String(e))),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]); // eslint-disable-line react-hooks/exhaustive-deps
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload };
}

/** A hash segment decoded; a malformed escape (`%E0`) stays as it was typed rather than break the page. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The path after `#` (`#/agents/main` -> ['agents', 'main']), updated on navigation. The hash is
 * read again once the listener is on: effects run after paint, and a navigation in between (a
 * link followed while the first screen renders) fires its hashchange before anyone listens.
 */
export function useRoute(): string[] {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    on();
    return () => removeEventListener('hashchange', on);
  }, []);
  // `.` and `..` are dropped: in a request path they would name another route (URLs remove them).
  return useMemo(() => hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeSegment).filter((p) => p !== '.' && p !== '..'), [hash]);
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

export function ErrorNote({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error.message} <code>{error.code}</code>
    </p>
  );
}

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const d = new Date(at);
  return <time dateTime={at} title={at}>{d.toLocaleString()}</time>;
}

export function Status({ value }: { value: string }) {
  return <span class={`status status-${value.replace(/[^a-z_]/g, '')}`}>{value}</span>;
}

interface TableProps<T> {
  columns: Array<[string, (row: T) => ComponentChildren]>;
  empty: string;
  rowKey: (row: T) => string;
}

/** A table of rows, or a line saying there are none. */
export function Table<T>({ rows, columns, empty, rowKey }: TableProps<T> & { rows: T[] }) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <table>
      <thead>
        <tr>{columns.map(([name]) => <th key={name}>{name}</th>)}</tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} data-key={rowKey(row)}>
            {columns.map(([name, cell]) => <td key={name}>{cell(row)}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A loaded resource as a table: its error, else its rows once they are there. */
export function ResourceTable<D, T>({ resource, rows, ...table }: TableProps<T> & { resource: Resource<D>; rows: (data: D) => T[] }) {
  return (
    <>
      <ErrorNote error={resource.error} />
      {resource.data && <Table rows={rows(resource.data)} {...table} />}
    </>
  );
}

/** Runs one action at a time: `busy` while it runs, its error afterwards; resolves true on success. */
function useAction(): { busy: boolean; error: ApiError | null; run: (action: () => Promise<unknown>) => Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'error', String(err)));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/**
 * A form whose submit runs `action` with its fields; on success the form is cleared and `done` runs
 * (a panel reloads what it shows at once, without waiting for the change's event to stream in).
 */
export function ActionForm({
  action,
  label,
  children,
  name,
  done,
}: {
  action: (data: FormData) => Promise<unknown>;
  label: string;
  children?: ComponentChildren;
  name: string;
  done?: () => void;
}) {
  const { busy, error, run } = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    if (await run(() => action(new FormData(form)))) {
      form.reset();
      done?.();
    }
  };
  return (
    <form class="action" name={name} onSubmit={submit}>
      {children}
      <button type="submit" disabled={busy}>
        {label}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/** A button that runs `action` once at a time and shows its error beside it; `done` runs on success. */
export function ActionButton({ action, label, title, done }: { action: () => Promise<unknown>; label: string; title?: string; done?: () => void }) {
  const { busy, error, run } = useAction();
  return (
    <span class="action-button">
      <button type="button" disabled={busy} onClick={() => void run(action).then((ok) => ok && done?.())} title={title}>
        {label}
      </button>
      {error && <span class="error">{error.message}</span>}
    </span>
  );
}

export const field = (data: FormData, name: string) => String(data.get(name) ?? '').trim();

/** `fn` called at most once per `ms` (trailing), however often the returned function is called. */
export function useThrottled(fn: () => void, ms: number): () => void {
  const timer = useRef<number | null>(null);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => () => {
    if (timer.current !== null) clearTimeout(timer.current);
  }, []);
  return useCallback(() => {
    if (timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      latest.current();
    }, ms);
  }, [ms]);
}
