/**
 * Skills against the real daemon: add from a local git repository (file:// URL with #ref and a
 * path), from local directories (copy and link), idempotent re-add, job progress at /api/jobs,
 * catalog and detail (library and workspace roots), per-agent enable/disable under both route
 * spellings, the deprecated install/uninstall routes, check/update after a new commit, reconcile,
 * remove, and enablement surviving a restart but not an agent deletion.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

let d: RunningDaemon;
let tmp: string;
let repo: string;
let repoUrl: string;

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

function writeSkill(dir: string, name: string, description: string, extra = ''): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: "${description}"\n---\n# ${name}\n${extra}\n`);
  return dir;
}

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

const get = (p: string) => request(d, 'GET', p);
const post = (p: string, body: unknown = {}) => request(d, 'POST', p, { body });

/** Poll the job until it ends; returns every status seen and the final job. */
async function waitJob(jobId: string): Promise<{ seen: string[]; job: Record<string, any> }> {
  const seen: string[] = [];
  for (let i = 0; i < 400; i++) {
    const res = await get(`/api/jobs/${jobId}`);
    expect(res.status, res.text).toBe(200);
    const job = res.json.job;
    if (seen[seen.length - 1] !== job.status) seen.push(job.status);
    if (job.status === 'completed' || job.status === 'failed') return { seen, job };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} did not end`);
}

async function addAndWait(body: unknown): Promise<Record<string, any>> {
  const res = await post('/api/skills/catalog/add', body);
  expect(res.status, res.text).toBe(202);
  expect(res.json).toMatchObject({ ok: true, job_id: expect.any(String) });
  const { job } = await waitJob(res.json.job_id);
  return job;
}

const lock = () => JSON.parse(fs.readFileSync(path.join(d.home, '.skill-lock.json'), 'utf8'));
const catalogIds = async () => ((await get('/api/skills/catalog')).json.skills as Array<{ skill_id: string }>).map((s) => s.skill_id).sort();

beforeAll(async () => {
  d = await startDaemon();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-skills-')));
  repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeSkill(path.join(repo, 'skills', 'alpha'), 'alpha', 'First skill', 'body v1');
  fs.mkdirSync(path.join(repo, 'skills', 'alpha', 'scripts'));
  fs.writeFileSync(path.join(repo, 'skills', 'alpha', 'scripts', 'run.sh'), 'echo hi\n');
  fs.mkdirSync(path.join(repo, 'docs'));
  fs.writeFileSync(path.join(repo, 'docs', 'README.md'), 'no skill here\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'alpha v1');
  repoUrl = `file://${repo}`;
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('skills catalog and library', () => {
  it('starts empty; an unknown skill is 404 skill_not_found', async () => {
    const res = await get('/api/skills/catalog');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, skills: [], invalid: [], catalog: [] });
    expectError(await get('/api/skills/catalog/user:nope'), 404, 'skill_not_found');
    expectError(await post('/api/skills/catalog/remove', { name: 'nope' }), 404, 'skill_not_found');
  });

  it('rejects unusable sources synchronously with 400 invalid_skill_source', async () => {
    expectError(await post('/api/skills/catalog/add', { source: 'relative/../x y' }), 400, 'invalid_skill_source');
    expectError(await post('/api/skills/catalog/add', { source: './skills/alpha' }), 400, 'invalid_skill_source');
    expectError(await post('/api/skills/catalog/add', { source: `${repoUrl}#main`, mode: 'link' }), 400, 'invalid_skill_source');
    expectError(await post('/api/skills/catalog/add', { source: path.join(tmp, 'missing') }), 400, 'invalid_skill_source');
    const noManifest = path.join(tmp, 'empty-skill');
    fs.mkdirSync(noManifest);
    expectError(await post('/api/skills/catalog/add', { source: noManifest }), 400, 'invalid_skill_source');
    const noDescription = path.join(tmp, 'nodesc');
    fs.mkdirSync(noDescription);
    fs.writeFileSync(path.join(noDescription, 'SKILL.md'), '---\nname: nodesc\n---\nbody\n');
    const res = await post('/api/skills/catalog/add', { source: noDescription });
    expectError(res, 400, 'invalid_skill_source');
    expect(res.json.error).toMatch(/description/);
    expectError(await post('/api/skills/catalog/add', { source: noDescription, extra: 1 }), 400, 'invalid_request');
    expectError(await post('/api/skills/catalog/add', { source: noDescription, mode: 'move' }), 400, 'invalid_request');
  });

  it('installs from a local git repository (file:// URL with #ref and a path) as a background job', async () => {
    const res = await post('/api/skills/catalog/add', { source: `${repoUrl}#main:skills/alpha` });
    expect(res.status, res.text).toBe(202);
    const { seen, job } = await waitJob(res.json.job_id);
    expect(job.kind).toBe('skill_install');
    expect(job.status, job.error).toBe('completed');
    expect(seen[seen.length - 1]).toBe('completed');
    expect(job.progress).toMatchObject({ phase: expect.any(String), step: 4, steps: 4 });
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(job.result).toMatchObject({ installed: true, name: 'alpha', etag: head, skill: { skill_id: 'user:alpha', scope: 'user' } });

    const installed = path.join(d.home, 'skills', 'alpha');
    expect(fs.readFileSync(path.join(installed, 'SKILL.md'), 'utf8')).toContain('body v1');
    expect(fs.existsSync(path.join(installed, 'scripts', 'run.sh'))).toBe(true);
    expect(fs.existsSync(path.join(installed, '.git'))).toBe(false);
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);

    expect(lock().skills.alpha).toMatchObject({ source: `${repoUrl}#main`, subdir: 'skills/alpha', mode: 'copy', etag: head, source_type: 'git' });

    const cat = await get('/api/skills/catalog');
    expect(cat.json.skills).toEqual([
      { skill_id: 'user:alpha', name: 'alpha', description: 'First skill', path: installed, scope: 'user', source: `${repoUrl}#main` },
    ]);
  });

  it('adding a skill already in the library answers 200 with the existing entry and no job', async () => {
    for (const source of [`${repoUrl}#main:skills/alpha`, `${repoUrl}#main:skills/alpha/`]) {
      const res = await post('/api/skills/catalog/add', { source });
      expect(res.status, res.text).toBe(200);
      expect(res.json.job_id).toBeUndefined();
      expect(res.json).toMatchObject({ ok: true, created: false, skill: { skill_id: 'user:alpha', name: 'alpha' } });
    }
    // The same skill from a local copy of the repository: found by name, also no job.
    const res = await post('/api/skills/catalog/add', { source: path.join(repo, 'skills', 'alpha') });
    expect(res.status, res.text).toBe(200);
    expect(res.json.skill.skill_id).toBe('user:alpha');
  });

  it('a git source without a SKILL.md fails its job with a clear error', async () => {
    const res = await post('/api/skills/catalog/add', { source: `${repoUrl}#main:docs` });
    expect(res.status).toBe(202);
    const { job } = await waitJob(res.json.job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/SKILL\.md/);
    const badRef = await post('/api/skills/catalog/add', { source: `${repoUrl}#no-such-branch:skills/alpha` });
    const failed = await waitJob(badRef.json.job_id);
    expect(failed.job.status).toBe('failed');
    expect(failed.job.error).toMatch(/git clone failed/);
    expect(await catalogIds()).toEqual(['user:alpha']);
  });

  it('adds local directories by copy and by link', async () => {
    const beta = writeSkill(path.join(tmp, 'local', 'beta'), 'beta', 'Copied skill');
    const copied = await addAndWait({ source: beta, mode: 'copy' });
    expect(copied.status, copied.error).toBe('completed');
    const betaLib = path.join(d.home, 'skills', 'beta');
    expect(fs.lstatSync(betaLib).isSymbolicLink()).toBe(false);
    expect(lock().skills.beta).toMatchObject({ source: beta, mode: 'copy', subdir: null, etag: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });

    const gamma = writeSkill(path.join(tmp, 'local', 'gamma'), 'gamma', 'Linked skill');
    const linked = await addAndWait({ source: gamma, mode: 'link' });
    expect(linked.status, linked.error).toBe('completed');
    const gammaLib = path.join(d.home, 'skills', 'gamma');
    expect(fs.lstatSync(gammaLib).isSymbolicLink()).toBe(true);
    expect(fs.realpathSync(gammaLib)).toBe(gamma);
    expect(lock().skills.gamma).toMatchObject({ mode: 'link' });

    expect(await catalogIds()).toEqual(['user:alpha', 'user:beta', 'user:gamma']);
    const detail = await get('/api/skills/catalog/user:gamma');
    expect(detail.json).toMatchObject({ ok: true, name: 'gamma', mode: 'link', lock: { mode: 'link' } });
  });

  it('serves skill detail by id or bare name', async () => {
    const byId = await get('/api/skills/catalog/user:alpha');
    expect(byId.status, byId.text).toBe(200);
    expect(byId.json).toMatchObject({
      ok: true,
      skill_id: 'user:alpha',
      name: 'alpha',
      description: 'First skill',
      scope: 'user',
      mode: 'copy',
      frontmatter: { name: 'alpha', description: 'First skill' },
      lock: { subdir: 'skills/alpha' },
    });
    expect(byId.json.content).toContain('body v1');
    expect(byId.json.files).toEqual(['SKILL.md', 'scripts/run.sh']);
    const byName = await get('/api/skills/catalog/alpha');
    expect(byName.json.skill_id).toBe('user:alpha');
  });

  it("lists the active workspace's .svc/skills and skills roots in the catalog", async () => {
    const ws = path.join(tmp, 'ws');
    writeSkill(path.join(ws, '.svc', 'skills', 'delta'), 'delta', 'Hidden-root skill');
    writeSkill(path.join(ws, 'skills', 'eps'), 'eps', 'Plain-root skill');
    writeSkill(path.join(ws, 'skills', 'delta'), 'delta', 'Shadowed by .svc/skills');
    fs.mkdirSync(path.join(ws, 'skills', 'broken'));
    fs.writeFileSync(path.join(ws, 'skills', 'broken', 'SKILL.md'), 'no frontmatter\n');
    const att = await post('/api/control/agents/main/workspace/attach', { path: ws });
    expect(att.status, att.text).toBeLessThan(300);

    const cat = await get('/api/skills/catalog');
    const wsSkills = cat.json.skills.filter((s: { scope: string }) => s.scope === 'workspace');
    expect(wsSkills).toEqual([
      { skill_id: 'workspace:delta', name: 'delta', description: 'Hidden-root skill', path: path.join(ws, '.svc', 'skills', 'delta'), scope: 'workspace', source: ws },
      { skill_id: 'workspace:eps', name: 'eps', description: 'Plain-root skill', path: path.join(ws, 'skills', 'eps'), scope: 'workspace', source: ws },
    ]);
    expect(cat.json.invalid).toEqual([{ path: path.join(ws, 'skills', 'broken'), error: expect.stringMatching(/name or description/) }]);

    const refresh = await post('/api/skills/catalog/refresh', {});
    expect(refresh.json).toMatchObject({ ok: true, total: 5, user: 3, workspace: 2 });
    // Another agent has no workspace attached: only the library.
    await post('/api/control/agents/other/create', {});
    const other = await get('/api/skills/catalog?agent_id=other');
    expect(other.json.skills.map((s: { skill_id: string }) => s.skill_id)).toEqual(['user:alpha', 'user:beta', 'user:gamma']);
    expectError(await get('/api/skills/catalog?agent_id=ghost'), 404, 'agent_not_found');
  });
});

