/**
 * `svc skills …` as child processes against a real daemon: catalog, add (git with --remote, local
 * link by default and --copy, job progress on stderr, idempotent re-add), show, list/enable/
 * disable --agent, check, update after a new commit, reconcile, refresh, remove, error exits.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { request, startDaemon, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let d: RunningDaemon;
let tmp: string;
let repo: string;

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

function writeSkill(dir: string, name: string, description: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nbody of ${name}\n`);
  return dir;
}

const { svc, svcJson, expectFailure } = cliFor(() => d);


beforeAll(async () => {
  d = await startDaemon();
  expect((await request(d, 'POST', '/api/control/agents/cli-sk/create', { body: {} })).status).toBe(201);
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-skills-')));
  repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeSkill(path.join(repo, 'skills', 'remote-one'), 'remote-one', 'From git v1');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'v1');
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('svc skills', () => {
  it('catalog is empty at first', async () => {
    const r = await svc(['skills', 'catalog']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('(none)\n');
    expect((await svcJson(['skills', 'catalog'])).skills).toEqual([]);
  });

  it('add follows the install job; a second add reports the existing entry', async () => {
    const source = `file://${repo}#main:skills/remote-one`;
    const r = await svc(['skills', 'add', source, '--remote']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^add .*: running fetching \[1\/4\]: cloning file:\/\//m);
    expect(r.stderr).toMatch(/^add .*: completed/m);
    expect(r.stdout).toMatch(/^installed remote-one \([0-9a-f]{40}\)$/m);
    const again = await svc(['skills', 'add', source, '--remote']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^already in the library/);
    expect(again.stderr).toBe('');
  });

  it('add of a local directory links by default and copies with --copy', async () => {
    const linked = writeSkill(path.join(tmp, 'linked'), 'linked', 'Linked');
    const copied = writeSkill(path.join(tmp, 'copied'), 'copied', 'Copied');
    const a = await svcJson(['skills', 'add', linked]);
    expect(a.job.status).toBe('completed');
    expect(fs.lstatSync(path.join(d.home, 'skills', 'linked')).isSymbolicLink()).toBe(true);
    const b = await svcJson(['skills', 'add', copied, '--copy']);
    expect(b.job.result.name).toBe('copied');
    expect(fs.lstatSync(path.join(d.home, 'skills', 'copied')).isSymbolicLink()).toBe(false);
    const table = await svc(['skills', 'catalog']);
    expect(table.stdout.split('\n')[0]).toMatch(/^SKILL_ID\s+SCOPE\s+NAME\s+DESCRIPTION\s+PATH$/);
    expect(table.stdout).toMatch(/^user:copied\s+user\s+copied\s+Copied/m);
    const show = await svc(['skills', 'show', 'user:remote-one']);
    expect(show.stdout).toMatch(/^description\s+From git v1$/m);
    expect(show.stdout).toContain('body of remote-one');
  });

  it('a bad source or a failing job exits non-zero with the code', async () => {
    await expectFailure(['skills', 'add', 'not-a-source'], 'invalid_skill_source');
    const err = await expectFailure(['skills', 'add', `file://${repo}#main:nothing-here`, '--remote'], 'job_failed');
    expect(err).toMatch(/no directory nothing-here/);
    await expectFailure(['skills', 'remove', 'nope'], 'skill_not_found');
  });

  it('list, enable and disable for an agent', async () => {
    expect((await svc(['skills', 'list', '--agent', 'cli-sk'])).stdout).toBe('(none)\n');
    const e = await svc(['skills', 'enable', 'remote-one', '--agent', 'cli-sk']);
    expect(e.stdout).toBe('enabled remote-one for cli-sk (user)\n');
    const c = await svc(['skills', 'enable', 'copied', '--copy', '--agent', 'cli-sk']);
    expect(c.stdout).toBe('enabled copied for cli-sk (agent)\n');
    const list = await svcJson(['skills', 'list', '--agent', 'cli-sk']);
    expect(list.skills.map((s: Json) => [s.name, s.scope])).toEqual([
      ['copied', 'agent'],
      ['remote-one', 'user'],
    ]);
    expect((await svc(['skills', 'disable', 'copied', '--agent', 'cli-sk'])).stdout).toBe('disabled copied for cli-sk\n');
    await expectFailure(['skills', 'enable', 'nope', '--agent', 'cli-sk'], 'skill_not_found');
    const missing = await svc(['skills', 'list']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--agent/);
  });

  it('check, update, reconcile, refresh, remove', async () => {
    expect((await svc(['skills', 'check'])).stdout).toMatch(/3 checked, 0 outdated/);
    writeSkill(path.join(repo, 'skills', 'remote-one'), 'remote-one', 'From git v2');
    git(repo, 'commit', '-q', '-am', 'v2');
    const check = await svc(['skills', 'check']);
    expect(check.stdout).toMatch(/^remote-one\s+outdated/m);
    expect(check.stdout).toMatch(/3 checked, 1 outdated/);
    const upd = await svc(['skills', 'update']);
    expect(upd.code, upd.stderr).toBe(0);
    expect(upd.stderr).toMatch(/^update: completed/m);
    expect(upd.stdout).toMatch(/^updated: remote-one$/m);
    expect(upd.stdout).toMatch(/^skipped linked: linked: always current$/m);
    expect((await svcJson(['skills', 'show', 'remote-one'])).description).toBe('From git v2');

    expect((await svc(['skills', 'reconcile'])).stdout).toMatch(/^in sync$/m);
    fs.rmSync(path.join(d.home, 'skills', 'copied'), { recursive: true });
    const rec = await svc(['skills', 'reconcile', '--prune']);
    expect(rec.stdout).toMatch(/^out of sync$/m);
    expect(rec.stdout).toMatch(/^missing \(locked, not in the library\): copied$/m);
    expect(rec.stdout).toMatch(/^pruned: copied$/m);

    expect((await svc(['skills', 'refresh'])).stdout).toMatch(/^2 skills \(2 user, 0 workspace\)$/m);
    const rm = await svc(['skills', 'remove', 'remote-one']);
    expect(rm.stdout).toBe('removed remote-one; disabled for cli-sk\n');
    expect((await svcJson(['skills', 'catalog'])).skills.map((s: Json) => s.name)).toEqual(['linked']);
  });
});
