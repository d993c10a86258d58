/**
 * Skills never leave their source (against the real daemon, over HTTP). A skill source whose files
 * are symlinks to /etc/passwd, to a 0600 file outside, to a directory outside (/usr/include), a
 * fifo, or whose SKILL.md is a symlink, is refused: the install job ends `failed` naming the file
 * relative to the source, or the request is a 400 skill_source_unsafe when the SKILL.md of a local
 * source is already visibly a link; and nothing of the targets ever lands under the daemon's home
 * (library, staging directories, agent copies). The same rules hold for git sources (file://), link
 * mode, enabling with a private copy and `update`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';
import { testServices } from '../helpers/services.js';

let d: RunningDaemon;
let tmp: string;
/** A 0600 file outside every source, with a marker that must never appear under the home. */
let secret: string;
const MARKER = `svc-secret-${process.pid}-do-not-copy`;
const PASSWD_LINE = fs.readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;
const OUTSIDE_DIR = fs.existsSync('/usr/include') ? '/usr/include' : '/usr/share';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

const get = (p: string) => request(d, 'GET', p);
const post = (p: string, body: unknown = {}) => request(d, 'POST', p, { body });

function skillDir(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: "${name} skill"\n---\n# ${name}\n`);
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.writeFileSync(path.join(dir, 'scripts', 'run.sh'), 'echo hi\n');
  return dir;
}

