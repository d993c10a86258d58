/**
 * `[mcp.servers.NAME]` (src/config/mcp.ts): a server is stdio or HTTP, never both or neither;
 * names fit the tool names they prefix; stdio-only and HTTP-only keys stay with their transport;
 * the assignment defaults. A bad file stops `svc serve` naming the key; a bad PATCH is refused per key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { McpConfigSchema } from '../../src/config/mcp.js';
import { credentialReferences, RuntimeConfig } from '../../src/config/runtime-config.js';
import { runSvc } from '../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});
function home(toml: string): string {
  const h = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-config-'));
  homes.push(h);
  fs.writeFileSync(path.join(h, 'config.toml'), toml);
  return h;
}
const load = (toml: string) => loadConfig({ home: home(toml) }, {});

describe('[mcp.servers.NAME]', () => {
  it('takes the defaults of a stdio and an HTTP server', () => {
    const c = load('[mcp.servers.fs]\ncommand = "npx"\n\n[mcp.servers.web]\nurl = "https://mcp.example/mcp"\ncredential_profile = "web"\n');
    expect(c.values.mcp.servers.fs).toEqual({
      command: 'npx',
      args: [],
      cwd: '',
      env: {},
      env_credentials: {},
      url: '',
      credential_profile: '',
      credential_header: 'authorization',
      agents: ['*'],
      templates: [],
      class: 'exec',
      tool_classes: {},
      enabled: true,
      startup_timeout_ms: 30000,
      call_timeout_ms: 60000,
    });
    expect(c.values.mcp.servers.web).toMatchObject({ url: 'https://mcp.example/mcp', credential_profile: 'web', agents: ['*'] });
    expect(load('').values.mcp).toEqual({ servers: {} });
  });

  it('with only templates set, only those templates get it', () => {
    expect(load('[mcp.servers.s]\ncommand = "x"\ntemplates = ["coder"]\n').values.mcp.servers.s).toMatchObject({ agents: [], templates: ['coder'] });
    expect(load('[mcp.servers.s]\ncommand = "x"\ntemplates = ["coder"]\nagents = ["main"]\n').values.mcp.servers.s).toMatchObject({ agents: ['main'] });
  });

  it.each([
    ['both command and url', '[mcp.servers.s]\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"\n', /mcp\.servers\.s\.url: command and url cannot both be set/],
    ['neither', '[mcp.servers.s]\nargs = ["a"]\n', /mcp\.servers\.s\.command: a server needs command \(stdio\) or url/],
    ['a dot in the name', '[mcp.servers."a.b"]\ncommand = "x"\n', /mcp\.servers.*a server name/],
    ['"__" in the name', '[mcp.servers.a__b]\ncommand = "x"\n', /must not contain "__"/],
    ['a name over 32', `[mcp.servers.${'n'.repeat(33)}]\ncommand = "x"\n`, /a server name/],
    ['cwd with url', '[mcp.servers.s]\nurl = "http://127.0.0.1:1/mcp"\ncwd = "/tmp"\n', /mcp\.servers\.s\.cwd: only for a stdio server/],
    ['env with url', '[mcp.servers.s]\nurl = "http://127.0.0.1:1/mcp"\nenv = { A = "b" }\n', /mcp\.servers\.s\.env: only for a stdio server/],
    ['credential_profile with command', '[mcp.servers.s]\ncommand = "x"\ncredential_profile = "p"\n', /mcp\.servers\.s\.credential_profile: only for a streamable-HTTP server/],
    ['a header without a profile', '[mcp.servers.s]\nurl = "http://127.0.0.1:1/mcp"\ncredential_header = "X-Key"\n', /mcp\.servers\.s\.credential_header: needs credential_profile/],
    ['a relative cwd', '[mcp.servers.s]\ncommand = "x"\ncwd = "here"\n', /mcp\.servers\.s\.cwd: must be an absolute path/],
    ['a url that is not http', '[mcp.servers.s]\nurl = "file:///etc/passwd"\n', /mcp\.servers\.s\.url/],
    ['an unknown class', '[mcp.servers.s]\ncommand = "x"\nclass = "root"\n', /mcp\.servers\.s\.class/],
    ['a bad variable name', '[mcp.servers.s]\ncommand = "x"\nenv = { "A-B" = "c" }\n', /mcp\.servers\.s\.env/],
    ['an unknown key', '[mcp.servers.s]\ncommand = "x"\nheaders = { authorization = "Bearer x" }\n', /mcp\.servers\.s.*headers/],
    ['a bad agent id', '[mcp.servers.s]\ncommand = "x"\nagents = ["../x"]\n', /mcp\.servers\.s\.agents/],
  ])('refuses %s, naming the key', (_what, toml, message) => {
    expect(() => load(toml)).toThrow(message);
  });

  it('svc serve refuses to start on a bad server, naming the key', async () => {
    const h = home('[mcp.servers.s]\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"\n');
    const res = await runSvc(['serve', '--home', h, '--listen', '127.0.0.1:0']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/mcp\.servers\.s\.url: command and url cannot both be set/);
  });

  it('PATCH refuses an invalid server with the reason, and writes a valid one for the next start', () => {
    const h = home('');
    const rc = new RuntimeConfig(loadConfig({ home: h }, {}));
    const bad = rc.patch([{ key: 'mcp.servers.s', value: { command: 'x', url: 'http://127.0.0.1:1/mcp' } }]);
    expect(bad.results[0]).toMatchObject({ effect: 'rejected', reason: expect.stringContaining('mcp.servers.s.url') });
    const good = rc.patch([{ key: 'mcp.servers.s', value: { command: 'node', args: ['server.js'] } }]);
    expect(good.results[0]).toMatchObject({ effect: 'accepted_requires_restart' });
    expect(loadConfig({ home: h }, {}).values.mcp.servers.s).toMatchObject({ command: 'node', args: ['server.js'] });
  });

  it('the credential profiles a server names are listed as used by their keys', () => {
    const values = load('[mcp.servers.web]\nurl = "http://127.0.0.1:1/mcp"\ncredential_profile = "web"\n\n[mcp.servers.gh]\ncommand = "x"\nenv_credentials = { GITHUB_TOKEN = "gh" }\n').values;
    expect(Object.fromEntries(credentialReferences(values))).toEqual({ web: ['mcp.servers.web.credential_profile'], gh: ['mcp.servers.gh.env_credentials.GITHUB_TOKEN'] });
  });

  it('the schema alone accepts no server', () => {
    expect(McpConfigSchema.parse({})).toEqual({ servers: {} });
  });
});
