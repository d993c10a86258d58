/**
 * MCP servers as tools, in process (docs/tools.md#mcp-servers): the SDK-written fixture over
 * stdio as a real child process, the service called directly. Names, schemas and results as the
 * model meets them; slow, failing, crashing and never-starting servers as tool errors; the restart
 * delay on the injected clock and timers; the environment a server gets; which agents get which
 * servers; and no process left behind by a stop, a restart or a daemon that died.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/runtime/mcp/index.js';
import { LIVE_FILE } from '../../src/runtime/mcp/live-servers.js';
import { alive, echoServerToml, mcpHarness, processesWith, toolContext, type McpHarness } from '../helpers/mcp.js';
import { until } from '../helpers/run-loop.js';

const open: McpHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0).reverse()) await h.close();
});

function harness(...args: Parameters<typeof mcpHarness>): McpHarness {
  const h = mcpHarness(...args);
  open.push(h);
  return h;
}

async function call(h: McpHarness, name: string, args: unknown = {}, ctx = toolContext()) {
  const tool = (await h.mcp.toolsFor(ctx.agentId)).find((t) => t.name === name);
  if (!tool) throw new Error(`${name} is not offered`);
  return tool.execute(ctx, args as Record<string, unknown>);
}

const pidOf = async (h: McpHarness) => Number((await call(h, 'srv__pid')).content);

describe('an MCP server over stdio', () => {
  it('is started by the first turn that needs it and offers its tools as NAME__tool with their schemas', async () => {
    const h = harness(echoServerToml('srv', 'tool_classes = { echo = "read" }'));
    expect(h.mcp.get('srv')).toMatchObject({ state: 'idle', pid: null, tools: [] });
    const tools = await h.mcp.toolsFor('main');
    expect(tools.map((t) => t.name)).toEqual(['srv__echo', 'srv__add', 'srv__slow', 'srv__crash', 'srv__fail', 'srv__env', 'srv__pid', 'srv__image', 'srv__spawn_child', 'srv__add_tool']);
    const echo = tools[0]!;
    expect(echo).toMatchObject({ description: 'Answers with the text it is given.', class: 'read' });
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo.parameters).not.toHaveProperty('$schema');
    expect(tools[1]!.class).toBe('exec');
    const view = h.mcp.get('srv');
    expect(view).toMatchObject({ state: 'ready', transport: 'stdio', restarts: 0, last_error: null, agents: ['*'] });
    expect(alive(view.pid!)).toBe(true);
    expect(view.tools[0]).toEqual({ name: 'echo', model_name: 'srv__echo', class: 'read', description: 'Answers with the text it is given.' });
    // A name outside ^[A-Za-z0-9_-]{1,64}$ is not offered, and the state says so.
    expect(view.warnings).toEqual([expect.stringContaining('"dotted.name" is not offered')]);
    expect(h.mcp.stateFor('main')).toEqual([{ name: 'srv', transport: 'stdio', state: 'ready', tool_count: 10 }]);
  });

  it("answers reach the model as text: joined text parts, other parts described, isError a tool error", async () => {
    const h = harness(echoServerToml());
    expect(await call(h, 'srv__echo', { text: 'héllo\nworld' })).toMatchObject({ ok: true, content: 'héllo\nworld' });
    expect(await call(h, 'srv__add', { a: 2, b: 40 })).toMatchObject({ ok: true, content: '42' });
    expect(await call(h, 'srv__image')).toMatchObject({ ok: true, content: '[image image/png, 16 bytes]' });
    const failed = await call(h, 'srv__fail');
    expect(failed.ok).toBe(false);
    expect(JSON.parse(failed.content)).toEqual({ ok: false, code: 'mcp_tool_error', error: 'srv__fail reported an error: it failed on purpose' });
    // The server validates the arguments: a wrong type is its error, not a crash.
    const wrong = await call(h, 'srv__add', { a: 'two', b: 1 });
    expect(wrong.ok).toBe(false);
    expect(JSON.parse(wrong.content).code).toMatch(/^mcp_(tool_)?error$/);
  });

  it('refuses arguments that are not an object without calling the server', async () => {
    const h = harness(echoServerToml());
    for (const bad of [['x'], null, 'text', 7]) {
      const out = await call(h, 'srv__echo', bad);
      expect(JSON.parse(out.content)).toMatchObject({ ok: false, code: 'invalid_arguments' });
    }
    // __proto__ is only a key: passed as data, nothing of ours changes.
    const out = await call(h, 'srv__echo', JSON.parse('{"text":"ok","__proto__":{"polluted":true}}'));
    expect(out.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a call slower than call_timeout_ms is mcp_timeout; the server goes on answering', async () => {
    const h = harness(echoServerToml('srv', 'call_timeout_ms = 300'));
    const out = await call(h, 'srv__slow', { ms: 5000 });
    expect(JSON.parse(out.content)).toMatchObject({ ok: false, code: 'mcp_timeout', timeout_ms: 300 });
    expect(h.mcp.get('srv').state).toBe('ready');
    expect((await call(h, 'srv__echo', { text: 'still here' })).content).toBe('still here');
  });

  it("a call ends as 'aborted' when the turn is aborted", async () => {
    const h = harness(echoServerToml());
    const ac = new AbortController();
    await h.mcp.toolsFor('main');
    const pending = call(h, 'srv__slow', { ms: 5000 }, toolContext({ signal: ac.signal }));
    await new Promise((r) => setImmediate(r)); // the call sent
    ac.abort();
    expect(JSON.parse((await pending).content)).toMatchObject({ ok: false, code: 'aborted' });
    const gone = await call(h, 'srv__echo', { text: 'x' }, toolContext({ signal: ac.signal }));
    expect(JSON.parse(gone.content).code).toBe('aborted');
  });

  it("an agent's deletion gives up its calls in flight; the server goes on for the others", async () => {
    const h = harness(echoServerToml(), { templates: { main: null, other: null } });
    await h.mcp.toolsFor('main');
    const pending = call(h, 'srv__slow', { ms: 5000 });
    const others = call(h, 'srv__slow', { ms: 300 }, toolContext({ agentId: 'other' }));
    await new Promise((r) => setImmediate(r)); // both calls sent
    h.mcp.stopAgent('main');
    expect(JSON.parse((await pending).content)).toMatchObject({ ok: false, code: 'aborted' });
    expect(await others).toMatchObject({ ok: true, content: 'slept 300 ms' });
    expect(h.mcp.get('srv').state).toBe('ready');
  });

  it('a server that dies mid-call is mcp_server_unavailable, restarts after 1 s, then 2 s, and answers again', async () => {
    const h = harness(echoServerToml());
    const first = await pidOf(h);
    const out = await call(h, 'srv__crash');
    expect(JSON.parse(out.content)).toMatchObject({ ok: false, code: 'mcp_server_unavailable', server: 'srv' });
    expect(JSON.parse(out.content).error).toMatch(/exit code 3.*crashing on purpose.*restarts in 1 s/);
    const view = h.mcp.get('srv');
    expect(view).toMatchObject({ state: 'backoff', last_error: expect.stringContaining('exit code 3'), retry_at: new Date(h.clock.now() + 1000).toISOString() });
    // Restarting, it still offers its tools; a call meanwhile is told when it comes back.
    expect(await h.mcp.toolsFor('main')).toHaveLength(10);
    expect(JSON.parse((await call(h, 'srv__echo', { text: 'x' })).content).code).toBe('mcp_server_unavailable');
    await until(() => !alive(first), 'the old server gone');
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.timers[0]!.fn();
    await until(() => h.mcp.get('srv').state === 'ready', 'restarted', 15_000);
    expect(h.mcp.get('srv').restarts).toBe(1);
    expect((await call(h, 'srv__echo', { text: 'back' })).content).toBe('back');
    expect(await pidOf(h)).not.toBe(first);
    // Crashing again soon after: the delay doubles.
    await call(h, 'srv__crash');
    expect(h.timers.map((t) => t.ms)).toEqual([1000, 2000]);
  });

  it('the delay doubles from 1 s to at most 60 s, and starts over after a minute up', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });

  it('a server that stayed up a minute restarts after 1 s again', async () => {
    const h = harness(echoServerToml());
    await call(h, 'srv__crash');
    h.timers[0]!.fn();
    await until(() => h.mcp.get('srv').state === 'ready', 'restarted', 15_000);
    h.clock.advance(60_000);
    await call(h, 'srv__crash');
    expect(h.timers.map((t) => t.ms)).toEqual([1000, 1000]);
  });

  it('a command that cannot start is failed with the reason, offers nothing, and is retried at a use after the delay', async () => {
    const h = harness('[mcp.servers.gone]\ncommand = "/nonexistent/mcp-server"\n');
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    const view = h.mcp.get('gone');
    expect(view).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/could not start: .*ENOENT/), retry_at: new Date(h.clock.now() + 1000).toISOString() });
    expect(h.mcp.stateFor('main')).toEqual([{ name: 'gone', transport: 'stdio', state: 'failed', tool_count: 0 }]);
    await h.mcp.toolsFor('main');
    expect(h.mcp.get('gone').restarts).toBe(0); // not before its time
    h.clock.advance(1000);
    await h.mcp.toolsFor('main');
    expect(h.mcp.get('gone')).toMatchObject({ state: 'failed', restarts: 1, retry_at: new Date(h.clock.now() + 2000).toISOString() });
  });

  it('a server that never answers is failed after startup_timeout_ms, and its process is ended', async () => {
    const h = harness('[mcp.servers.mute]\ncommand = "sleep"\nargs = ["31.4159"]\nstartup_timeout_ms = 300\n');
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    expect(h.mcp.get('mute')).toMatchObject({ state: 'failed', last_error: expect.stringContaining('no answer within 300 ms (startup_timeout_ms)') });
    expect(processesWith('31.4159')).toEqual([]);
  });

  it('a server that writes a line longer than 16 MiB is ended, not buffered', async () => {
    const flood = "process.stdout.write('x'.repeat(17 * 1024 * 1024)); setInterval(() => {}, 1000)";
    const h = harness(`[mcp.servers.flood]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", ${JSON.stringify(flood)}, "flood-31.4159"]\nstartup_timeout_ms = 10000\n`);
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    expect(h.mcp.get('flood')).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/could not start: .*it sent a message over 16777216 bytes/) });
    expect(processesWith('flood-31.4159')).toEqual([]);
  });

  it('lines on stdout that are no message are skipped', async () => {
    const h = harness(echoServerToml('srv', 'env = { MCP_FIXTURE_NOISE = "1" }'));
    expect((await call(h, 'srv__echo', { text: 'through the noise' })).content).toBe('through the noise');
    expect(h.logs()).toContain('MCP transport error');
  });

  it('a new tool announced with tools/list_changed is offered from the next turn', async () => {
    const h = harness(echoServerToml());
    expect((await call(h, 'srv__add_tool', { name: 'late' })).content).toBe('added late');
    await until(() => h.mcp.get('srv').tools.some((t) => t.name === 'late'), 'the new listing');
    expect((await call(h, 'srv__late')).content).toBe('late here');
  });

  it('gets the allowlisted environment, its env and env_credentials: never the daemon secrets', async () => {
    const env = { PATH: process.env.PATH, HOME: '/home/someone', SVC_TOKEN: 'control-token', OPENAI_API_KEY: 'sk-daemon', LOCAL_KEY: 'provider-key', AWS_SECRET_ACCESS_KEY: 'aws' };
    const toml = `[providers.local]\nkind = "openai"\nbase_url = "http://127.0.0.1:1/v1"\napi_key_env = "LOCAL_KEY"\n\n${echoServerToml('srv', 'env = { GREETING = "hello" }\nenv_credentials = { GITHUB_TOKEN = "gh" }')}`;
    const h = harness(toml, { env });
    h.credentials.put('gh', 'api_key', 'ghp_from_profile');
    const read = async (name: string) => (await call(h, 'srv__env', { name })).content;
    expect(await read('GREETING')).toBe('hello');
    expect(await read('GITHUB_TOKEN')).toBe('ghp_from_profile');
    expect(await read('HOME')).toBe('/home/someone');
    for (const name of ['SVC_TOKEN', 'OPENAI_API_KEY', 'LOCAL_KEY', 'AWS_SECRET_ACCESS_KEY']) expect(await read(name)).toBe('(unset)');
    expect(JSON.stringify(h.mcp.list())).not.toContain('ghp_from_profile');
    expect(h.logs()).not.toContain('ghp_from_profile');
  });

  it('an env_credentials profile that is not stored fails the start naming the key and the profile', async () => {
    const h = harness(echoServerToml('srv', 'env_credentials = { GITHUB_TOKEN = "gh" }'));
    expect(await h.mcp.toolsFor('main')).toEqual([]);
    expect(h.mcp.get('srv').last_error).toContain('env_credentials.GITHUB_TOKEN: credential profile "gh" is not stored');
  });
});

describe('which agents get a server', () => {
  const toml = [
    echoServerToml('everyone'),
    echoServerToml('picked', 'agents = ["main", "helper"]'),
    echoServerToml('coders', 'templates = ["coder"]'),
    echoServerToml('off', 'enabled = false'),
  ].join('\n');

  it('by id or "*", by template, never a disabled one; an agent without the server never starts it', async () => {
    const h = harness(toml, { templates: { main: null, helper: 'coder', other: null } });
    const servers = async (agent: string) => [...new Set((await h.mcp.toolsFor(agent)).map((t) => t.name.split('__')[0]))];
    expect(await servers('other')).toEqual(['everyone']);
    expect(h.mcp.get('picked').state).toBe('idle');
    expect(h.mcp.get('coders').state).toBe('idle');
    expect(await servers('helper')).toEqual(['everyone', 'picked', 'coders']);
    expect(await servers('main')).toEqual(['everyone', 'picked']);
    expect(await servers('nobody')).toEqual([]);
    expect(h.mcp.get('off')).toMatchObject({ state: 'stopped', enabled: false });
    expect(h.mcp.stateFor('other').map((s) => s.name)).toEqual(['everyone']);
    await expect(h.mcp.restart('off')).rejects.toMatchObject({ status: 409, code: 'mcp_server_disabled' });
    await expect(h.mcp.restart('nope')).rejects.toMatchObject({ status: 404, code: 'mcp_server_not_found' });
  });
});

describe('no server process outlives its use', () => {
  it('restart ends the old process group and starts a new one', async () => {
    const h = harness(echoServerToml());
    const first = await pidOf(h);
    const view = await h.mcp.restart('srv');
    expect(view).toMatchObject({ state: 'ready', restarts: 1 });
    expect(view.pid).not.toBe(first);
    expect(alive(first)).toBe(false);
  });

  it('stop ends the server and a child of it that left its process group; the record of live servers is emptied', async () => {
    const h = harness(echoServerToml());
    const server = await pidOf(h);
    const child = Number((await call(h, 'srv__spawn_child')).content);
    expect(alive(child)).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(h.home, LIVE_FILE), 'utf8')).servers).toEqual([expect.objectContaining({ server: 'srv', pid: server })]);
    await h.mcp.stop();
    expect(alive(server)).toBe(false);
    await until(() => !alive(child), 'the escaped child ended');
    expect(fs.existsSync(path.join(h.home, LIVE_FILE))).toBe(false);
    expect(h.mcp.get('srv').state).toBe('stopped');
  });

  it('what a daemon that died left running is ended at the next start, before any server starts', async () => {
    const dead = harness(echoServerToml());
    const server = await pidOf(dead);
    const child = Number((await call(dead, 'srv__spawn_child')).content);
    // The next daemon on the same home, while the first one's processes still run.
    const next = harness(echoServerToml(), { home: dead.home });
    const fresh = await pidOf(next);
    expect(alive(server)).toBe(false);
    expect(alive(child)).toBe(false);
    expect(alive(fresh)).toBe(true);
  });
});