async function waitJob(jobId: string): Promise<Record<string, any>> {
  for (let i = 0; i < 300; i++) {
    const res = await get(`/api/jobs/${jobId}`);
    expect(res.status, res.text).toBe(200);
    if (res.json.job.status === 'completed' || res.json.job.status === 'failed') return res.json.job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} did not end`);
}

async function addJob(body: unknown): Promise<Record<string, any>> {
  const res = await post('/api/skills/catalog/add', body);
  expect(res.status, res.text).toBe(202);
  return waitJob(res.json.job_id);
}

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
}

/** Every regular file under `dir`, never following a link. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
    else if (st.isFile()) out.push(p);
  };
  walk(dir);
  return out;
}

/** Nothing of the targets under the home: no passwd line, no secret, no file from the outside directory. */
function expectHomeClean(): void {
  const library = path.join(d.home, 'skills');
  for (const f of filesUnder(d.home)) {
    const text = fs.readFileSync(f, 'latin1');
    expect(text.includes(PASSWD_LINE), f).toBe(false);
    expect(text.includes(MARKER), f).toBe(false);
  }
  const leftovers = fs.existsSync(library) ? fs.readdirSync(library).filter((n) => n.startsWith('.')) : [];
  expect(leftovers, 'staging directories left in the library').toEqual([]);
}

async function libraryNames(): Promise<string[]> {
  const res = await get('/api/skills/catalog');
  return (res.json.skills as Array<{ name: string; scope: string }>).filter((s) => s.scope === 'user').map((s) => s.name).sort();
}

beforeAll(async () => {
  d = await startDaemon();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-skill-links-')));
  secret = path.join(tmp, 'secret.txt');
  fs.writeFileSync(secret, `${MARKER}\n`, { mode: 0o600 });
});

afterAll(async () => {
  // SIGKILL when a blocked daemon cannot handle SIGTERM.
  if (d) await Promise.race([d.stop(), new Promise((r) => setTimeout(r, 5_000)).then(() => d.stop('SIGKILL'))]);
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('install from a local directory', () => {
  it.each([
    ['to /etc/passwd', 'scripts/passwd', () => '/etc/passwd'],
    ['to a 0600 file outside, through ..', 'notes.txt', () => '../secret.txt'],
    ['to a 0600 file outside, absolute', 'scripts/secret', () => secret],
    [`to a directory outside (${OUTSIDE_DIR})`, 'include', () => OUTSIDE_DIR],
  ])('a symlink %s fails the job naming the file; nothing reaches the library', async (_what, rel, target) => {
    const name = `l-${rel.replace(/\W/g, '-')}`;
    const dir = skillDir(name);
    fs.symlinkSync(target(), path.join(dir, rel));
    const job = await addJob({ source: dir });
    expect(job.status).toBe('failed');
    expect(job.error).toContain(`"${rel}" is a symlink to ${target()}, outside the source`);
    expect(await libraryNames()).not.toContain(name);
    expect(fs.existsSync(path.join(d.home, 'skills', name))).toBe(false);
    expectHomeClean();
  });

  it('a symlinked SKILL.md (even one pointing inside) is a 400 skill_source_unsafe, in copy and link mode', async () => {
    const dir = skillDir('l-manifest');
    fs.renameSync(path.join(dir, 'SKILL.md'), path.join(dir, 'real.md'));
    fs.symlinkSync('real.md', path.join(dir, 'SKILL.md'));
    for (const mode of ['copy', 'link']) {
      const res = await post('/api/skills/catalog/add', { source: dir, mode });
      expectError(res, 400, 'skill_source_unsafe');
      expect(res.json).toMatchObject({ file: 'SKILL.md', reason: 'symlinked_manifest' });
    }

    const outside = path.join(tmp, 'outside-manifest.md');
    fs.writeFileSync(outside, '---\nname: l-outside\ndescription: "from outside"\n---\n');
    const dir2 = path.join(tmp, 'l-outside');
    fs.mkdirSync(dir2);
    fs.symlinkSync(outside, path.join(dir2, 'SKILL.md'));
    const res = await post('/api/skills/catalog/add', { source: dir2, mode: 'link' });
    expectError(res, 400, 'skill_source_unsafe');
    expect(await libraryNames()).toEqual([]);
  });

  it('a link-mode skill whose files link out is refused like a copy', async () => {
    const dir = skillDir('l-linkmode');
    fs.symlinkSync(secret, path.join(dir, 'secret'));
    const job = await addJob({ source: dir, mode: 'link' });
    expect(job.status).toBe('failed');
    expect(job.error).toContain('"secret" is a symlink');
    expect(fs.existsSync(path.join(d.home, 'skills', 'l-linkmode'))).toBe(false);
  });

  it('a fifo SKILL.md is a 400 at once (the daemon never blocks opening it)', async () => {
    const dir = path.join(tmp, 'l-fifo-manifest');
    fs.mkdirSync(dir);
    execFileSync('mkfifo', [path.join(dir, 'SKILL.md')]);
    // Bounded: a daemon that opens the fifo blocks for good and never answers.
    const res = await Promise.race([
      post('/api/skills/catalog/add', { source: dir }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the daemon did not answer within 5 s')), 5_000)),
    ]);
    expectError(res, 400, 'skill_source_unsafe');
    expect(res.json).toMatchObject({ file: 'SKILL.md', reason: 'special_file' });
    expect((await get('/api/handshake')).status).toBe(200);
  });

  it('a fifo in the source fails the job (no hang)', async () => {
    const dir = skillDir('l-fifo');
    execFileSync('mkfifo', [path.join(dir, 'scripts', 'pipe')]);
    const job = await addJob({ source: dir });
    expect(job.status).toBe('failed');
    expect(job.error).toContain('"scripts/pipe" is a fifo');
  });

  it('a symlinked source root is resolved first; links inside it are copied as their content', async () => {
    const dir = skillDir('l-fine');
    fs.symlinkSync('scripts/run.sh', path.join(dir, 'run-link.sh'));
    const rootLink = path.join(tmp, 'l-fine-link');
    fs.symlinkSync(dir, rootLink);
    const job = await addJob({ source: rootLink });
    expect(job.status, job.error).toBe('completed');
    const installed = path.join(d.home, 'skills', 'l-fine');
    expect(fs.lstatSync(path.join(installed, 'run-link.sh')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(installed, 'run-link.sh'), 'utf8')).toBe('echo hi\n');
    expectHomeClean();
  });
});

describe('install from a git repository (file://)', () => {
  let repo: string;
  beforeAll(() => {
    repo = path.join(tmp, 'repo');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    const skills = path.join(repo, 'skills');
    fs.mkdirSync(skills);
    for (const n of ['g-passwd', 'g-secret', 'g-dir', 'g-manifest', 'g-escape']) {
      fs.mkdirSync(path.join(skills, n));
      fs.writeFileSync(path.join(skills, n, 'SKILL.md'), `---\nname: ${n}\ndescription: "${n}"\n---\n`);
    }
    fs.symlinkSync('/etc/passwd', path.join(skills, 'g-passwd', 'passwd'));
    fs.symlinkSync(secret, path.join(skills, 'g-secret', 'secret'));
    fs.symlinkSync(OUTSIDE_DIR, path.join(skills, 'g-dir', 'include'));
    fs.renameSync(path.join(skills, 'g-manifest', 'SKILL.md'), path.join(skills, 'g-manifest', 'real.md'));
    fs.symlinkSync(secret, path.join(skills, 'g-manifest', 'SKILL.md'));
    // The skill directory itself a link out of the repository.
    fs.rmSync(path.join(skills, 'g-escape'), { recursive: true });
    const target = path.join(tmp, 'escape-target');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'SKILL.md'), '---\nname: g-escape\ndescription: "outside"\n---\n');
    fs.symlinkSync(target, path.join(skills, 'g-escape'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'links');
  });

  it.each([
    ['g-passwd', 'skills/g-passwd/passwd" is a symlink to /etc/passwd'],
    ['g-secret', `skills/g-secret/secret" is a symlink to ${'SECRET'}`],
    ['g-dir', `skills/g-dir/include" is a symlink to ${OUTSIDE_DIR}`],
    ['g-manifest', 'skills/g-manifest/SKILL.md" is a symlink'],
    ['g-escape', 'skills/g-escape" resolves to'],
  ])('%s fails its job naming the file', async (name, message) => {
    const job = await addJob({ source: `file://${repo}#main:skills/${name}` });
    expect(job.status).toBe('failed');
    expect(job.error).toContain(message.replace('SECRET', secret));
    expect(fs.existsSync(path.join(d.home, 'skills', name))).toBe(false);
    expectHomeClean();
  });
});

