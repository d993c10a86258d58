/**
 * WorkspaceService over in-process services: the registry (agent_home, attach/exit/detach,
 * idempotency by real path, errors), events in the same transaction, activePath, cleanup on agent
 * deletion, the desktop reveal gate with an injected platform, and the porcelain parser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceService } from '../../src/runtime/workspaces/workspaces.js';
import { parseWorktreePorcelain } from '../../src/runtime/workspaces/worktrees.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let dirs: string;

beforeEach(() => {
  t = testServices();
  dirs = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ws-')));
});
afterEach(async () => {
  await t.close();
  fs.rmSync(dirs, { recursive: true, force: true });
});

function mkdir(name: string): string {
  const p = path.join(dirs, name);
  fs.mkdirSync(p, { recursive: true });
  return p;
}

const typesOf = (agentId: string) =>
  t.s.events.page(agentId, { limit: 100, order: 'asc', max_level: 'debug' }).events.map((e) => e.type);

describe('the registry', () => {
  it('starts with agent_home only, active, at the agent home', () => {
    const { s } = t;
    const list = s.workspaces.stateFor('main');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ workspace_id: 'agent_home', path: s.agents.homeOf('main'), root_kind: 'agent_home', active: true, kind: 'directory' });
    expect(s.workspaces.activeId('main')).toBe('agent_home');
    expect(s.workspaces.activePath('main')).toBe(s.agents.homeOf('main'));
    expect(s.workspaces.stateFor('nobody')).toEqual([]);
  });

  it('attach registers a directory, makes it active and appends workspace_attached', () => {
    const { s } = t;
    const proj = mkdir('proj');
    const before = s.events.head('main');
    const r = s.workspaces.attach('main', proj, 'operator_instruction');
    expect(r.created).toBe(true);
    expect(r.workspace).toMatchObject({ path: proj, root: proj, kind: 'directory', active: true, root_kind: 'workspace' });
    expect(r.workspace.workspace_id).toMatch(/^ws_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(r.active_workspace_id).toBe(r.workspace.workspace_id);
    expect(s.workspaces.activePath('main')).toBe(proj);
    expect(s.events.head('main')).toBe(before + 1);
    const ev = s.events.readAfter('main', before, 10)[0]!;
    expect(ev).toMatchObject({ type: 'workspace_attached', payload: { workspace_id: r.workspace.workspace_id, created: true, previous_workspace_id: 'agent_home', authority_class: 'operator_instruction' } });
    expect(s.workspaces.stateFor('main').map((e) => [e.workspace_id, e.active])).toEqual([
      ['agent_home', false],
      [r.workspace.workspace_id, true],
    ]);
  });

  it('stateSection gives the state page its active id, occupancy and registry', () => {
    const { s } = t;
    const proj = mkdir('proj');
    const id = s.workspaces.attach('main', proj).workspace.workspace_id;
    const sec = s.workspaces.stateSection('main');
    expect(sec.active_workspace_id).toBe(id);
    expect(sec.occupancy).toEqual([
      { workspace_id: 'agent_home', path: s.agents.homeOf('main'), active: false },
      { workspace_id: id, path: proj, active: true },
    ]);
    expect(sec.registry).toEqual(s.workspaces.stateFor('main'));
  });

  it('is idempotent by real path (a symlink or trailing slash names the same workspace)', () => {
    const { s } = t;
    const proj = mkdir('proj');
    fs.symlinkSync(proj, path.join(dirs, 'alias'));
    const a = s.workspaces.attach('main', proj);
    const head = s.events.head('main');
    const b = s.workspaces.attach('main', `${proj}/`);
    const c = s.workspaces.attach('main', path.join(dirs, 'alias'));
    expect(b).toMatchObject({ created: false, workspace: { workspace_id: a.workspace.workspace_id } });
    expect(c.workspace.workspace_id).toBe(a.workspace.workspace_id);
    expect(s.events.head('main')).toBe(head); // nothing changed, nothing logged
    expect(s.workspaces.stateFor('main')).toHaveLength(2);
  });

  it('detects git work trees', () => {
    const repo = mkdir('repo');
    fs.mkdirSync(path.join(repo, '.git'));
    const sub = mkdir('repo/pkg');
    expect(t.s.workspaces.attach('main', repo).workspace.kind).toBe('git');
    expect(t.s.workspaces.attach('main', sub).workspace.kind).toBe('git');
  });

  it('refuses paths that are not existing absolute directories', () => {
    const file = path.join(dirs, 'f.txt');
    fs.writeFileSync(file, 'x');
    const cases: Array<[string, string]> = [
      ['relative/dir', 'not_absolute'],
      [path.join(dirs, 'missing'), 'not_found'],
      [file, 'not_directory'],
      ['', 'invalid'],
    ];
    for (const [p, reason] of cases) {
      expect(() => t.s.workspaces.attach('main', p), p).toThrowError(expect.objectContaining({ status: 400, code: 'invalid_workspace_path', extra: expect.objectContaining({ reason }) }));
    }
    expect(t.s.workspaces.stateFor('main')).toHaveLength(1);
  });

  it('attaching the agent home selects agent_home', () => {
    const { s } = t;
    const proj = mkdir('proj');
    s.workspaces.attach('main', proj);
    const r = s.workspaces.attach('main', s.agents.homeOf('main'));
    expect(r).toMatchObject({ created: false, active_workspace_id: 'agent_home', workspace: { workspace_id: 'agent_home', active: true } });
    expect(s.workspaces.stateFor('main')).toHaveLength(2);
  });

  it('exit returns to agent_home once; detach removes a non-active registration', () => {
    const { s } = t;
    const a = s.workspaces.attach('main', mkdir('a')).workspace.workspace_id;
    expect(() => s.workspaces.detach('main', a)).toThrowError(expect.objectContaining({ status: 409, code: 'workspace_active' }));
    expect(s.workspaces.exit('main')).toEqual({ changed: true, previous_workspace_id: a, active_workspace_id: 'agent_home' });
    expect(s.workspaces.exit('main')).toEqual({ changed: false, previous_workspace_id: 'agent_home', active_workspace_id: 'agent_home' });
    expect(s.workspaces.activePath('main')).toBe(s.agents.homeOf('main'));
    expect(s.workspaces.detach('main', a)).toEqual({ workspace_id: a, active_workspace_id: 'agent_home' });
    expect(s.workspaces.stateFor('main').map((e) => e.workspace_id)).toEqual(['agent_home']);
    expect(typesOf('main').filter((x) => x.startsWith('workspace_'))).toEqual(['workspace_attached', 'workspace_exited', 'workspace_detached']);
  });

  it('refuses to detach agent_home or an unknown workspace, and another agent’s workspace', () => {
    const { s } = t;
    s.agents.create('other', {});
    const theirs = s.workspaces.attach('other', mkdir('o')).workspace.workspace_id;
    expect(() => s.workspaces.detach('main', 'agent_home')).toThrowError(expect.objectContaining({ status: 409, code: 'agent_home_protected' }));
    expect(() => s.workspaces.detach('main', 'ws_NOPE')).toThrowError(expect.objectContaining({ status: 404, code: 'workspace_not_found' }));
    expect(() => s.workspaces.detach('main', theirs)).toThrowError(expect.objectContaining({ status: 404, code: 'workspace_not_found' }));
  });

  it('a failed change rolls back with its event', () => {
    const { s } = t;
    const head = s.events.head('main');
    expect(() => s.workspaces.detach('main', 'ws_NOPE')).toThrow();
    expect(s.events.head('main')).toBe(head);
  });

  it('refuses unknown and deleting agents', async () => {
    const { s } = t;
    expect(() => s.workspaces.attach('ghost', mkdir('g'))).toThrowError(expect.objectContaining({ status: 404, code: 'agent_not_found' }));
    expect(() => s.workspaces.exit('ghost')).toThrowError(expect.objectContaining({ code: 'agent_not_found' }));
    s.agents.create('doomed', {});
    s.deletion.request('doomed', { cascadePrivateChildren: false });
    expect(() => s.workspaces.attach('doomed', mkdir('d'))).toThrowError(expect.objectContaining({ status: 409, code: 'agent_deleting' }));
    expect(() => s.workspaces.exit('doomed')).toThrowError(expect.objectContaining({ code: 'agent_deleting' }));
    expect(() => s.workspaces.detach('doomed', 'ws_X')).toThrowError(expect.objectContaining({ code: 'agent_deleting' }));
    await s.deletion.idle();
  });

  it('a deleted agent’s registry is gone: the re-created agent starts at home', async () => {
    const { s } = t;
    s.agents.create('temp', {});
    s.workspaces.attach('temp', mkdir('t'));
    s.deletion.request('temp', { cascadePrivateChildren: false });
    await s.deletion.idle();
    s.agents.create('temp', {});
    expect(s.workspaces.stateFor('temp').map((e) => e.workspace_id)).toEqual(['agent_home']);
    expect(s.workspaces.activePath('temp')).toBe(s.agents.homeOf('temp'));
  });

  it('resolves file references against the agent’s roots, default agent by default', () => {
    const { s } = t;
    const proj = mkdir('proj');
    fs.writeFileSync(path.join(proj, 'a.txt'), 'a');
    const id = s.workspaces.attach('main', proj).workspace.workspace_id;
    const r = s.workspaces.resolve(undefined, [
      { type: 'workspace_uri', workspace_uri: `workspace://${id}/a.txt` },
      { type: 'relative_path', relative_path: 'a.txt' },
    ]);
    expect(r.agent_id).toBe('main');
    expect(r.results.map((x) => x.status)).toEqual(['resolved', 'resolved']);
    expect(() => s.workspaces.resolve('ghost', [])).toThrowError(expect.objectContaining({ code: 'agent_not_found' }));
    const many = Array.from({ length: 65 }, () => ({ type: 'absolute_path' as const, absolute_path: proj }));
    expect(() => s.workspaces.resolve('main', many)).toThrowError(expect.objectContaining({ status: 400, code: 'invalid_request' }));
  });
});

describe('desktop reveal', () => {
  const loopback = { remoteAddress: '127.0.0.1', headers: { host: '127.0.0.1:8700', origin: 'http://127.0.0.1:8700' } };

  function service(opts: { enabled: boolean; platform: NodeJS.Platform }) {
    const opened: string[] = [];
    const ws = new WorkspaceService(
      { config: t.s.config, clock: t.s.clock, logger: t.s.logger, ids: t.s.ids, store: t.s.store, events: t.s.events, queue: t.s.queue, agents: t.s.agents, ingress: t.s.ingress },
      { desktopIntegration: opts.enabled, platform: opts.platform, openInFileManager: async (p) => void opened.push(p) },
    );
    return { ws, opened };
  }

  it('is off by default and on Linux whatever the flag', async () => {
    expect(t.s.workspaces.desktopCapabilities(loopback)).toEqual({ reveal_in_file_manager: false });
    const { ws, opened } = service({ enabled: true, platform: 'linux' });
    expect(ws.desktopCapabilities(loopback)).toEqual({ reveal_in_file_manager: false });
    await expect(ws.reveal(loopback, { workspace_id: 'agent_home', execution_root_id: 'agent_home', path: 'x' })).rejects.toMatchObject({
      status: 403,
      code: 'desktop_platform_unsupported',
    });
    await expect(t.s.workspaces.reveal(loopback, { workspace_id: 'agent_home', execution_root_id: 'agent_home', path: 'x' })).rejects.toMatchObject({
      status: 403,
      code: 'desktop_integration_disabled',
    });
    expect(opened).toEqual([]);
  });

  it('on a supported OS reveals only files strictly within a registered root, over verified loopback', async () => {
    const { ws, opened } = service({ enabled: true, platform: 'darwin' });
    const proj = mkdir('proj');
    fs.writeFileSync(path.join(proj, 'a.txt'), 'a');
    fs.writeFileSync(path.join(dirs, 'secret.txt'), 's');
    fs.symlinkSync(path.join(dirs, 'secret.txt'), path.join(proj, 'esc'));
    const id = ws.attach('main', proj).workspace.workspace_id;
    expect(ws.desktopCapabilities(loopback)).toEqual({ reveal_in_file_manager: true });
    await expect(ws.reveal(loopback, { workspace_id: id, execution_root_id: id, path: 'a.txt' })).resolves.toEqual({ revealed: true, absolute_path: path.join(proj, 'a.txt') });
    for (const bad of ['../secret.txt', 'esc', '.', '', '/etc/passwd']) {
      await expect(ws.reveal(loopback, { workspace_id: id, execution_root_id: id, path: bad }), bad).rejects.toMatchObject({ status: 403, code: 'desktop_path_outside_root' });
    }
    await expect(ws.reveal(loopback, { workspace_id: id, execution_root_id: 'agent_home', path: 'a.txt' })).rejects.toMatchObject({ status: 404, code: 'workspace_not_found' });
    await expect(ws.reveal({ ...loopback, remoteAddress: '10.1.1.1' }, { workspace_id: id, execution_root_id: id, path: 'a.txt' })).rejects.toMatchObject({
      code: 'desktop_loopback_required',
    });
    expect(opened).toEqual([path.join(proj, 'a.txt')]);
  });
});

describe('git worktree porcelain', () => {
  it('parses -z output with every attribute', () => {
    const text = [
      'worktree /repo', 'HEAD 1111111111111111111111111111111111111111', 'branch refs/heads/main', '',
      'worktree /repo-feature', 'HEAD 2222222222222222222222222222222222222222', 'branch refs/heads/feature/x', 'locked', '',
      'worktree /repo-detached', 'HEAD 3333333333333333333333333333333333333333', 'detached', 'prunable gitdir file points to non-existent location', '',
      '',
    ].join('\0');
    expect(parseWorktreePorcelain(text)).toEqual([
      { path: '/repo', head: '1'.repeat(40), branch: 'main', bare: false, detached: false, locked: false, locked_reason: null, prunable: false, prunable_reason: null, is_main: true },
      { path: '/repo-feature', head: '2'.repeat(40), branch: 'feature/x', bare: false, detached: false, locked: true, locked_reason: null, prunable: false, prunable_reason: null, is_main: false },
      {
        path: '/repo-detached',
        head: '3'.repeat(40),
        branch: null,
        bare: false,
        detached: true,
        locked: false,
        locked_reason: null,
        prunable: true,
        prunable_reason: 'gitdir file points to non-existent location',
        is_main: false,
      },
    ]);
  });

  it('parses newline output, bare repositories and lock reasons', () => {
    const text = 'worktree /bare.git\nbare\n\nworktree /w\nHEAD abc\nbranch refs/heads/dev\nlocked on a USB stick\n\n';
    expect(parseWorktreePorcelain(text)).toMatchObject([
      { path: '/bare.git', bare: true, head: null, branch: null, is_main: true },
      { path: '/w', head: 'abc', branch: 'dev', locked: true, locked_reason: 'on a USB stick', is_main: false },
    ]);
    expect(parseWorktreePorcelain('')).toEqual([]);
  });
});
