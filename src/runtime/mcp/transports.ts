/**
 * How svc reaches a server: the stdio server's command line and environment (the command tasks'
 * allowlist of the daemon's variables, the configured `env`, the `env_credentials` read from
 * their profiles, and the reaper's marker: never the daemon's own SVC_* variables or provider
 * keys), or the streamable-HTTP transport with its header filled from a credential profile at
 * each request. And what a failed call means for the model (the error codes of
 * docs/tools.md#mcp-servers).
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../config/index.js';
import { type AppError, errors } from '../../core/index.js';
import type { StdioSpec } from './stdio-transport.js';

/** One message (a stdio line, an HTTP answer to a request) at most: what a server can make svc hold. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Where credential profiles are read (the credential store). */
export interface CredentialLookup {
  token(profile: string): string | null;
}

/** A profile's material; throws naming the setting when it is not stored. */
function material(credentials: CredentialLookup, profile: string, setting: string): string {
  const token = credentials.token(profile);
  if (!token) throw new Error(`${setting}: credential profile ${JSON.stringify(profile)} is not stored (svc credentials set ${profile})`);
  return token;
}

/** The stdio server's command, arguments, directory and environment. */
export function stdioSpec(config: McpServerConfig, baseEnv: Record<string, string>, marker: Record<string, string>, credentials: CredentialLookup): StdioSpec {
  const env: Record<string, string> = { ...baseEnv, ...config.env };
  for (const [name, profile] of Object.entries(config.env_credentials)) env[name] = material(credentials, profile, `env_credentials.${name}`);
  return { command: config.command!, args: config.args, cwd: config.cwd, env: { ...env, ...marker }, maxMessageBytes: MAX_MESSAGE_BYTES };
}

/**
 * The streamable-HTTP transport. The header is set by the fetch each request goes through, from
 * the profile as stored at that moment (a changed credential needs no restart); redirects are
 * followed only within the origin (the SDK's default), so the header never leaves it. The answer
 * to a request is capped, and `onBroken` hears of one cut off by the network: the SDK would wait
 * for the call's time limit, but a server that went away mid-call is a restart, now.
 */
export function httpTransport(config: McpServerConfig, credentials: CredentialLookup, onBroken: (err: Error) => void, baseFetch: FetchLike = fetch): StreamableHTTPClientTransport {
  const header = config.credential_header.toLowerCase();
  const withCredential: FetchLike = async (url, init) => {
    const headers = new Headers(init?.headers);
    if (config.credential_profile) {
      const token = material(credentials, config.credential_profile, 'credential_profile');
      headers.set(header, header === 'authorization' ? `Bearer ${token}` : token);
    }
    const res = await baseFetch(url, { ...init, headers });
    // The long-lived GET stream of server notifications is not one answer (the SDK resumes it).
    return init?.method === 'POST' ? watched(res, MAX_MESSAGE_BYTES, onBroken) : res;
  };
  return new StreamableHTTPClientTransport(new URL(config.url), { fetch: withCredential });
}

/** The response with its body cut off past `limit` bytes, and a read that fails reported. */
function watched(res: Response, limit: number, onBroken: (err: Error) => void): Response {
  if (!res.body) return res;
  const reader = res.body.getReader();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if ((err as Error).name !== 'AbortError') onBroken(err as Error);
        controller.error(err);
        return;
      }
      if (chunk.done) return controller.close();
      seen += chunk.value.byteLength;
      if (seen <= limit) return controller.enqueue(chunk.value);
      controller.error(new Error(`the server's answer exceeds ${limit} bytes`));
      await reader.cancel().catch(() => undefined);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * What a failed call is for the model; `lost` (the reason) when the connection is gone and the
 * server must be restarted (its caller says so with the server's state).
 */
export function callFailure(err: unknown, o: { tool: string; timeoutMs: number; aborted: boolean }): { error: AppError; lost: null } | { error: null; lost: string } {
  if (o.aborted) return { error: errors.toolAborted(o.tool), lost: null };
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) return { error: errors.mcpTimeout(o.tool, o.timeoutMs), lost: null };
    if (err.code === ErrorCode.ConnectionClosed) return { error: null, lost: 'the connection closed during a call' };
    return { error: errors.mcpCallRefused(o.tool, err.message), lost: null };
  }
  // An answer that is not a tool result (the SDK's schema check): the server is there, the call failed.
  if (err instanceof Error && Array.isArray((err as { issues?: unknown }).issues)) return { error: errors.mcpCallRefused(o.tool, 'the answer is not a valid tool result'), lost: null };
  // HTTP: 404 is a session the server no longer knows (it restarted): connect again.
  if (err instanceof StreamableHTTPError && err.code !== 404) return { error: errors.mcpCallRefused(o.tool, err.message), lost: null };
  return { error: null, lost: err instanceof Error ? err.message : String(err) };
}