describe('enable with a private copy, and update', () => {
  it('enabling a workspace skill that links out with copy:true is a 400 and copies nothing', async () => {
    const ws = path.join(tmp, 'ws');
    const w = path.join(ws, '.svc', 'skills', 'w-leak');
    fs.mkdirSync(w, { recursive: true });
    fs.writeFileSync(path.join(w, 'SKILL.md'), '---\nname: w-leak\ndescription: "workspace"\n---\n');
    fs.symlinkSync(secret, path.join(w, 'secret'));
    expect((await post('/api/control/agents/main/workspace/attach', { path: ws })).status).toBeLessThan(300);

    const res = await post('/api/control/agents/main/skills/enable', { name: 'w-leak', copy: true });
    expectError(res, 400, 'skill_source_unsafe');
    expect(res.json).toMatchObject({ file: 'secret', reason: 'symlink_outside' });
    expect((await get('/api/agents/main/skills')).json.skills).toEqual([]);
    expectHomeClean();

    // Without copy the workspace skill is enabled in place (nothing is copied).
    const inPlace = await post('/api/control/agents/main/skills/enable', { name: 'w-leak' });
    expect(inPlace.status, inPlace.text).toBe(200);
    expect(inPlace.json.skill).toMatchObject({ scope: 'workspace' });
  });

  it('update refuses a local source that gained a link out; the installed copy stays as it was', async () => {
    const dir = skillDir('u-later');
    const installed = await addJob({ source: dir });
    expect(installed.status, installed.error).toBe('completed');
    fs.symlinkSync(secret, path.join(dir, 'scripts', 'secret'));

    const check = await post('/api/skills/catalog/check', {});
    const entry = check.json.skills.find((s: { name: string }) => s.name === 'u-later');
    expect(entry).toMatchObject({ status: 'error', error: expect.stringContaining('"scripts/secret" is a symlink') });

    const upd = await post('/api/skills/catalog/update', {});
    expect(upd.status).toBe(202);
    const job = await waitJob(upd.json.job_id);
    expect(job.status, job.error).toBe('completed');
    expect(job.result.failed).toEqual([{ name: 'u-later', error: expect.stringContaining('"scripts/secret" is a symlink') }]);
    expect(fs.readdirSync(path.join(d.home, 'skills', 'u-later', 'scripts'))).toEqual(['run.sh']);
    expectHomeClean();
  });
});

