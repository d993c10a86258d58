/**
 * Skills building blocks: SKILL.md frontmatter, source normalisation (paths, git URLs with #ref
 * and #ref:path, owner/repo/path@ref and #ref), the lock file, locating a skill in a tree, content
 * hashes; and the SkillService in-process: enablement and its removal with the agent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { hashSkill, walkSkill } from '../../src/runtime/skills/skill-files.js';
import {
  LOCK_FILE,
  locateSkill,
  normaliseSource,
  parseFrontmatter,
  readLock,
  readManifest,
  SourceError,
  sourceString,
  writeLock,
  type LockEntry,
} from '../../src/runtime/skills/skill-sources.js';
import { testServices, type TestServices } from '../helpers/services.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-skills-unit-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function skill(dir: string, text: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
  return dir;
}

describe('parseFrontmatter', () => {
  it('reads key: value lines, unquoting single and double quotes', () => {
    const fm = parseFrontmatter(`---\nname: pdf-tools\ndescription: "Read: and write PDFs"\nlicense: 'it''s MIT'\nversion: 2 # comment\n---\n# Body\ntext\n`);
    expect(fm.fields).toEqual({ name: 'pdf-tools', description: 'Read: and write PDFs', license: "it's MIT", version: '2' });
    expect(fm.body).toBe('# Body\ntext\n');
  });

  it('reads block scalars and ignores nested structures and comments', () => {
    const fm = parseFrontmatter(
      '---\r\n# a comment\r\nname: x\r\ndescription: >\r\n  folded over\r\n  two lines\r\nnotes: |\r\n  kept\r\n  lines\r\nmetadata:\r\n  nested: 1\r\n---\r\nbody',
    );
    expect(fm.fields).toEqual({ name: 'x', description: 'folded over two lines', notes: 'kept\nlines', metadata: '' });
    expect(fm.body).toBe('body');
  });

  it('no frontmatter (or an unterminated one) yields no fields', () => {
    expect(parseFrontmatter('# just markdown\n').fields).toEqual({});
    expect(parseFrontmatter('---\nname: x\n').fields).toEqual({});
    expect(parseFrontmatter('\uFEFF---\nname: x\ndescription: y\n---\n').fields).toEqual({ name: 'x', description: 'y' });
  });

  it('readManifest demands name and description and a directory-safe name', () => {
    expect(readManifest(skill(path.join(tmp, 'ok'), '---\nname: ok\ndescription: fine\n---\n'))).toMatchObject({ name: 'ok', description: 'fine' });
    expect(() => readManifest(path.join(tmp, 'missing'))).toThrow(/no SKILL\.md/);
    expect(() => readManifest(skill(path.join(tmp, 'a'), '---\nname: a\n---\n'))).toThrow(/no description/);
    expect(() => readManifest(skill(path.join(tmp, 'b'), '---\ndescription: d\n---\n'))).toThrow(/no name/);
    expect(() => readManifest(skill(path.join(tmp, 'c'), '---\nname: ../evil\ndescription: d\n---\n'))).toThrow(/must match/);
  });
});

describe('normaliseSource', () => {
  it('absolute and ~ paths are local directories', () => {
    expect(normaliseSource('/srv/skills/pdf/')).toEqual({ type: 'local', path: '/srv/skills/pdf' });
    expect(normaliseSource('~/skills/pdf', '/home/me')).toEqual({ type: 'local', path: '/home/me/skills/pdf' });
  });

  it('git URLs take #ref and #ref:path', () => {
    expect(normaliseSource('file:///tmp/repo')).toEqual({ type: 'git', url: 'file:///tmp/repo', ref: null, subdir: null });
    expect(normaliseSource('file:///tmp/repo#main')).toEqual({ type: 'git', url: 'file:///tmp/repo', ref: 'main', subdir: null });
    expect(normaliseSource('https://example.com/a/b.git#v1.2:skills/pdf/')).toEqual({
      type: 'git',
      url: 'https://example.com/a/b.git',
      ref: 'v1.2',
      subdir: 'skills/pdf',
    });
    expect(normaliseSource('git@github.com:o/r.git#:x')).toEqual({ type: 'git', url: 'git@github.com:o/r.git', ref: null, subdir: 'x' });
  });

  it('owner/repo/path@ref and #ref are normalised to the GitHub URL', () => {
    const want = { type: 'git', url: 'https://github.com/acme/skills', ref: 'v2', subdir: 'skills/pdf' };
    expect(normaliseSource('acme/skills/skills/pdf@v2')).toEqual(want);
    expect(normaliseSource('acme/skills/skills/pdf#v2')).toEqual(want);
    expect(normaliseSource('acme/skills')).toEqual({ type: 'git', url: 'https://github.com/acme/skills', ref: null, subdir: null });
    expect(normaliseSource('acme/skills.git@main')).toEqual({ type: 'git', url: 'https://github.com/acme/skills', ref: 'main', subdir: null });
    expect(sourceString(normaliseSource('acme/skills/skills/pdf@v2'))).toBe('https://github.com/acme/skills#v2');
  });

  it.each(['', '   ', './x/y', '../x', 'just-a-word', 'acme/skills/../../etc@main', 'file:///r#ma..in', 'acme/skills@bad ref', 'file:///r#main:a/../../b'])(
    'rejects %j',
    (input) => {
      expect(() => normaliseSource(input)).toThrow(SourceError);
    },
  );
});

describe('lock file', () => {
  const entry: LockEntry = {
    source: 'file:///r#main',
    source_type: 'git',
    url: 'file:///r',
    ref: 'main',
    subdir: 'skills/a',
    mode: 'copy',
    etag: 'abc',
    installed_at: 't0',
    updated_at: 't0',
  };

  it('round-trips with source, subdir, mode and etag per skill, sorted by name', () => {
    expect(readLock(tmp)).toEqual({ version: 1, skills: {} });
    writeLock(tmp, { version: 1, skills: { zz: entry, aa: { ...entry, mode: 'link' } } });
    const text = fs.readFileSync(path.join(tmp, LOCK_FILE), 'utf8');
    expect(Object.keys(JSON.parse(text).skills)).toEqual(['aa', 'zz']);
    expect(readLock(tmp).skills.zz).toEqual(entry);
    expect((fs.statSync(path.join(tmp, LOCK_FILE)).mode & 0o777).toString(8)).toBe('600');
  });

  it('a corrupt lock file is kept aside, not lost', () => {
    fs.writeFileSync(path.join(tmp, LOCK_FILE), '{nope');
    expect(readLock(tmp)).toEqual({ version: 1, skills: {} });
    expect(fs.readdirSync(tmp).some((f) => f.startsWith(`${LOCK_FILE}.corrupt-`))).toBe(true);
  });
});

describe('locateSkill and contentHash', () => {
  it('finds the root skill, the only skills/<name>, or names the candidates', () => {
    const root = skill(path.join(tmp, 'root'), '---\nname: r\ndescription: d\n---\n');
    expect(locateSkill(root, null)).toBe(root);
    const one = path.join(tmp, 'one');
    skill(path.join(one, 'skills', 'a'), 'x');
    expect(locateSkill(one, null)).toBe(path.join(one, 'skills', 'a'));
    skill(path.join(one, 'skills', 'b'), 'x');
    expect(() => locateSkill(one, null)).toThrow(/2 skills \(skills\/a, skills\/b\)/);
    expect(locateSkill(one, 'skills/b')).toBe(path.join(one, 'skills', 'b'));
    expect(() => locateSkill(one, 'nope')).toThrow(/no directory nope/);
    fs.mkdirSync(path.join(tmp, 'empty'));
    expect(() => locateSkill(path.join(tmp, 'empty'), null)).toThrow(/no SKILL\.md/);
  });

  it('changes when a file changes, ignoring .git', async () => {
    const contentHash = async (dir: string) => hashSkill(await walkSkill(dir));
    const dir = skill(path.join(tmp, 'h'), 'v1');
    const h1 = await contentHash(dir);
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'x');
    expect(await contentHash(dir)).toBe(h1);
    fs.writeFileSync(path.join(dir, 'SKILL.md'), 'v2');
    expect(await contentHash(dir)).not.toBe(h1);
  });
});

describe('SkillService', () => {
  let t: TestServices;
  beforeEach(() => {
    t = testServices();
  });
  afterEach(async () => t.close());

  it('an invalid source is a 400 invalid_skill_source AppError; a valid one a job that installs', async () => {
    const err = (() => {
      try {
        t.s.skills.add({ source: 'nope' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_skill_source');
    expect((err as AppError).status).toBe(400);

    const src = skill(path.join(tmp, 'k'), '---\nname: k\ndescription: kay\n---\n');
    const r = t.s.skills.add({ source: src });
    expect('job' in r).toBe(true);
    await t.s.skills.idle();
    const job = t.s.jobs.get((r as { job: { job_id: string } }).job.job_id);
    expect(job.status, job.error ?? '').toBe('completed');
    expect(t.s.skills.catalog().skills.map((x) => x.skill_id)).toContain('user:k');
    expect('existing' in t.s.skills.add({ source: src })).toBe(true);
  });

  it('removing a library skill disables it for the agents that had it, each with an event', async () => {
    skill(path.join(t.home, 'skills', 'k'), '---\nname: k\ndescription: kay\n---\n');
    t.s.agents.create('a3', {}, () => null);
    await t.s.skills.enable('a3', 'k');
    const removed = await t.s.skills.remove('k');
    expect(removed.disabled_for).toEqual(['a3']);
    const kinds = t.s.events.page('a3', { limit: 100, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type.startsWith('skill_'));
    expect(kinds.map((e) => [e.type, e.payload.name, e.payload.reason ?? null])).toEqual([
      ['skill_enabled', 'k', null],
      ['skill_disabled', 'k', 'removed_from_library'],
    ]);
  });

  it('enablement is removed when the agent is deleted', async () => {
    skill(path.join(t.home, 'skills', 'k'), '---\nname: k\ndescription: kay\n---\n');
    t.s.agents.create('a2', {}, () => null);
    expect((await t.s.skills.enable('a2', 'k')).skill.scope).toBe('user');
    expect(t.s.skills.stateFor('a2')).toEqual([{ name: 'k', scope: 'user' }]);
    t.s.deletion.request('a2', { cascadePrivateChildren: false });
    await t.s.deletion.idle();
    expect(t.s.store.db.prepare("SELECT count(*) AS n FROM agent_skills WHERE agent_id = 'a2'").get()).toEqual({ n: 0 });
  });
});
