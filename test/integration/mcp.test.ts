/**
 * MCP servers through the public surface (docs/tools.md#mcp-servers), against a scripted model
 * that calls what its input names (an OpenAI-compatible server on loopback): the SDK-written
 * fixture over stdio and the published @modelcontextprotocol/server-filesystem. The model is
 * offered `srv__echo` with the server's schema and reads its answer; a crash mid-call and a slow
 * server are tool errors and the turn completes; an agent without the server is not offered it;
 * the tool policy asks before an exec-class MCP tool runs in an untrusted turn, and a rule lets it
 * run; the routes, the state page and `svc mcp` answer; no server process survives a graceful
 * shutdown, nor (after the next start) a kill -9 of the daemon. Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { daemonPool, request, ROOT, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI, type FakeModelServer, type RecordedRequest, type Reply } from '../helpers/fake-openai.js';
import { alive, echoServerToml, startHttpMcp } from '../helpers/mcp.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FILESYSTEM_SERVER = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const pool = daemonPool();
let model: FakeModelServer;
let d: RunningDaemon;
let files: string;

/** The model calls what the newest input says (`call TOOL {json}`), and repeats a tool's answer. */
function obedient(req: RecordedRequest): Reply {
  const messages = req.body.messages as Array<{ role: string; content: string }>;
  const last = messages[messages.length - 1]!;
  if (last.role === 'tool') return { text: [`the tool said: ${String(last.content).slice(0, 300)}`] };
  const m = /call (\S+) (\{.*\})/.exec(String(last.content));
  return m ? { toolCalls: [{ name: m[1]!, args: [m[2]!] }] } : { text: ['nothing to call'] };
}

function config(extra = ''): string {
  return [
    `[model]\ndefault = "fake/obedient"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${model.url}"\napi_key_env = ""\nmodels = ["obedient"]\n`,
    `[policy]\nrules = [{ tool = "srv__add", decision = "allow" }]\n`,
    echoServerToml('srv', 'call_timeout_ms = 1500\ntool_classes = { pid = "read" }'),
    echoServerToml('picked', 'agents = ["helper"]'),
    `[mcp.servers.files]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FILESYSTEM_SERVER)}, ${JSON.stringify(files)}]\nclass = "read"\n`,
    extra,
  ].join('\n');
}

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.responder = obedient;
  files = fs.realpathSync(pool.home());
  fs.writeFileSync(path.join(files, 'note.txt'), 'a note for the model\n');
  d = await pool.start({ configToml: config() });
}, 60_000);
afterAll(async () => {
  pool.cleanup();
  await model.close();
});

async function turnEnd(target: RunningDaemon, agent: string, messageId: string): Promise<Json> {
  return waitFor(async () => {
    const events = (await request(target, 'GET', `/api/agents/${agent}/events?order=desc&limit=200`)).json.events as Json[];
    return events.find((e) => ['turn_completed', 'turn_failed'].includes(e.type) && e.payload.message_id === messageId);
  }, 30_000, 50);
}

/** An operator prompt to `agent`; resolves with the turn's end event and the model's requests of that turn. */
async function prompt(text: string, agent = 'main', target = d): Promise<{ end: Json; requests: RecordedRequest[] }> {
  const before = model.completions().length;
  const res = await request(target, 'POST', `/api/control/agents/${agent}/prompt`, { body: { text } });
  expect(res.status, res.text).toBe(202);
  const end = await turnEnd(target, agent, res.json.message_id);
  return { end, requests: model.completions().slice(before) };
}

const toolMessage = (req: RecordedRequest) => (req.body.messages as Json[]).findLast((m) => m.role === 'tool');
const offered = (req: RecordedRequest) => (req.body.tools as Json[]).map((t) => t.function);
const server = async (name: string, target = d): Promise<Json> => (await request(target, 'GET', `/api/control/runtime/mcp/${name}`)).json.server;

