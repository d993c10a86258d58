/**
 * What the MCP tests share: the SDK-written fixture server (stdio), a streamable-HTTP server of
 * the same tools on loopback that wants a bearer token, an McpService over a temporary home with
 * a manual clock and restart timers the test fires, and /proc checks for processes by pid or by
 * a word of their command line.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { McpService } from '../../src/runtime/mcp/index.js';
import type { ToolContext } from '../../src/runtime/tools/index.js';
import { CredentialStore } from '../../src/store/credentials.js';
import { ROOT } from './daemon.js';
// @ts-expect-error: a JavaScript fixture without types
import { createEchoServer } from '../integration/fixtures/mcp-echo-server.mjs';

export const ECHO_SERVER = path.join(ROOT, 'test', 'integration', 'fixtures', 'mcp-echo-server.mjs');

/** `[mcp.servers.NAME]` running the fixture over stdio, with extra lines. */
export function echoServerToml(name = 'srv', extra = ''): string {
  return `[mcp.servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(ECHO_SERVER)}]\n${extra}\n`;
}

export interface McpHarness {
  mcp: McpService;
  home: string;
  clock: ManualClock;
  credentials: CredentialStore;
  /** Restart timers set so far (fire one to restart a server now). */
  timers: Array<{ fn: () => void; ms: number; cancelled: boolean }>;
  logs: () => string;
  close: () => Promise<void>;
}

/** An McpService on a temporary home with this config; agents are found by `templates` (id -> template). */
export function mcpHarness(toml: string, o: { templates?: Record<string, string | null>; env?: NodeJS.ProcessEnv; home?: string } = {}): McpHarness {
  const home = o.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-'));
  fs.writeFileSync(path.join(home, 'config.toml'), toml);
  const clock = new ManualClock();
  const credentials = new CredentialStore(home, () => clock.now());
  let out = '';
  const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, done) => ((out += chunk), done()) }));
  const timers: McpHarness['timers'] = [];
  const templates = o.templates ?? { main: null };
  const mcp = new McpService({
    config: loadConfig({ home }, {}),
    clock,
    logger,
    credentials,
    agents: { find: (id) => (Object.hasOwn(templates, id) ? { template: templates[id] ?? null } : null) },
    env: o.env ?? process.env,
    setTimer: (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
  });
  mcp.start();
  return {
    mcp,
    home,
    clock,
    credentials,
    timers,
    logs: () => out,
    close: async () => {
      await mcp.stop();
      if (!o.home) fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

export function toolContext(o: Partial<ToolContext> = {}): ToolContext {
  return { agentId: 'main', turnId: 'turn_test', messageId: 'msg_test', signal: new AbortController().signal, trust: 'trusted_operator', network: false, ...o };
}

/** Whether the process `pid` is alive (not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line contains `word`. */
export function processesWith(word: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').includes(word) && alive(Number(name))) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * A streamable-HTTP MCP server (stateless: one server per request) that wants `Bearer <token>`
 * in Authorization, or the token itself in X-Api-Key; `headers` records what each request sent.
 */
export async function startHttpMcp(token: string, port = 0): Promise<{ url: string; headers: http.IncomingHttpHeaders[]; close: () => Promise<void>; kill: () => void }> {
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer(async (req, res) => {
    headers.push(req.headers);
    if (req.headers.authorization !== `Bearer ${token}` && req.headers['x-api-key'] !== token) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const mcp = createEchoServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    headers,
    kill: () => {
      server.close();
      server.closeAllConnections();
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
