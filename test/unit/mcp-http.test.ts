/**
 * A streamable-HTTP MCP server (the SDK's server transport on loopback, the fixture's tools) that
 * wants a bearer token: svc sends the token from a credential profile, read at each request, and
 * never shows it (views, logs); a missing profile and a refused token fail the start with the
 * reason; a server that goes away mid-call is a tool error, then a restart after the delay.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpHarness, startHttpMcp, toolContext, type McpHarness } from '../helpers/mcp.js';
import { until } from '../helpers/run-loop.js';

const TOKEN = 'mcp-bearer-7f3c9a';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(extra = '') {
  const server = await startHttpMcp(TOKEN);
  cleanups.push(() => server.close());
  const h = mcpHarness(`[mcp.servers.web]\nurl = "${server.url}"\ncredential_profile = "mcp-web"\n${extra}`);
  cleanups.push(() => h.close());
  return { server, h };
}

async function call(h: McpHarness, name: string, args: Record<string, unknown> = {}) {
  const tool = (await h.mcp.toolsFor('main')).find((t) => t.name === name);
  if (!tool) throw new Error(`${name} is not offered`);
  return tool.execute(toolContext(), args);
}

describe('an MCP server over streamable HTTP', () => {
  it('gets the bearer token from the credential profile; its tools answer; the token shows nowhere', async () => {
    const { server, h } = await setup();
    h.credentials.put('mcp-web', 'api_key', TOKEN);
    const tools = await h.mcp.toolsFor('main');
    expect(tools.map((t) => t.name)).toContain('web__echo');
    expect(await call(h, 'web__echo', { text: 'over http' })).toMatchObject({ ok: true, content: 'over http' });
    expect(await call(h, 'web__add', { a: 1, b: 2 })).toMatchObject({ ok: true, content: '3' });
    expect(server.headers.length).toBeGreaterThan(2);
    expect(new Set(server.headers.map((h) => h.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
    const view = h.mcp.get('web');
    expect(view).toMatchObject({ transport: 'http', state: 'ready', pid: null, url: server.url, command: null });
    expect(JSON.stringify(h.mcp.list())).not.toContain(TOKEN);
    expect(h.logs()).not.toContain(TOKEN);
  });

  it('a profile that is not stored, or a token the server refuses, fails the start with the reason', async () => {
    const { server, h } = await setup();
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    expect(h.mcp.get('web').last_error).toContain('credential_profile: credential profile "mcp-web" is not stored');
    expect(server.headers).toEqual([]);
    h.credentials.put('mcp-web', 'api_key', 'wrong-token');
    h.clock.advance(1000);
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    expect(h.mcp.get('web')).toMatchObject({ state: 'failed', last_error: expect.stringContaining('401') });
    expect(JSON.stringify(h.mcp.list())).not.toContain('wrong-token');
    // The stored profile is read at each start: fixed, the next retry connects.
    h.credentials.put('mcp-web', 'api_key', TOKEN);
    h.clock.advance(2000);
    expect(await h.mcp.toolsFor('main')).not.toEqual([]);
  });

  it('a custom header carries the raw material', async () => {
    const { server, h } = await setup('credential_header = "X-Api-Key"');
    h.credentials.put('mcp-web', 'api_key', TOKEN);
    expect(await call(h, 'web__echo', { text: 'keyed' })).toMatchObject({ ok: true, content: 'keyed' });
    expect(server.headers.every((x) => x['x-api-key'] === TOKEN && x.authorization === undefined)).toBe(true);
  });

  it('a server that goes away mid-call is mcp_server_unavailable; it is connected again after the delay', async () => {
    const { server, h } = await setup('call_timeout_ms = 5000');
    h.credentials.put('mcp-web', 'api_key', TOKEN);
    await h.mcp.toolsFor('main');
    const sent = server.headers.length;
    const pending = call(h, 'web__slow', { ms: 3000 });
    await until(() => server.headers.length > sent, 'the call sent');
    server.kill();
    const out = await pending;
    expect(JSON.parse(out.content)).toMatchObject({ ok: false, code: 'mcp_server_unavailable', server: 'web' });
    expect(h.mcp.get('web')).toMatchObject({ state: 'backoff', restarts: 0 });
    const again = await startHttpMcp(TOKEN, Number(new URL(server.url).port));
    cleanups.push(() => again.close());
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.timers[0]!.fn();
    await until(() => h.mcp.get('web').state === 'ready', 'connected again', 10_000);
    expect(await call(h, 'web__echo', { text: 'back' })).toMatchObject({ ok: true, content: 'back' });
    expect(h.mcp.get('web').restarts).toBe(1);
  });

  it('a redirect to another origin is not followed: the token never leaves the configured server', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const elsewhere = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => elsewhere.close(() => r())));
    const redirecting = http.createServer((_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/mcp` }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => redirecting.close(() => r())));
    const h = mcpHarness(`[mcp.servers.web]\nurl = "http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/mcp"\ncredential_profile = "mcp-web"\n`);
    cleanups.push(() => h.close());
    h.credentials.put('mcp-web', 'api_key', TOKEN);
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    expect(h.mcp.get('web').state).toBe('failed');
    expect(seen).toEqual([]);
  });
});