describe('workspace skills', () => {
  /** A skill directory `<parent>/<name>` whose SKILL.md body carries the marker. */
  function skillAt(parent: string, name: string): string {
    const dir = path.join(parent, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: "${name}"\n---\n${MARKER}\n`);
    return dir;
  }

  it('a skill directory that links out of the workspace is neither listed, enabled nor read; a link inside it is fine', async () => {
    const ws = path.join(tmp, 'ws-dirs');
    const skills = path.join(ws, '.svc', 'skills');
    fs.mkdirSync(skills, { recursive: true });
    // .svc/skills/w-out -> a skill directory outside; skills -> a whole root outside.
    fs.symlinkSync(skillAt(path.join(tmp, 'outside-skills'), 'w-out'), path.join(skills, 'w-out'));
    skillAt(path.join(tmp, 'outside-root'), 'w-root');
    fs.symlinkSync(path.join(tmp, 'outside-root'), path.join(ws, 'skills'));
    // .svc/skills/w-in -> ../../lib/w-in, inside the workspace.
    skillAt(path.join(ws, 'lib'), 'w-in');
    fs.symlinkSync(path.join('..', '..', 'lib', 'w-in'), path.join(skills, 'w-in'));
    expect((await post('/api/control/agents/wsl/create', {})).status).toBe(201);
    expect((await post('/api/control/agents/wsl/workspace/attach', { path: ws })).status).toBeLessThan(300);

    const catalog = await get('/api/skills/catalog?agent_id=wsl');
    const workspaceNames = (catalog.json.skills as Array<{ name: string; scope: string }>).filter((s) => s.scope === 'workspace').map((s) => s.name);
    expect(workspaceNames).toEqual(['w-in']);
    const invalid = catalog.json.invalid as Array<{ path: string; error: string }>;
    expect(invalid).toEqual(
      expect.arrayContaining([
        { path: path.join(skills, 'w-out'), error: expect.stringContaining('outside the workspace') },
        { path: path.join(ws, 'skills', 'w-root'), error: expect.stringContaining('outside the workspace') },
      ]),
    );
    expectError(await get('/api/skills/catalog/workspace:w-out?agent_id=wsl'), 404, 'skill_not_found');
    expectError(await post('/api/control/agents/wsl/skills/enable', { name: 'w-out' }), 404, 'skill_not_found');
    expect((await post('/api/control/agents/wsl/skills/enable', { name: 'w-in' })).status).toBe(200);
  });

  it('an enabled workspace skill whose directory later becomes a link out is unavailable and not read', async () => {
    const ws = path.join(tmp, 'ws-swap');
    const dir = skillAt(path.join(ws, '.svc', 'skills'), 'w-swap');
    expect((await post('/api/control/agents/wss/create', {})).status).toBe(201);
    expect((await post('/api/control/agents/wss/workspace/attach', { path: ws })).status).toBeLessThan(300);
    expect((await post('/api/control/agents/wss/skills/enable', { name: 'w-swap' })).status).toBe(200);

    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(skillAt(path.join(tmp, 'outside-swap'), 'w-swap'), dir);
    const listed = await get('/api/agents/wss/skills');
    expect(listed.json.skills).toEqual([expect.objectContaining({ name: 'w-swap', scope: 'workspace', available: false })]);
    const detail = await get('/api/agents/wss/skills/workspace:w-swap');
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain(MARKER);
  });

  it('open_skill opens a workspace skill inside the workspace and refuses one that links out', async () => {
    const t = testServices();
    try {
      const ws = path.join(tmp, 'ws-open');
      const skills = path.join(ws, '.svc', 'skills');
      skillAt(skills, 'w-here');
      fs.symlinkSync(skillAt(path.join(tmp, 'outside-open'), 'w-there'), path.join(skills, 'w-there'));
      t.s.workspaces.attach('main', ws);
      const opened = await t.s.skillUse.open('main', null, 'w-here');
      expect(opened).toMatchObject({ scope: 'workspace', file: 'SKILL.md' });
      await expect(t.s.skillUse.open('main', null, 'w-there')).rejects.toMatchObject({ status: 404, code: 'skill_not_found' });
      expect(t.s.skillUse.promptSection('main')).not.toContain('w-there');
    } finally {
      await t.close();
    }
  });
});
