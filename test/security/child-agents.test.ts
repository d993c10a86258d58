/**
 * Child agents as another party would try to use them: an outsider enqueueing to a private child,
 * a repository whose hooks or filter drivers would run in the daemon's git calls, the control
 * token in git's environment, child ids that are not agent ids.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectWorktree, removeWorktree, type WorktreeRecord } from '../../src/runtime/tasks/child-worktree.js';
import { repositoryFilterDrivers } from '../../src/runtime/git-command.js';
import { git, gitRepo } from '../helpers/git.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('child agents: trust boundaries', () => {
  it('a private child takes nothing from public enqueue, the generic webhook or the inbox; its supervisor and the operator reach it', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'work' });
    const child = task.child_agent_id!;
    const before = s.queue.pending(child);
    await expect(s.ingress.publicEnqueue(child, { text: 'hi from outside' } as never)).rejects.toMatchObject({ status: 403, code: 'agent_private' });
    await expect(s.ingress.genericWebhook(child, { evil: true })).rejects.toMatchObject({ status: 403, code: 'agent_private' });
    expect(s.queue.pending(child)).toBe(before);
    await s.ingress.controlPrompt(child, 'operator steering');
    expect(s.tasks.input('main', task.task_id, { text: 'supervisor follow-up' }).accepted_input).toBe(true);
    expect(s.queue.pending(child)).toBe(before + 2);
    // Public agents are unaffected.
    await expect(s.ingress.publicEnqueue('main', { text: 'hello' } as never)).resolves.toMatchObject({ ok: true });
  });

  it("the daemon's git calls run none of the repository's hooks and never see the control token", async () => {
    const prevToken = process.env.SVC_TOKEN;
    process.env.SVC_TOKEN = 'secret-control-token';
    try {
      t = testServices({ runLoop: false });
      const { s } = t;
      const repo = gitRepo();
      const marker = path.join(repo, '..', `hook-ran-${path.basename(repo)}`);
      const hook = path.join(repo, '.git', 'hooks', 'post-checkout');
      fs.writeFileSync(hook, `#!/bin/sh\nenv > ${JSON.stringify(marker)}\n`, { mode: 0o755 });
      s.workspaces.attach('main', repo);
      const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x', workspace_mode: 'worktree' });
      expect(task.status).toBe('running');
      expect(fs.existsSync(marker)).toBe(false);
      // The same hook does run for a plain git call, so the check above can fail.
      const { execFileSync } = await import('node:child_process');
      execFileSync('git', ['-C', repo, 'checkout', '-q', '-b', 'probe'], { env: { ...process.env } });
      expect(fs.readFileSync(marker, 'utf8')).toContain('SVC_TOKEN=secret-control-token');
      fs.rmSync(marker);
    } finally {
      if (prevToken === undefined) delete process.env.SVC_TOKEN;
      else process.env.SVC_TOKEN = prevToken;
    }
  });

  it("a repository's own filter drivers (smudge, clean, process) and hooks run in none of the daemon's git calls; the worktree is still checked out", async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    const repo = gitRepo();
    const marker = (what: string) => path.join(path.dirname(repo), `${path.basename(repo)}-${what}`);
    const markers = ['smudge', 'clean', 'process', 'post-checkout', 'reference-transaction'];
    fs.writeFileSync(path.join(repo, '.gitattributes'), '*.txt filter=evil\n*.md filter=ev.il\n');
    fs.writeFileSync(path.join(repo, 'data.txt'), 'payload\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'attributes');
    // Set after the commit, as someone with write access to .git would. `required` would make an
    // ignored driver fail the checkout rather than pass silently.
    git(repo, 'config', 'filter.evil.smudge', `touch ${marker('smudge')}; cat`);
    git(repo, 'config', 'filter.evil.clean', `touch ${marker('clean')}; cat`);
    git(repo, 'config', 'filter.evil.required', 'true');
    git(repo, 'config', 'filter.ev.il.process', `sh -c 'touch ${marker('process')}; exit 1'`);
    for (const hook of ['post-checkout', 'reference-transaction']) {
      fs.writeFileSync(path.join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch ${marker(hook)}\n`, { mode: 0o755 });
    }
    s.workspaces.attach('main', repo);

    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x', workspace_mode: 'worktree' });
    for (const m of markers) expect(fs.existsSync(marker(m)), m).toBe(false);
    expect(task.status).toBe('running');
    const record = (task as unknown as { child_supervision: { worktree: WorktreeRecord } }).child_supervision.worktree;
    const wt = record.worktree_path!;
    expect(fs.readFileSync(path.join(wt, 'data.txt'), 'utf8')).toBe('payload\n');
    expect(fs.readFileSync(path.join(wt, 'README.md'), 'utf8')).toBe('hello\n');
    // The daemon's inspection hashes the changed file (git status would run the clean filter)...
    fs.writeFileSync(path.join(wt, 'data.txt'), 'changed\n');
    expect((await inspectWorktree(record))?.changed).toEqual(['data.txt']);
    // ...and its cleanup deletes the branch (a ref transaction).
    expect(await removeWorktree(record, 'test', false)).toMatchObject({ cleanup_status: 'removed', branch_cleanup_status: 'deleted' });
    for (const m of markers) expect(fs.existsSync(marker(m)), m).toBe(false);

    // The same repository does run them for a plain git call, so the checks above can fail. The
    // process filter speaks no protocol: git starts it on README.md, then gives up.
    const plain = (n: string) => path.join(path.dirname(repo), `${path.basename(repo)}-${n}`);
    expect(spawnSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'plain1', plain('plain1')]).status).not.toBe(0);
    expect(fs.existsSync(marker('process')), 'process').toBe(true);
    git(repo, 'config', '--unset', 'filter.ev.il.process');
    execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'plain2', plain('plain2')], { stdio: 'pipe' });
    fs.writeFileSync(path.join(plain('plain2'), 'data.txt'), 'changed\n');
    execFileSync('git', ['-C', plain('plain2'), 'status', '--porcelain'], { stdio: 'pipe' });
    for (const m of markers) expect(fs.existsSync(marker(m)), m).toBe(true);
  });

  it("the filter drivers neutralised are the repository's own, whatever their names", () => {
    const listed = ['local', 'filter.evil.smudge\ntouch x', 'global', 'filter.lfs.smudge\ngit-lfs smudge -- %f', 'local', 'filter.ev.il.process\nsh', 'worktree', 'filter.a b=c.clean', 'local', 'core.x\n1', ''].join('\0');
    expect(repositoryFilterDrivers(listed)).toEqual(['evil', 'ev.il', 'a b=c']);
  });

  it('a child_agent_id that is not an agent id, or names an existing agent, is refused before anything is made', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    for (const id of ['../main', 'a/b', '', '.hidden', 'x'.repeat(65)]) {
      await expect(s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x', child_agent_id: id })).rejects.toMatchObject({ status: 400 });
    }
    await expect(s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x', child_agent_id: 'main' })).rejects.toMatchObject({ status: 409, code: 'child_agent_exists' });
    expect(s.tasks.list('main')).toEqual([]);
    expect(s.agents.list().map((a) => a.agent_id)).toEqual(['main']);
  });
});