describe('per-agent skills', () => {
  it('enables and disables under both route spellings', async () => {
    const created = await post('/api/control/agents/a1/create', {});
    expect(created.status).toBe(201);
    const e1 = await post('/api/control/agents/a1/skills/enable', { name: 'alpha' });
    expect(e1.status, e1.text).toBe(200);
    expect(e1.json).toMatchObject({ ok: true, agent_id: 'a1', changed: true, skill: { name: 'alpha', scope: 'user', source: `${repoUrl}#main` } });
    const again = await post('/control/agents/a1/skills/enable', { name: 'alpha' });
    expect(again.json.changed).toBe(false);

    const e2 = await post('/control/agents/a1/skills/enable', { name: 'beta', copy: true });
    expect(e2.status, e2.text).toBe(200);
    expect(e2.json.skill).toMatchObject({ name: 'beta', scope: 'agent', available: true });
    const copyPath = e2.json.skill.path as string;
    expect(copyPath.startsWith(path.join(d.home))).toBe(true);
    expect(copyPath.startsWith(path.join(d.home, 'skills'))).toBe(false);
    expect(fs.existsSync(path.join(copyPath, 'SKILL.md'))).toBe(true);

    const withoutPrefix = await get('/agents/a1/skills');
    expect(withoutPrefix.status).toBe(200);
    expect(withoutPrefix.json.skills.map((s: { name: string; scope: string }) => [s.name, s.scope])).toEqual([
      ['alpha', 'user'],
      ['beta', 'agent'],
    ]);
    const withPrefix = await get('/api/agents/a1/skills');
    expect(withPrefix.json.skills).toEqual(withoutPrefix.json.skills);

    const dis = await post('/api/control/agents/a1/skills/disable', { name: 'beta' });
    expect(dis.json).toMatchObject({ ok: true, changed: true, name: 'beta' });
    expect(fs.existsSync(copyPath)).toBe(false);
    const dis2 = await post('/control/agents/a1/skills/disable', { name: 'beta' });
    expect(dis2.json.changed).toBe(false);
    expect((await get('/agents/a1/skills')).json.skills.map((s: { name: string }) => s.name)).toEqual(['alpha']);

    // Each change is an event in the agent's log (docs/control-plane-api.md#event-log); unchanged
    // calls add none.
    const log = await get('/api/agents/a1/events?order=asc&limit=100');
    const skillEvents = log.json.events
      .filter((e: { type: string }) => e.type.startsWith('skill_'))
      .map((e: { type: string; payload: { name: string; scope: string } }) => [e.type, e.payload.name, e.payload.scope]);
    expect(skillEvents).toEqual([
      ['skill_enabled', 'alpha', 'user'],
      ['skill_enabled', 'beta', 'agent'],
      ['skill_disabled', 'beta', 'agent'],
    ]);

    expectError(await post('/api/control/agents/a1/skills/enable', { name: 'nope' }), 404, 'skill_not_found');
    expectError(await post('/control/agents/a1/skills/disable', { name: 'nope' }), 404, 'skill_not_found');
    expectError(await post('/api/control/agents/ghost/skills/enable', { name: 'alpha' }), 404, 'agent_not_found');
    expectError(await get('/agents/ghost/skills'), 404, 'agent_not_found');
    expectError(await post('/control/agents/a1/skills/enable', {}), 400, 'invalid_request');
  });

  it('enables a workspace skill with scope workspace', async () => {
    const res = await post('/api/control/agents/main/skills/enable', { name: 'delta' });
    expect(res.json.skill).toMatchObject({ name: 'delta', scope: 'workspace', description: 'Hidden-root skill' });
  });

  it('serves the deprecated install/uninstall routes, marked deprecated in OpenAPI', async () => {
    const byName = await post('/api/control/agents/a1/skills/install', { name: 'gamma' });
    expect(byName.status, byName.text).toBe(200);
    expect(byName.headers.deprecation).toBe('true');
    expect(byName.json).toMatchObject({ ok: true, deprecated: true, skill: { name: 'gamma', scope: 'user' } });

    const zeta = writeSkill(path.join(tmp, 'local', 'zeta'), 'zeta', 'Installed through the old route');
    const bySource = await post('/api/control/agents/a1/skills/install', { source: zeta });
    expect(bySource.status, bySource.text).toBe(202);
    const { job } = await waitJob(bySource.json.job_id);
    expect(job.status, job.error).toBe('completed');
    expect(job.agent_id).toBe('a1');
    const names = (await get('/api/agents/a1/skills')).json.skills.map((s: { name: string }) => s.name);
    expect(names).toEqual(['alpha', 'gamma', 'zeta']);

    const un = await post('/api/control/agents/a1/skills/uninstall', { name: 'zeta' });
    expect(un.json).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(path.join(d.home, 'skills', 'zeta'))).toBe(true); // uninstall only disables

    const doc = (await get('/api/openapi.json')).json;
    expect(doc.paths['/api/control/agents/{id}/skills/install'].post.deprecated).toBe(true);
    expect(doc.paths['/api/control/agents/{id}/skills/uninstall'].post.deprecated).toBe(true);
    expect(doc.paths['/api/control/agents/{id}/skills/enable'].post.deprecated).toBeUndefined();
    expect(doc.paths['/control/agents/{id}/skills/enable']).toBeDefined();
    expect(doc.paths['/agents/{id}/skills']).toBeDefined();
  });
});

