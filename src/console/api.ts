/**
 * The console's requests: same-origin fetches to the control plane, with the browser's session
 * cookie when there is one (never a token: the page keeps none). Errors arrive as the daemon's
 * envelope `{ok:false, error, code}` and become an ApiError. A 401 anywhere means the session
 * ended: the app shows the sign-in screen again (`onSignedOut`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let signedOut: () => void = () => {};
/** Called by the app: what to do when a request answers 401. */
export function onSignedOut(handler: () => void): void {
  signedOut = handler;
}

export const enc = encodeURIComponent;

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'unreachable', 'the daemon cannot be reached');
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const envelope = (json ?? {}) as { code?: string; error?: string };
    if (res.status === 401 && !path.startsWith('/api/auth/')) signedOut();
    throw new ApiError(res.status, envelope.code ?? `http_${res.status}`, envelope.error ?? (text || `HTTP ${res.status}`));
  }
  return json as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);

/** A query string from the defined values. */
export function qs(params: Record<string, string | number | boolean | undefined>): string {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined) as Array<[string, string | number | boolean]>;
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
}