describe('a configured MCP server', () => {
  it("is offered as srv__echo with the server's schema; its answer reaches the model", async () => {
    const { end, requests } = await prompt('call srv__echo {"text":"hello from the server"}');
    expect(end.type).toBe('turn_completed');
    const echo = offered(requests[0]!).find((t: Json) => t.name === 'srv__echo');
    expect(echo).toEqual({ name: 'srv__echo', description: 'Answers with the text it is given.', parameters: expect.objectContaining({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) });
    expect(toolMessage(requests[1]!)).toMatchObject({ role: 'tool', content: 'hello from the server' });
    const state = (await request(d, 'GET', '/api/agents/main/state')).json;
    expect(state.mcp_servers).toEqual(expect.arrayContaining([{ name: 'srv', transport: 'stdio', state: 'ready', tool_count: 10 }]));
  });

  it('a published server (server-filesystem) reads a file inside its directory and refuses one outside', async () => {
    const inside = await prompt(`call files__read_text_file ${JSON.stringify({ path: path.join(files, 'note.txt') })}`);
    expect(toolMessage(inside.requests[1]!).content).toBe('a note for the model\n');
    const outside = await prompt('call files__read_text_file {"path":"/etc/passwd"}');
    expect(JSON.parse(toolMessage(outside.requests[1]!).content)).toMatchObject({ ok: false, code: 'mcp_tool_error', error: expect.stringContaining('Access denied') });
    expect((await server('files')).tools.map((t: Json) => t.model_name)).toContain('files__list_directory');
  });

  it('a server killed mid-call is a tool error; the turn completes; it restarts after the delay and answers again', async () => {
    const before = (await server('srv')).pid;
    const { end, requests } = await prompt('call srv__crash {}');
    expect(end.type).toBe('turn_completed');
    expect(JSON.parse(toolMessage(requests[1]!).content)).toMatchObject({ ok: false, code: 'mcp_server_unavailable', error: expect.stringContaining('exit code 3') });
    expect(alive(before)).toBe(false);
    const back = await waitFor(async () => {
      const s = await server('srv');
      return s.state === 'ready' && s;
    }, 15_000, 100);
    expect(back).toMatchObject({ restarts: 1, last_error: expect.stringContaining('crashing on purpose') });
    expect(back.pid).not.toBe(before);
    const again = await prompt('call srv__echo {"text":"back again"}');
    expect(toolMessage(again.requests[1]!).content).toBe('back again');
  });

  it('a call slower than call_timeout_ms is mcp_timeout; the turn completes', async () => {
    const { end, requests } = await prompt('call srv__slow {"ms":10000}');
    expect(end.type).toBe('turn_completed');
    expect(JSON.parse(toolMessage(requests[1]!).content)).toMatchObject({ ok: false, code: 'mcp_timeout', timeout_ms: 1500 });
  });

  it('an agent not assigned a server is not offered its tools, and does not start it', async () => {
    // `picked` is only for the agent `helper`, which has had no turn.
    expect((await server('picked')).state).toBe('idle');
    expect((await request(d, 'POST', '/api/control/agents/other/create', { body: {} })).status).toBe(201);
    const { requests } = await prompt('call srv__echo {"text":"from other"}', 'other');
    const names = offered(requests[0]!).map((t: Json) => t.name);
    expect(names).toContain('srv__echo');
    expect(names.filter((n: string) => n.startsWith('picked__'))).toEqual([]);
    expect((await server('picked')).state).toBe('idle');
    const state = (await request(d, 'GET', '/api/agents/other/state')).json;
    expect(state.mcp_servers.map((s: Json) => s.name)).toEqual(['srv', 'files']);
  });
});

describe('the tool policy over MCP tools', () => {
  async function enqueue(text: string): Promise<string> {
    const res = await request(d, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'chat' }, text } });
    expect(res.status, res.text).toBe(202);
    return res.json.message_id;
  }

  it('an untrusted turn asks before an exec-class MCP tool runs; approved, it runs', async () => {
    const messageId = await enqueue('call srv__echo {"text":"approved echo"}');
    const approval = await waitFor(async () => (await request(d, 'GET', '/api/agents/main/approvals?status=pending')).json.approvals[0], 20_000);
    expect(approval).toMatchObject({ tool: 'srv__echo', classes: ['exec'], trust: 'untrusted_external', arguments: { text: 'approved echo' } });
    const before = model.completions().length;
    expect((await request(d, 'POST', `/api/control/agents/main/approvals/${approval.approval_id}`, { body: { decision: 'approve' } })).status).toBe(200);
    expect((await turnEnd(d, 'main', messageId)).type).toBe('turn_completed');
    expect(toolMessage(model.completions()[before]!).content).toBe('approved echo');
  });

  it('a rule {tool = "srv__add", decision = "allow"} lets it run without asking; a read-class tool runs too', async () => {
    const before = model.completions().length;
    const messageId = await enqueue('call srv__add {"a":40,"b":2}');
    expect((await turnEnd(d, 'main', messageId)).type).toBe('turn_completed');
    expect(toolMessage(model.completions()[before + 1]!).content).toBe('42');
    const read = await enqueue('call srv__pid {}');
    expect((await turnEnd(d, 'main', read)).type).toBe('turn_completed');
    expect((await request(d, 'GET', '/api/agents/main/approvals?status=pending')).json.approvals).toEqual([]);
  });
});

