/**
 * Workspace tools on in-process services (docs/tools.md#coordination): get_workspace_state reads
 * the registry and, for a git workspace, branch, HEAD and a bounded status through git-command.ts;
 * attach_workspace attaches only inside `tools.workspace_roots` (real paths: `..`, symlinks out,
 * prefix tricks, files and fifos refused, nothing changed); switch_workspace moves among the
 * registered workspaces and refuses one whose directory now resolves elsewhere.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, gitRepo } from '../helpers/git.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { toolCaller, type Data } from '../helpers/tools.js';

let t: TestServices;
let base: string;
let roots: string;
let outside: string;
const { okOutcome, refusal } = toolCaller(() => t.s);
const ok = async (name: string, args: Record<string, unknown>) => (await okOutcome(name, args)).data;
const cleanup: string[] = [];

function mkdir(...parts: string[]): string {
  const p = path.join(...parts);
  fs.mkdirSync(p, { recursive: true });
  return p;
}

/** Services whose config allows attaching under `dirs` (none: only the operator attaches). */
async function withRoots(dirs: string[], replace = true): Promise<void> {
  if (replace) await t.close();
  t = testServices({ configToml: `[tools]\nworkspace_roots = ${JSON.stringify(dirs)}\n` });
}

beforeEach(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wst-')));
  roots = mkdir(base, 'roots');
  outside = mkdir(base, 'outside');
  await withRoots([roots], false);
});
afterEach(async () => {
  await t.close();
  fs.rmSync(base, { recursive: true, force: true });
  for (const d of cleanup.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const head = () => t.s.events.head('main');
const eventsAfter = (seq: number) => t.s.events.page('main', { after_seq: seq, limit: 1000, order: 'asc', max_level: 'debug' }).events as unknown as Data[];

describe('get_workspace_state', () => {
  it('shows agent_home active with the attached list; no git section outside a repository', async () => {
    const state = await ok('get_workspace_state', {});
    const home = { workspace_id: 'agent_home', path: t.s.agents.homeOf('main'), kind: 'directory', active: true };
    expect(state).toEqual({ active: home, workspaces: [home], git: null });
    await refusal('get_workspace_state', { path: '/' }, 'invalid_arguments');
  });

  it('for a git workspace: branch, HEAD and the changed paths, bounded', async () => {
    const repo = gitRepo();
    cleanup.push(repo);
    t.s.workspaces.attach('main', repo, 'operator_instruction');
    fs.writeFileSync(path.join(repo, 'README.md'), 'changed\n');
    fs.writeFileSync(path.join(repo, 'new file.txt'), 'x');
    const state = await ok('get_workspace_state', {});
    expect(state.active).toMatchObject({ path: repo, kind: 'git', active: true });
    expect(state.workspaces).toHaveLength(2);
    expect(state.git).toEqual({
      branch: 'main',
      detached: false,
      head: git(repo, 'rev-parse', 'HEAD').trim(),
      changes: [' M README.md', '?? "new file.txt"'],
      changes_total: 2,
      changes_truncated: false,
      error: null,
    });

    for (let i = 0; i < 150; i++) fs.writeFileSync(path.join(repo, `f${String(i).padStart(3, '0')}`), '');
    git(repo, 'checkout', '-q', '--detach');
    const many = (await ok('get_workspace_state', {})).git;
    expect(many).toMatchObject({ branch: null, detached: true, changes_total: 152, changes_truncated: true });
    expect(many.changes).toHaveLength(100);
  });

  it('runs nothing the repository configures (fsmonitor, hooks, filters)', async () => {
    const repo = gitRepo();
    cleanup.push(repo);
    const marker = path.join(base, 'pwned');
    const script = path.join(base, 'evil.sh');
    fs.writeFileSync(script, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    git(repo, 'config', 'core.fsmonitor', script);
    git(repo, 'config', 'filter.evil.clean', script);
    fs.writeFileSync(path.join(repo, '.gitattributes'), '* filter=evil\n');
    t.s.workspaces.attach('main', repo, 'operator_instruction');
    const state = await ok('get_workspace_state', {});
    expect(state.git.error).toBeNull();
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('attach_workspace', () => {
  it('attaches a directory inside an allowed root by its real path, with runtime_instruction authority', async () => {
    const proj = mkdir(roots, 'proj');
    const mark = head();
    const data = await ok('attach_workspace', { path: path.join(roots, 'x', '..', 'proj') });
    expect(data).toMatchObject({ created: true, workspace: { path: proj, kind: 'directory', active: true }, active_workspace_id: data.workspace.workspace_id });
    expect(eventsAfter(mark)).toMatchObject([{ type: 'workspace_attached', payload: { path: proj, created: true, authority_class: 'runtime_instruction' } }]);
    expect(t.s.workspaces.activePath('main')).toBe(proj);
    // The root itself may be attached too; the same directory again selects its registration.
    expect(await ok('attach_workspace', { path: roots })).toMatchObject({ created: true });
    expect(await ok('attach_workspace', { path: proj + '/' })).toMatchObject({ created: false, workspace: { workspace_id: data.workspace.workspace_id } });
  });

  it('registers the real path of a symlink that stays inside a root, and follows roots given through a symlink', async () => {
    const real = mkdir(roots, 'real');
    fs.symlinkSync(real, path.join(roots, 'alias'));
    expect(await ok('attach_workspace', { path: path.join(roots, 'alias') })).toMatchObject({ workspace: { path: real } });
    fs.symlinkSync(roots, path.join(base, 'roots-link'));
    await withRoots([path.join(base, 'roots-link')]);
    expect(await ok('attach_workspace', { path: real })).toMatchObject({ created: true, workspace: { path: real } });
  });

  it('refuses everything outside the roots, and changes nothing', async () => {
    mkdir(base, 'roots-evil');
    fs.symlinkSync(outside, path.join(roots, 'escape'));
    fs.writeFileSync(path.join(roots, 'file.txt'), 'x');
    execFileSync('mkfifo', [path.join(roots, 'fifo')]);
    const mark = head();
    const cases: Array<[string, string, string?]> = [
      [outside, 'workspace_not_allowed'],
      [path.join(roots, '..', 'outside'), 'workspace_not_allowed'],
      [path.join(roots, 'escape'), 'workspace_not_allowed'],
      [path.join(base, 'roots-evil'), 'workspace_not_allowed'],
      [base, 'workspace_not_allowed'],
      ['/', 'workspace_not_allowed'],
      [t.s.agents.homeOf('main'), 'workspace_not_allowed'],
      ['roots/proj', 'invalid_workspace_path', 'not_absolute'],
      ['../outside', 'invalid_workspace_path', 'not_absolute'],
      [path.join(roots, 'missing'), 'invalid_workspace_path', 'not_found'],
      [path.join(roots, 'file.txt'), 'invalid_workspace_path', 'not_directory'],
      [path.join(roots, 'fifo'), 'invalid_workspace_path', 'not_directory'],
      [`${roots}/a\u0000b`, 'invalid_workspace_path', 'invalid'],
      ['/dev/null', 'invalid_workspace_path', 'not_directory'],
    ];
    for (const [p, code, reason] of cases) {
      const data = await refusal('attach_workspace', { path: p }, code);
      if (reason) expect(data.reason, p).toBe(reason);
      if (code === 'workspace_not_allowed') expect(data.error).toContain('tools.workspace_roots');
    }
    for (const args of [{}, { path: '' }, { path: 'x'.repeat(4097) }, { path: roots, authority_class: 'operator_instruction' }, { path: 7 }]) {
      await refusal('attach_workspace', args, 'invalid_arguments');
    }
    expect(eventsAfter(mark)).toEqual([]);
    expect(t.s.workspaces.list('main').map((e) => e.workspace_id)).toEqual(['agent_home']);
  });

  it('with no roots configured only the operator attaches: the error names the key', async () => {
    await withRoots([]);
    const mark = head();
    const data = await refusal('attach_workspace', { path: mkdir(roots, 'proj') }, 'workspace_not_allowed');
    expect(data.error).toContain('tools.workspace_roots');
    expect(data.error).toContain('only the operator');
    expect(eventsAfter(mark)).toEqual([]);
  });
});

describe('switch_workspace', () => {
  it('moves among the registered workspaces and back home, with the routes\' events', async () => {
    await withRoots([]);
    // Attached by the operator outside any root: the agent may still switch to it.
    const a = t.s.workspaces.attach('main', mkdir(outside, 'a'), 'operator_instruction').workspace.workspace_id;
    const b = t.s.workspaces.attach('main', mkdir(outside, 'b'), 'operator_instruction').workspace.workspace_id;
    const mark = head();
    expect(await ok('switch_workspace', { workspace_id: a })).toEqual({ changed: true, previous_workspace_id: b, active_workspace_id: a });
    expect(await ok('switch_workspace', { workspace_id: a })).toEqual({ changed: false, previous_workspace_id: a, active_workspace_id: a });
    expect(await ok('switch_workspace', { workspace_id: 'agent_home' })).toEqual({ changed: true, previous_workspace_id: a, active_workspace_id: 'agent_home' });
    expect(eventsAfter(mark).map((e) => [e.type, e.payload.workspace_id, e.payload.created, e.payload.authority_class])).toEqual([
      ['workspace_attached', a, false, 'runtime_instruction'],
      ['workspace_exited', a, undefined, 'runtime_instruction'],
    ]);
    expect(t.s.workspaces.list('main')).toHaveLength(3);
  });

  it('refuses an unknown workspace, and one whose directory was replaced or removed; nothing changes', async () => {
    const dir = mkdir(roots, 'proj');
    const gone = mkdir(roots, 'gone');
    const id = t.s.workspaces.attach('main', dir, 'operator_instruction').workspace.workspace_id;
    const goneId = t.s.workspaces.attach('main', gone, 'operator_instruction').workspace.workspace_id;
    t.s.workspaces.exit('main', 'operator_instruction');
    // The agent swaps its workspace for a symlink pointing out of the roots.
    fs.renameSync(dir, path.join(roots, 'moved'));
    fs.symlinkSync(outside, dir);
    fs.rmSync(gone, { recursive: true });
    const mark = head();
    const replaced = await refusal('switch_workspace', { workspace_id: id }, 'workspace_not_allowed');
    expect(replaced.error).toContain('replaced');
    expect((await refusal('switch_workspace', { workspace_id: goneId }, 'invalid_workspace_path')).reason).toBe('not_found');
    await refusal('switch_workspace', { workspace_id: 'ws_nope' }, 'workspace_not_found');
    await refusal('switch_workspace', {}, 'invalid_arguments');
    expect(eventsAfter(mark)).toEqual([]);
    expect(t.s.workspaces.activeId('main')).toBe('agent_home');
    expect(t.s.workspaces.list('main')).toHaveLength(3);
  });
});
