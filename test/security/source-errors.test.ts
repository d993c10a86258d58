/**
 * A source's failure is shown in three places: the 502 source_poll_failed of POST …/poll, the
 * source's `error`, and `sourceErrors` of GET /status. Each holds a one-line message: never a
 * stack frame, never a path into svc's install directory (a GitHub poll failure used to carry
 * `at GithubApi.get (file:///…/dist/inbox/sources/providers/github-api.js:126:19)`). Against the
 * real daemon, a fake GitHub answering 500, a port nothing listens on, and user modules that throw.
 * Needs `npm run build` first.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, ROOT, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeGithub, type FakeGithub } from '../helpers/fake-github.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let d: RunningDaemon;
let gh: FakeGithub;

beforeAll(async () => {
  gh = await startFakeGithub();
  gh.repo('octo/hello');
  d = await pool.start();
}, 30_000);
afterAll(async () => {
  pool.cleanup();
  await gh?.close();
});

const sock = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });

/** A loopback port with nothing listening on it (taken, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let seq = 0;
async function githubSource(apiBaseUrl: string): Promise<string> {
  const host = await sock('POST', '/hosts', { hostType: 'github', hostKey: `gh${++seq}`, config: { apiBaseUrl } });
  const source = await sock('POST', '/sources', { hostId: host.json.hostId, streamKind: 'repo_events', streamKey: 'octo/hello' });
  expect(source.status, source.text).toBe(201);
  return source.json.sourceId;
}
async function moduleSource(name: string, text: string): Promise<string> {
  fs.writeFileSync(path.join(d.home, 'source-modules', name), text);
  const host = await sock('POST', '/hosts', { hostType: 'remote_source', hostKey: `m${++seq}` });
  const source = await sock('POST', '/sources', { hostId: host.json.hostId, streamKind: 'poll', streamKey: name, config: { modulePath: name } });
  expect(source.status, source.text).toBe(201);
  return source.json.sourceId;
}

/** The three places a failed poll shows its message; each must be one safe line. */
async function failureTexts(sourceId: string): Promise<string[]> {
  const polled = await sock('POST', `/sources/${sourceId}/poll`);
  expect([polled.status, polled.json.code], polled.text).toEqual([502, 'source_poll_failed']);
  const source = (await sock('GET', `/sources/${sourceId}`)).json.source;
  expect(source.state).toBe('error');
  const status: Json = (await sock('GET', '/status')).json;
  const listed = status.counts.sourceErrors.find((e: Json) => e.sourceId === sourceId);
  expect(listed).toBeDefined();
  return [polled.json.error as string, source.error as string, listed.error as string];
}
function expectSafe(texts: string[]) {
  for (const text of texts) {
    expect(text).not.toContain(ROOT);
    expect(text).not.toContain('file://');
    expect(text).not.toMatch(/\n|\s{2,}at\s|\bat \S+ \(|node:internal/);
  }
}

describe('a failing GitHub poll', () => {
  it('GitHub answering 500: the message says so, without frames or install paths', async () => {
    gh.script.push({ status: 500, body: { message: 'Server Error' } });
    const texts = await failureTexts(await githubSource(gh.url));
    expectSafe(texts);
    expect(texts[1]).toMatch(/GitHub answered 500 for GET \/repos\/octo\/hello\/issues.*Server Error/);
  });

  it('a connection refused: the same', async () => {
    const texts = await failureTexts(await githubSource(`http://127.0.0.1:${await closedPort()}`));
    expectSafe(texts);
    expect(texts[1]).toContain('cannot reach http://127.0.0.1:');
  });
});

describe('a user module that throws', () => {
  it('an Error: its class and message, not its stack', async () => {
    const texts = await failureTexts(await moduleSource('throws.mjs', "export default { poll: async () => { throw new TypeError('upstream said no'); } };\n"));
    expectSafe(texts);
    expect(texts[1]).toBe('poll: TypeError: upstream said no');
    for (const text of texts) expect(text).not.toContain(d.home);
  });

  it('a message that carries a stack, or a thrown non-Error: frames dropped, one line', async () => {
    const stacked = await failureTexts(await moduleSource('stacked.mjs', "export default { poll: async () => { throw new Error('first line\\nsecond line\\n' + new Error('inner').stack); } };\n"));
    expectSafe(stacked);
    for (const text of stacked) expect(text).not.toContain(d.home);
    expect(stacked[1]).toBe('poll: Error: first line second line Error: inner');
    const plain = await failureTexts(await moduleSource('plain.mjs', "export default { poll: async () => { throw { toString: () => 'an object\\n    at x (/tmp/y.js:1:1)' }; } };\n"));
    expectSafe(plain);
    expect(plain[1]).toBe('poll: an object');
  });
});