describe('routes and svc mcp', () => {
  const { svc, svcJson, expectFailure } = cliFor(() => d);

  it('GET /api/control/runtime/mcp lists every server; an unknown one is 404 mcp_server_not_found', async () => {
    const res = await request(d, 'GET', '/api/control/runtime/mcp');
    expect(res.status).toBe(200);
    expect(res.json.servers.map((s: Json) => [s.name, s.transport])).toEqual([
      ['srv', 'stdio'],
      ['picked', 'stdio'],
      ['files', 'stdio'],
    ]);
    const srv = res.json.servers[0];
    expect(srv.tools.find((t: Json) => t.name === 'pid')).toEqual({ name: 'pid', model_name: 'srv__pid', class: 'read', description: 'The server process id.' });
    expect(srv.warnings).toEqual([expect.stringContaining('dotted.name')]);
    const missing = await request(d, 'GET', '/api/control/runtime/mcp/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ ok: false, code: 'mcp_server_not_found' });
    expect((await request(d, 'POST', '/api/control/runtime/mcp/nope/restart')).json.code).toBe('mcp_server_not_found');
    expect((await request(d, 'GET', '/api/control/runtime/mcp/bad.name')).status).toBe(400);
  });

  it('svc mcp list, tools and restart', async () => {
    const list = await svc(['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+TRANSPORT\s+STATE/m);
    expect(list.stdout).toMatch(/^srv\s+stdio\s+ready\s+10\s/m);
    expect(list.stdout).toMatch(/^picked\s+stdio\s+idle\s+-\s/m);
    const tools = await svc(['mcp', 'tools', 'srv']);
    expect(tools.stdout).toMatch(/^srv__echo\s+exec\s+Answers with the text it is given\./m);
    expect(tools.stdout).toContain('not offered: tool "dotted.name"');
    const before = (await server('srv')).pid;
    const restarted = await svcJson(['mcp', 'restart', 'srv']);
    expect(restarted.server).toMatchObject({ name: 'srv', state: 'ready' });
    expect(restarted.server.pid).not.toBe(before);
    expect(alive(before)).toBe(false);
    await expectFailure(['mcp', 'tools', 'nope'], 'mcp_server_not_found');
  });
});

describe('a streamable-HTTP server behind a bearer token', () => {
  it('gets the token from a credential profile; the answer reaches the model; the token shows in no config, state or log', async () => {
    const token = 'mcp-http-secret-4b1d';
    const web = await startHttpMcp(token);
    try {
      const own = await pool.start({ configToml: `${config()}\n[mcp.servers.web]\nurl = "${web.url}"\ncredential_profile = "mcp-web"\nclass = "read"\n`, env: { SVC_LOG_LEVEL: 'debug' } });
      const put = await request(own, 'PUT', '/api/control/runtime/credentials/mcp-web', { body: { kind: 'bearer_token', material: token } });
      expect(put.status, put.text).toBe(200);
      const { requests } = await prompt('call web__echo {"text":"over streamable http"}', 'main', own);
      expect(toolMessage(requests[1]!).content).toBe('over streamable http');
      expect(web.headers.length).toBeGreaterThan(0);
      expect(web.headers.every((h) => h.authorization === `Bearer ${token}`)).toBe(true);
      const credentials = (await request(own, 'GET', '/api/control/runtime/credentials')).json.profiles;
      expect(credentials.find((p: Json) => p.profile === 'mcp-web')).toMatchObject({ configured: true, used_by: ['mcp.servers.web.credential_profile'] });
      const reads = await Promise.all(
        ['/api/control/runtime/config', '/api/control/runtime/mcp', '/api/control/runtime/mcp/web', '/api/agents/main/state', '/api/control/runtime/credentials'].map((u) => request(own, 'GET', u)),
      );
      for (const r of reads) {
        expect(r.status).toBe(200);
        expect(r.text).not.toContain(token);
      }
      expect(own.logs()).toContain('MCP server ready');
      expect(own.logs()).not.toContain(token);
      expect(fs.readFileSync(path.join(own.home, 'config.toml'), 'utf8')).not.toContain(token);
    } finally {
      await web.close();
    }
  });
});

describe('no server process outlives the daemon', () => {
  /** The pid of a detached `sleep` the fixture started (it leaves the server's process group). */
  async function spawnChild(target: RunningDaemon): Promise<number> {
    const { requests } = await prompt('call srv__spawn_child {}', 'main', target);
    return Number(toolMessage(requests[1]!).content);
  }

  it('graceful shutdown ends every server and what it started', async () => {
    const own = await pool.start({ configToml: config() });
    const child = await spawnChild(own);
    const srv = await server('srv', own);
    expect(alive(srv.pid)).toBe(true);
    expect(alive(child)).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(own.home, 'mcp-servers.json'), 'utf8')).servers).toEqual(expect.arrayContaining([expect.objectContaining({ server: 'srv', pid: srv.pid })]));
    expect(await own.stop('SIGTERM')).toBe(0);
    expect(alive(srv.pid)).toBe(false);
    await waitFor(() => !alive(child), 5000);
    expect(fs.existsSync(path.join(own.home, 'mcp-servers.json'))).toBe(false);
  });

  it('after kill -9, the next start ends what the dead daemon left running', async () => {
    const first = await pool.start({ configToml: config() });
    const child = await spawnChild(first);
    const srv = await server('srv', first);
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    // The detached child outlives the daemon (the server may exit by itself when its input closes).
    expect(alive(child)).toBe(true);
    const next = await pool.start({ home: first.home, configToml: config() });
    await waitFor(() => !alive(child) && !alive(srv.pid), 10_000);
    await waitFor(() => next.logs().includes('ended MCP servers a previous daemon left running'), 10_000);
    // The servers of the new daemon start as usual.
    const { requests } = await prompt('call srv__echo {"text":"after the crash"}', 'main', next);
    expect(toolMessage(requests[1]!).content).toBe('after the crash');
  });
});