describe('check, update, reconcile, remove', () => {
  it('check reports up to date, then outdated after a new commit; update re-installs', async () => {
    const before = await post('/api/skills/catalog/check', {});
    expect(before.status, before.text).toBe(200);
    const status = (r: HttpResult) => Object.fromEntries(r.json.skills.map((s: { name: string; status: string }) => [s.name, s.status]));
    expect(status(before)).toEqual({ alpha: 'up_to_date', beta: 'up_to_date', gamma: 'linked', zeta: 'up_to_date' });
    expect(before.json.outdated).toBe(0);

    writeSkill(path.join(repo, 'skills', 'alpha'), 'alpha', 'First skill, revised', 'body v2');
    git(repo, 'commit', '-q', '-am', 'alpha v2');
    const head = git(repo, 'rev-parse', 'HEAD');
    writeSkill(path.join(tmp, 'local', 'beta'), 'beta', 'Copied skill, revised');

    const after = await post('/api/skills/catalog/check');
    expect(status(after)).toEqual({ alpha: 'outdated', beta: 'outdated', gamma: 'linked', zeta: 'up_to_date' });
    expect(after.json.skills.find((s: { name: string }) => s.name === 'alpha').latest).toBe(head);
    expect(after.json.outdated).toBe(2);

    const upd = await post('/api/skills/catalog/update', {});
    expect(upd.status, upd.text).toBe(202);
    const { job } = await waitJob(upd.json.job_id);
    expect(job.kind).toBe('skill_update');
    expect(job.status, job.error).toBe('completed');
    expect(job.result.updated.map((u: { name: string }) => u.name).sort()).toEqual(['alpha', 'beta']);
    expect(job.result.up_to_date).toEqual(['zeta']);
    expect(job.result.failed).toEqual([]);
    expect(fs.readFileSync(path.join(d.home, 'skills', 'alpha', 'SKILL.md'), 'utf8')).toContain('body v2');
    expect(lock().skills.alpha.etag).toBe(head);
    expect((await get('/api/skills/catalog/user:alpha')).json.description).toBe('First skill, revised');

    const final = await post('/api/skills/catalog/check', {});
    expect(final.json.outdated).toBe(0);
  });

  it('reconcile reports missing and extra skills, and prunes on request', async () => {
    expect((await post('/api/skills/catalog/reconcile', {})).json).toMatchObject({ ok: true, in_sync: true, missing: [], extra: [] });
    writeSkill(path.join(d.home, 'skills', 'manual'), 'manual', 'Placed by hand');
    fs.rmSync(path.join(d.home, 'skills', 'zeta'), { recursive: true });
    const r = await post('/api/skills/catalog/reconcile', {});
    expect(r.json).toMatchObject({ in_sync: false, missing: ['zeta'], extra: ['manual'], pruned: [] });
    expect((await get('/api/skills/catalog/user:manual')).json.source).toBe('unmanaged');
    const p = await post('/api/skills/catalog/reconcile', { prune: true });
    expect(p.json.pruned).toEqual(['zeta']);
    expect(lock().skills.zeta).toBeUndefined();
  });

  it('remove deletes the library entry, its lock entry and user-scope enablements', async () => {
    const res = await post('/api/skills/catalog/remove', { name: 'alpha' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ ok: true, name: 'alpha', removed: true, disabled_for: ['a1'] });
    expect(fs.existsSync(path.join(d.home, 'skills', 'alpha'))).toBe(false);
    expect(lock().skills.alpha).toBeUndefined();
    expect(await catalogIds()).not.toContain('user:alpha');
    expect((await get('/api/agents/a1/skills')).json.skills.map((s: { name: string }) => s.name)).toEqual(['gamma']);
    expectError(await post('/api/skills/catalog/remove', { name: 'alpha' }), 404, 'skill_not_found');

    // Removing a linked skill removes the link, never the linked directory.
    await post('/api/skills/catalog/remove', { name: 'gamma' });
    expect(fs.existsSync(path.join(tmp, 'local', 'gamma', 'SKILL.md'))).toBe(true);
  });
});

describe('durability', () => {
  it('enablement survives a restart and goes away with the agent', async () => {
    await post('/api/control/agents/a1/skills/enable', { name: 'beta' });
    const home = d.home;
    await d.stop();
    d = await startDaemon({ home });
    expect((await get('/api/agents/a1/skills')).json.skills.map((s: { name: string }) => s.name)).toEqual(['beta']);

    const del = await request(d, 'DELETE', '/api/control/agents/a1');
    expect(del.status).toBe(202);
    for (let i = 0; i < 100; i++) {
      const st = await get('/api/control/agents/a1/delete-status');
      if (st.json.job?.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await post('/api/control/agents/a1/create', {})).status).toBe(201);
    expect((await get('/api/agents/a1/skills')).json.skills).toEqual([]);
  });
});
