/**
 * Child agents as another party would try to use them: an outsider enqueueing to a private child,
 * a repository whose hooks would run in the daemon's git calls, the control token in git's
 * environment, child ids that are not agent ids.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitRepo } from '../helpers/git.js';
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
