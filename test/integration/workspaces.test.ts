/**
 * Workspaces, worktree summary, file references and desktop routes against the real daemon:
 * attach/exit/detach with their state rows, events and errors; the state page's workspaces
 * section; worktree-summary on a real git repository with a linked worktree; file-reference
 * resolution over HTTP (symlink and `..` escapes, the 64 limit); desktop denial on Linux.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

let d: RunningDaemon;
let tmp: string;

beforeAll(async () => {
  d = await startDaemon();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wsi-')));
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

function mkdir(...parts: string[]): string {
  const p = path.join(tmp, ...parts);
  fs.mkdirSync(p, { recursive: true });
  return p;
}

const ws = (agent: string, op: 'attach' | 'exit' | 'detach', body?: unknown) =>
  request(d, 'POST', `/api/control/agents/${agent}/workspace/${op}`, body === undefined ? {} : { body });
const state = async (agent: string) => {
  const res = await request(d, 'GET', `/api/agents/${agent}/state`);
  expect(res.status, res.text).toBe(200);
  return res.json.workspaces as { registry: Array<{ workspace_id: string; active: boolean; path: string; root: string; kind: string }> };
};
const resolve = (body: unknown) => request(d, 'POST', '/api/file-references/resolve', { body });
async function eventTypes(agent: string): Promise<string[]> {
  const res = await request(d, 'GET', `/api/agents/${agent}/events?order=asc&limit=1000`);
  expect(res.status, res.text).toBe(200);
  return res.json.events.map((e: { type: string }) => e.type);
}

describe('attach, exit, detach', () => {
  it('attach registers the directory as the active workspace; the state page shows it', async () => {
    const created = await request(d, 'POST', '/api/control/agents/w1/create', { body: {} });
    expect(created.status, created.text).toBe(201);
    const proj = mkdir('w1-proj');
    const res = await ws('w1', 'attach', { path: proj, authority_class: 'operator_instruction' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      ok: true,
      agent_id: 'w1',
      created: true,
      workspace: { path: proj, root: proj, kind: 'directory', active: true, root_kind: 'workspace' },
    });
    const id = res.json.workspace.workspace_id as string;
    expect(id).toMatch(/^ws_/);
    expect(res.json.active_workspace_id).toBe(id);
    expect(typeof res.json.workspace.attached_at).toBe('string');

    const st = await state('w1');
    expect(st.registry.map((e) => [e.workspace_id, e.active])).toEqual([
      ['agent_home', false],
      [id, true],
    ]);
    expect(st.registry[1]).toMatchObject({ path: proj, root: proj, kind: 'directory' });

    const again = await ws('w1', 'attach', { path: proj + '/' });
    expect(again.json).toMatchObject({ created: false, workspace: { workspace_id: id } });
    expect((await eventTypes('w1')).filter((t) => t.startsWith('workspace_'))).toEqual(['workspace_attached']);
  });

  it('exit returns to agent_home (body optional); detach removes the registration', async () => {
    await request(d, 'POST', '/api/control/agents/w2/create', { body: {} });
    const id = (await ws('w2', 'attach', { path: mkdir('w2-proj') })).json.workspace.workspace_id;

    expectError(await ws('w2', 'detach', { workspace_id: id }), 409, 'workspace_active');

    const exit = await request(d, 'POST', '/api/control/agents/w2/workspace/exit');
    expect(exit.status, exit.text).toBe(200);
    expect(exit.json).toEqual({ ok: true, agent_id: 'w2', changed: true, previous_workspace_id: id, active_workspace_id: 'agent_home' });
    let st = await state('w2');
    expect(st.registry.map((e) => [e.workspace_id, e.active])).toEqual([
      ['agent_home', true],
      [id, false],
    ]);
    const again = await ws('w2', 'exit', { authority_class: 'operator_instruction' });
    expect(again.json).toMatchObject({ changed: false, active_workspace_id: 'agent_home' });

    const det = await ws('w2', 'detach', { workspace_id: id });
    expect(det.status, det.text).toBe(200);
    expect(det.json).toEqual({ ok: true, agent_id: 'w2', workspace_id: id, detached: true, active_workspace_id: 'agent_home' });
    st = await state('w2');
    expect(st.registry.map((e) => e.workspace_id)).toEqual(['agent_home']);
    expect((await eventTypes('w2')).filter((t) => t.startsWith('workspace_'))).toEqual(['workspace_attached', 'workspace_exited', 'workspace_detached']);
  });

  it('answers errors with specific codes and changes nothing', async () => {
    const file = path.join(tmp, 'plain.txt');
    fs.writeFileSync(file, 'x');
    const before = await eventTypes('main');
    expectError(await ws('main', 'attach', { path: 'relative/dir' }), 400, 'invalid_workspace_path');
    expectError(await ws('main', 'attach', { path: path.join(tmp, 'nope') }), 400, 'invalid_workspace_path');
    const notDir = await ws('main', 'attach', { path: file });
    expectError(notDir, 400, 'invalid_workspace_path');
    expect(notDir.json.reason).toBe('not_directory');
    expectError(await ws('main', 'attach', {}), 400, 'invalid_request');
    expectError(await ws('main', 'attach', { path: 42 }), 400, 'invalid_request');
    expectError(await ws('main', 'detach', {}), 400, 'invalid_request');
    expectError(await ws('main', 'detach', { workspace_id: 'ws_01NOPE' }), 404, 'workspace_not_found');
    expectError(await ws('main', 'detach', { workspace_id: 'agent_home' }), 409, 'agent_home_protected');
    expectError(await ws('ghost', 'attach', { path: tmp }), 404, 'agent_not_found');
    expectError(await ws('ghost', 'exit', {}), 404, 'agent_not_found');
    expectError(await ws('ghost', 'detach', { workspace_id: 'x' }), 404, 'agent_not_found');
    expect(await eventTypes('main')).toEqual(before);
    expect((await state('main')).registry.map((e) => e.workspace_id)).toEqual(['agent_home']);
  });
});

describe('worktree summary', () => {
  it('lists the worktrees of a git workspace, and none for a plain directory', async () => {
    const repo = mkdir('repo');
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: tmp };
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' }).toString().trim();
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'README.md'), 'hi\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'first');
    const head = git('rev-parse', 'HEAD');
    const feature = path.join(tmp, 'repo-feature');
    const detached = path.join(tmp, 'repo-detached');
    git('worktree', 'add', '-q', '-b', 'feature', feature);
    git('worktree', 'add', '-q', '--detach', detached, 'HEAD');
    git('worktree', 'lock', '--reason', 'keep', detached);

    await request(d, 'POST', '/api/control/agents/g1/create', { body: {} });
    const plain = await request(d, 'GET', '/api/agents/g1/worktree-summary');
    expect(plain.status, plain.text).toBe(200);
    expect(plain.json).toMatchObject({ ok: true, workspace_id: 'agent_home', is_git: false, worktrees: [] });

    const att = await ws('g1', 'attach', { path: repo });
    expect(att.json.workspace.kind).toBe('git');
    const res = await request(d, 'GET', '/api/agents/g1/worktree-summary');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ ok: true, agent_id: 'g1', workspace_id: att.json.workspace.workspace_id, is_git: true, error: null });
    // git orders linked worktrees itself; the main one always comes first.
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(res.json.worktrees[0].is_main).toBe(true);
    expect([...res.json.worktrees].sort(byPath)).toEqual([
      { path: repo, head, branch: 'main', bare: false, detached: false, locked: false, locked_reason: null, prunable: false, prunable_reason: null, is_main: true },
      { path: feature, head, branch: 'feature', bare: false, detached: false, locked: false, locked_reason: null, prunable: false, prunable_reason: null, is_main: false },
      { path: detached, head, branch: null, bare: false, detached: true, locked: true, locked_reason: 'keep', prunable: false, prunable_reason: null, is_main: false },
    ].sort(byPath));

    const home = await request(d, 'GET', '/api/agents/g1/worktree-summary?workspace_id=agent_home');
    expect(home.json).toMatchObject({ workspace_id: 'agent_home', is_git: false });
    expectError(await request(d, 'GET', '/api/agents/g1/worktree-summary?workspace_id=ws_NOPE'), 404, 'workspace_not_found');
    expectError(await request(d, 'GET', '/api/agents/ghost/worktree-summary'), 404, 'agent_not_found');
  });
});

describe('file references', () => {
  let proj: string;
  let id: string;
  beforeAll(async () => {
    await request(d, 'POST', '/api/control/agents/f1/create', { body: {} });
    proj = mkdir('f1-proj');
    mkdir('f1-proj', 'src');
    fs.writeFileSync(path.join(proj, 'src', 'a.ts'), 'a');
    fs.writeFileSync(path.join(tmp, 'f1-secret.txt'), 's');
    fs.symlinkSync(path.join(tmp, 'f1-secret.txt'), path.join(proj, 'escape'));
    fs.symlinkSync('/etc', path.join(proj, 'etc-link'));
    id = (await ws('f1', 'attach', { path: proj })).json.workspace.workspace_id;
  });

  it('resolves every reference type in order', async () => {
    const res = await resolve({
      agent_id: 'f1',
      references: [
        { type: 'workspace_uri', workspace_uri: `workspace://${id}/src/a.ts` },
        { type: 'absolute_path', absolute_path: path.join(proj, 'src') },
        { type: 'relative_path', relative_path: 'a.ts', base_path: path.join(proj, 'src', 'a.ts') },
        { type: 'relative_path', relative_path: 'src/a.ts', workspace_id: id },
        { type: 'workspace_uri', workspace_uri: 'workspace://agent_home' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.agent_id).toBe('f1');
    expect(res.json.results[0]).toEqual({
      status: 'resolved',
      location: { workspace_id: id, execution_root_id: id, path: 'src/a.ts', absolute_path: path.join(proj, 'src', 'a.ts'), kind: 'file', root_kind: 'workspace' },
    });
    expect(res.json.results[1]).toMatchObject({ status: 'resolved', location: { path: 'src', kind: 'directory' } });
    expect(res.json.results[2]).toMatchObject({ status: 'resolved', location: { path: 'src/a.ts' } });
    expect(res.json.results[3]).toMatchObject({ status: 'resolved', location: { path: 'src/a.ts' } });
    expect(res.json.results[4]).toMatchObject({ status: 'resolved', location: { workspace_id: 'agent_home', root_kind: 'agent_home', path: '.' } });
  });

  it('never resolves outside a registered root', async () => {
    const res = await resolve({
      agent_id: 'f1',
      references: [
        { type: 'workspace_uri', workspace_uri: `workspace://${id}/../../etc/passwd` },
        { type: 'workspace_uri', workspace_uri: `workspace://${id}/escape` },
        { type: 'workspace_uri', workspace_uri: `workspace://${id}/etc-link/passwd` },
        { type: 'absolute_path', absolute_path: '/etc/passwd' },
        { type: 'absolute_path', absolute_path: `${proj}/../f1-secret.txt` },
        { type: 'relative_path', relative_path: '../../../etc/passwd', base_path: path.join(proj, 'src', 'a.ts') },
        { type: 'workspace_uri', workspace_uri: 'workspace://ws_UNKNOWN/a' },
        { type: 'workspace_uri', workspace_uri: `workspace://${id}/missing` },
        { type: 'absolute_path', absolute_path: 'not/absolute' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.results.map((r: { status: string; reason?: string }) => r.reason ?? r.status)).toEqual([
      'outside_workspace',
      'outside_workspace',
      'outside_workspace',
      'outside_workspace',
      'outside_workspace',
      'outside_workspace',
      'unknown_workspace',
      'not_found',
      'invalid_reference',
    ]);
    for (const r of res.json.results) expect(r.message).toBeTypeOf('string');
  });

  it('uses the default agent by default and checks the request', async () => {
    const res = await resolve({ references: [{ type: 'workspace_uri', workspace_uri: `workspace://${id}/src/a.ts` }] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ agent_id: 'main', results: [{ status: 'unresolved', reason: 'unknown_workspace' }] });
    const ok64 = await resolve({ agent_id: 'f1', references: Array.from({ length: 64 }, () => ({ type: 'absolute_path', absolute_path: proj })) });
    expect(ok64.status, ok64.text).toBe(200);
    expect(ok64.json.results).toHaveLength(64);
    expectError(await resolve({ agent_id: 'f1', references: Array.from({ length: 65 }, () => ({ type: 'absolute_path', absolute_path: proj })) }), 400, 'invalid_request');
    expectError(await resolve({ references: [{ type: 'smb', share: 'x' }] }), 400, 'invalid_request');
    expectError(await resolve({}), 400, 'invalid_request');
    expectError(await resolve({ agent_id: 'ghost', references: [] }), 404, 'agent_not_found');
  });
});

describe('desktop integration on Linux', () => {
  it('reports no reveal capability and denies reveal', async () => {
    const headers = { origin: d.base };
    const caps = await request(d, 'GET', '/api/desktop/capabilities', { headers });
    expect(caps.status, caps.text).toBe(200);
    expect(caps.json).toEqual({ reveal_in_file_manager: false });
    const res = await request(d, 'POST', '/api/desktop/reveal', { headers, body: { workspace_id: 'agent_home', execution_root_id: 'agent_home', path: 'x' } });
    expectError(res, 403, 'desktop_integration_disabled');
    expectError(await request(d, 'POST', '/api/desktop/reveal', { body: { workspace_id: 'agent_home' } }), 400, 'invalid_request');
  });
});

describe('auth', () => {
  it('workspace control routes, resolve and desktop routes need the token in bearer mode; reads do not from loopback', async () => {
    const b = await startDaemon({ args: ['--token', 'sekrit'] });
    try {
      expectError(await request(b, 'POST', '/api/control/agents/main/workspace/exit', { body: {} }), 401, 'auth_required');
      expectError(await request(b, 'POST', '/api/file-references/resolve', { body: { references: [] } }), 401, 'auth_required');
      expectError(await request(b, 'GET', '/api/desktop/capabilities'), 401, 'auth_required');
      expectError(await request(b, 'POST', '/api/desktop/reveal', { body: {} }), 401, 'auth_required');
      const auth = { authorization: 'Bearer sekrit' };
      expect((await request(b, 'POST', '/api/control/agents/main/workspace/exit', { body: {}, headers: auth })).status).toBe(200);
      expect((await request(b, 'GET', '/api/agents/main/worktree-summary')).status).toBe(200);
    } finally {
      await b.stop();
      fs.rmSync(b.home, { recursive: true, force: true });
    }
  });
});
