/**
 * A web page on another origin cannot drive the daemon (docs/security.md#browsers), another
 * port of this host included: what a page's `fetch(url, {method: 'POST', mode: 'no-cors'})` sends
 * (an Origin, no body, no preflight) is refused 403 cross_origin_rejected before anything runs,
 * against real daemons in local mode and in bearer mode, on the control plane and the inbox's
 * loopback port. A page's image, script or frame (a GET without an Origin, marked by the browser's
 * Sec-Fetch-Site) is refused too, a top-level navigation is not. The daemon's own origin (the
 * console), a listed origin and requests without an Origin (the CLI, scripts) are served as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

const TOKEN = 'origins-test-token-3c9e1f';
const LISTED = 'http://localhost:5173';
const FOREIGN = ['http://localhost:3000', 'http://127.0.0.1:8080', 'null', 'https://evil.example', 'file://'];

const pool = daemonPool();
afterAll(() => pool.cleanup());

const rejected = (r: HttpResult) => ({ status: r.status, code: r.json?.code });
const REJECTED = { status: 403, code: 'cross_origin_rejected' };

describe.each([
  ['local mode', {} as Record<string, string>],
  ['bearer mode', { authorization: `Bearer ${TOKEN}` }],
])('in %s', (mode, credential) => {
  let d: RunningDaemon;
  let inbox: { base: string };
  const own = () => d.base;

  /** A page's bodyless POST: the Origin, plus the credential a console session would carry. */
  const post = (path: string, origin?: string) => request(d, 'POST', path, { headers: { ...credential, ...(origin ? { origin } : {}) } });
  const agentExists = async (id: string) => (await request(d, 'GET', `/api/agents/${id}/status`, { headers: credential })).status === 200;

  async function runningTask(): Promise<string> {
    const res = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { cmd: 'sleep 30', summary: 'origins' }, headers: credential });
    expect(res.status, res.text).toBe(201);
    return res.json.task_id as string;
  }
  const taskStatus = async (id: string) => (await request(d, 'GET', `/api/agents/main/tasks/${id}`, { headers: credential })).json.status as string;

  beforeAll(async () => {
    const port = await freePort();
    d = await pool.start({
      args: ['--port', String(port)],
      env: mode === 'bearer mode' ? { SVC_TOKEN: TOKEN } : {},
      configToml: `[auth]\nallowed_origins = ["${LISTED}"]\n`,
    });
    inbox = { base: `http://127.0.0.1:${port}` };
  }, 30_000);

  it('a page on another origin cannot create an agent; the own origin, a listed one and no Origin can', async () => {
    for (const origin of FOREIGN) {
      expect(rejected(await post(`/api/control/agents/evil/create`, origin)), origin).toEqual(REJECTED);
    }
    expect(await agentExists('evil')).toBe(false);
    for (const [id, origin] of [['by-console', own()], ['by-listed', LISTED], ['by-cli', undefined]] as const) {
      const res = await post(`/api/control/agents/${id}/create`, origin);
      expect(res.status, `${origin}: ${res.text}`).toBe(201);
      expect(await agentExists(id)).toBe(true);
    }
  });

  it('a page on another origin cannot stop a task; the own origin, a listed one and no Origin can', async () => {
    const task = await runningTask();
    expect(rejected(await post(`/api/control/agents/main/tasks/${task}/stop`, 'http://localhost:3000'))).toEqual(REJECTED);
    expect(await taskStatus(task)).toBe('running');
    for (const origin of [own(), LISTED, undefined]) {
      const id = await runningTask();
      const res = await post(`/api/control/agents/main/tasks/${id}/stop`, origin);
      expect(res.status, `${origin}: ${res.text}`).toBe(200);
    }
    expect((await post(`/api/control/agents/main/tasks/${task}/stop`)).status).toBe(200);
  });

  it('reads, open routes and unknown routes refuse another origin too; the daemon\'s own and listed origins are served', async () => {
    for (const path of ['/api/handshake', '/api/agents/list', '/api/openapi.json', '/api/nope', '/']) {
      expect(rejected(await request(d, 'GET', path, { headers: { origin: 'http://localhost:3000' } })), path).toEqual(REJECTED);
    }
    // localhost and 127.0.0.1 name the same host, but they are different origins.
    const other = `http://localhost:${new URL(d.base).port}`;
    expect(rejected(await request(d, 'GET', '/api/handshake', { headers: { origin: other } }))).toEqual(REJECTED);
    for (const origin of [own(), LISTED]) expect((await request(d, 'GET', '/api/handshake', { headers: { origin } })).status, origin).toBe(200);
  });

  it('the inbox loopback port follows the same rule', async () => {
    const agents = async () => JSON.stringify((await request({ socketPath: d.socket }, 'GET', '/agents')).json);
    const before = await agents();
    // A bodyless POST creates an inbox agent with a generated id.
    expect(rejected(await request(inbox, 'POST', '/agents', { headers: { ...credential, origin: 'http://localhost:3000' } }))).toEqual(REJECTED);
    expect(rejected(await request(inbox, 'GET', '/healthz', { headers: { origin: 'null' } }))).toEqual(REJECTED);
    expect(await agents()).toBe(before);
    for (const origin of [inbox.base, LISTED]) {
      expect((await request(inbox, 'POST', '/agents', { headers: { ...credential, origin } })).status, origin).toBe(201);
    }
  });

  it("a page of another site cannot read an inbox by an image or a frame (no Origin, its Sec-Fetch-Site), which would open it; a top-level navigation, the own pages and the CLI can", async () => {
    const inboxes = async () => ((await request({ socketPath: d.socket }, 'GET', '/status')).json.inboxes as Array<{ ownerAgentId: string }>).map((i) => i.ownerAgentId);
    const fetched = (site: string, mode: string, dest: string) => ({ ...credential, 'sec-fetch-site': site, 'sec-fetch-mode': mode, 'sec-fetch-dest': dest });
    for (const headers of [fetched('cross-site', 'no-cors', 'image'), fetched('same-site', 'navigate', 'iframe'), fetched('cross-site', 'no-cors', 'script')]) {
      expect(rejected(await request(d, 'GET', '/api/inbox/agents/by-page/inbox/items', { headers })), JSON.stringify(headers)).toEqual(REJECTED);
      expect(rejected(await request(inbox, 'GET', '/agents/by-page/inbox/items', { headers })), JSON.stringify(headers)).toEqual(REJECTED);
    }
    expect(rejected(await request(d, 'POST', '/api/control/agents/by-form/create', { headers: fetched('cross-site', 'navigate', 'document') }))).toEqual(REJECTED);
    expect(await agentExists('by-form')).toBe(false);
    expect(await inboxes()).not.toContain('by-page');
    const served = [fetched('same-origin', 'cors', 'empty'), fetched('none', 'navigate', 'document'), fetched('cross-site', 'navigate', 'document'), credential];
    for (const [i, headers] of served.entries()) {
      const res = await request(d, 'GET', `/api/inbox/agents/by-reader-${i}/inbox/items`, { headers });
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(200);
    }
    expect(await inboxes()).toEqual(expect.arrayContaining(served.map((_, i) => `by-reader-${i}`)));
  });

  it('a page on another origin cannot shut the daemon down; the console can', async () => {
    for (const origin of FOREIGN) expect(rejected(await post('/api/control/runtime/shutdown', origin)), origin).toEqual(REJECTED);
    expect((await request(d, 'GET', '/api/handshake')).status).toBe(200);
    expect(d.proc.exitCode).toBeNull();
    expect((await post('/api/control/runtime/shutdown', own())).status).toBe(202);
    await waitFor(() => d.proc.exitCode !== null, 10_000);
  });
});
