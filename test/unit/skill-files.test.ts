/**
 * The walk, hash and copy of a skill's files (src/runtime/skills/skill-files.ts): what a copy
 * holds, which symlinks and special files are refused (named relative to the source, with a
 * reason), the caps, the content hash's format, a file swapped after the walk, and the atomic
 * placement; and readManifest refusing a SKILL.md that is not a regular file.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { copySkill, hashSkill, isInside, placeAtomically, walkSkill } from '../../src/runtime/skills/skill-files.js';
import { readManifest } from '../../src/runtime/skills/skill-sources.js';

let tmp: string;
let src: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-skill-files-')));
  src = path.join(tmp, 'src');
  fs.mkdirSync(src);
  fs.writeFileSync(path.join(src, 'SKILL.md'), '---\nname: s\ndescription: d\n---\n');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, content = rel, mode?: number): string {
  const p = path.join(src, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content, mode === undefined ? undefined : { mode });
  return p;
}

/** The AppError a promise rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a refusal').toBeInstanceOf(AppError);
  return err as AppError;
}

/** Every path under `dir`, with a marker for symlinks. */
function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const n of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${n}` : n;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isSymbolicLink()) out.push(`${r}@`);
      else if (st.isDirectory()) {
        out.push(`${r}/`);
        walk(r);
      } else out.push(r);
    }
  };
  walk('');
  return out;
}

describe('walkSkill and copySkill', () => {
  it('copies files and directories, skips .git, keeps the executable bit, and copies links inside the source as their content', async () => {
    write('scripts/run.sh', 'echo hi\n', 0o755);
    write('docs/a.md', 'A');
    write('.git/HEAD', 'ref');
    fs.symlinkSync('docs/a.md', path.join(src, 'a-link.md'));
    fs.symlinkSync('docs', path.join(src, 'docs-link'));
    const tree = await walkSkill(src);
    expect(tree.entries.map((e) => `${e.type}:${e.rel}`)).toEqual([
      'file:SKILL.md',
      'file:a-link.md',
      'dir:docs',
      'file:docs/a.md',
      'dir:docs-link',
      'file:docs-link/a.md',
      'dir:scripts',
      'file:scripts/run.sh',
    ]);
    const dest = path.join(tmp, 'dest');
    await copySkill(tree, dest);
    expect(listTree(dest)).toEqual(['SKILL.md', 'a-link.md', 'docs/', 'docs/a.md', 'docs-link/', 'docs-link/a.md', 'scripts/', 'scripts/run.sh']);
    expect(fs.readFileSync(path.join(dest, 'a-link.md'), 'utf8')).toBe('A');
    expect(fs.statSync(path.join(dest, 'scripts', 'run.sh')).mode & 0o100).toBe(0o100);
  });

  it('refuses a symlink to /etc/passwd, naming the file relative to the source', async () => {
    fs.symlinkSync('/etc/passwd', path.join(src, 'passwd'));
    const err = await refusal(walkSkill(src));
    expect(err).toMatchObject({ status: 400, code: 'skill_source_unsafe', extra: { file: 'passwd', reason: 'symlink_outside' } });
    expect(err.message).toMatch(/"passwd" is a symlink to \/etc\/passwd, outside the source/);
  });

  it('refuses links out through .., to a 0600 file, to a directory, and to a sibling sharing the root as a string prefix', async () => {
    const secret = path.join(tmp, 'secret.txt');
    fs.writeFileSync(secret, 'top secret', { mode: 0o600 });
    fs.mkdirSync(path.join(tmp, 'src-evil'));
    fs.writeFileSync(path.join(tmp, 'src-evil', 'x'), 'evil');
    const cases: Array<[string, string]> = [
      ['a/dotdot', '../../secret.txt'],
      ['b/abs', secret],
      ['c/dir', os.platform() === 'linux' ? '/usr/include' : '/usr'],
      ['d/prefix', path.join(tmp, 'src-evil', 'x')],
    ];
    for (const [rel, target] of cases) {
      const link = path.join(src, rel);
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(target, link);
      const err = await refusal(walkSkill(src));
      expect(err.extra, rel).toEqual({ file: rel, reason: 'symlink_outside' });
      fs.unlinkSync(link);
    }
  });

  it('refuses a skill directory that resolves outside the source root, and resolves a symlinked root first', async () => {
    fs.mkdirSync(path.join(tmp, 'elsewhere'));
    fs.writeFileSync(path.join(tmp, 'elsewhere', 'SKILL.md'), 'x');
    fs.mkdirSync(path.join(src, 'skills'));
    fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(src, 'skills', 'out'));
    const err = await refusal(walkSkill(path.join(src, 'skills', 'out'), { root: src }));
    expect(err.extra).toEqual({ file: 'skills/out', reason: 'outside_source' });

    // The root given as a symlink: links into the real root are inside.
    fs.rmSync(path.join(src, 'skills'), { recursive: true });
    write('data.txt', 'D');
    fs.symlinkSync(path.join(src, 'data.txt'), path.join(src, 'abs-inside'));
    const rootLink = path.join(tmp, 'root-link');
    fs.symlinkSync(src, rootLink);
    const tree = await walkSkill(rootLink);
    expect(tree.root).toBe(src);
    expect(tree.entries.map((e) => e.rel)).toEqual(['SKILL.md', 'abs-inside', 'data.txt']);
  });

  it('refuses a symlinked SKILL.md even when it points inside the source', async () => {
    fs.renameSync(path.join(src, 'SKILL.md'), path.join(src, 'real.md'));
    fs.symlinkSync('real.md', path.join(src, 'SKILL.md'));
    const err = await refusal(walkSkill(src));
    expect(err.extra).toEqual({ file: 'SKILL.md', reason: 'symlinked_manifest' });
    expect(() => readManifest(src, src)).toThrow(/"SKILL\.md" is a symlink/);
  });

  it('refuses broken links and loops', async () => {
    fs.symlinkSync('nowhere', path.join(src, 'broken'));
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'broken', reason: 'broken_symlink' });
    fs.unlinkSync(path.join(src, 'broken'));
    fs.symlinkSync('self', path.join(src, 'self'));
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'self', reason: 'symlink_loop' });
    fs.unlinkSync(path.join(src, 'self'));
    fs.mkdirSync(path.join(src, 'sub'));
    fs.symlinkSync('..', path.join(src, 'sub', 'up'));
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'sub/up', reason: 'symlink_loop' });
  });

  it('refuses fifos, sockets and devices, also behind a link inside the source', async () => {
    execFileSync('mkfifo', [path.join(src, 'pipe')]);
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'pipe', reason: 'special_file' });
    fs.unlinkSync(path.join(src, 'pipe'));

    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(src, 'sock'), resolve));
    try {
      const err = await refusal(walkSkill(src));
      expect(err.extra).toEqual({ file: 'sock', reason: 'special_file' });
      expect(err.message).toMatch(/is a socket/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }

    fs.symlinkSync('/dev/null', path.join(src, 'null'));
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'null', reason: 'symlink_outside' });
    const inside = path.join(src, 'dev');
    fs.unlinkSync(path.join(src, 'null'));
    fs.symlinkSync('/dev', inside);
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'dev', reason: 'symlink_outside' });
  });

  it('a fifo SKILL.md is refused without blocking on it', async () => {
    fs.unlinkSync(path.join(src, 'SKILL.md'));
    execFileSync('mkfifo', [path.join(src, 'SKILL.md')]);
    expect((await refusal(walkSkill(src))).extra).toEqual({ file: 'SKILL.md', reason: 'special_file' });
    expect(() => readManifest(src)).toThrow(/not a regular file/);
  });

  it('caps the bytes and the files and directories of a skill, naming the file that crosses', async () => {
    write('a.bin', 'x'.repeat(60));
    write('b.bin', 'x'.repeat(60));
    const big = await refusal(walkSkill(src, { limits: { maxBytes: 100, maxFiles: 100 } }));
    expect(big).toMatchObject({ code: 'skill_too_large', extra: { file: 'b.bin', limit: 'max_bytes' } });
    expect(big.message).toMatch(/past 100 bytes/);

    write('d/c.txt');
    const many = await refusal(walkSkill(src, { limits: { maxBytes: 1_000_000, maxFiles: 4 } }));
    expect(many).toMatchObject({ code: 'skill_too_large', extra: { limit: 'max_files' } });
    expect(many.message).toMatch(/at most 4 files and directories/);
    expect((await walkSkill(src, { limits: { maxBytes: 1_000_000, maxFiles: 5 } })).entries).toHaveLength(5);
  });

  it('a file that grew after the walk is refused, so the byte cap holds for what is read', async () => {
    write('a.bin', 'x'.repeat(10));
    const tree = await walkSkill(src, { limits: { maxBytes: 100, maxFiles: 10 } });
    fs.appendFileSync(path.join(src, 'a.bin'), 'y'.repeat(200));
    const err = await refusal(copySkill(tree, path.join(tmp, 'dest')));
    expect(err).toMatchObject({ code: 'skill_source_unsafe', extra: { file: 'a.bin', reason: 'changed' } });
    expect(err.message).toMatch(/grew past the 10 bytes/);
    expect((await refusal(hashSkill(tree))).extra).toEqual({ file: 'a.bin', reason: 'changed' });
  });

  it('streams large files in the copy and the hash', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'z');
    write('big.bin', big.toString());
    const tree = await walkSkill(src);
    const dest = path.join(tmp, 'dest');
    await copySkill(tree, dest);
    expect(fs.readFileSync(path.join(dest, 'big.bin')).equals(big)).toBe(true);
    const h = createHash('sha256');
    h.update('SKILL.md\0').update(fs.readFileSync(path.join(src, 'SKILL.md'))).update('\0').update('big.bin\0').update(big).update('\0');
    expect(await hashSkill(tree)).toBe(`sha256:${h.digest('hex')}`);
  });

  it('a file swapped for a symlink out after the walk is not followed', async () => {
    const victim = write('notes.txt', 'fine');
    const tree = await walkSkill(src);
    fs.unlinkSync(victim);
    fs.symlinkSync('/etc/passwd', victim);
    const err = await refusal(copySkill(tree, path.join(tmp, 'dest')));
    expect(err.extra).toEqual({ file: 'notes.txt', reason: 'changed' });
    const passwd = fs.readFileSync('/etc/passwd', 'utf8');
    const copied = fs.existsSync(path.join(tmp, 'dest', 'notes.txt')) ? fs.readFileSync(path.join(tmp, 'dest', 'notes.txt'), 'utf8') : '';
    expect(copied).not.toBe(passwd);
  });

  it('names files relative to the source when the skill is a subdirectory', async () => {
    fs.mkdirSync(path.join(src, 'skills', 'k'), { recursive: true });
    fs.writeFileSync(path.join(src, 'skills', 'k', 'SKILL.md'), 'x');
    fs.symlinkSync('/etc/passwd', path.join(src, 'skills', 'k', 'p'));
    const err = await refusal(walkSkill(path.join(src, 'skills', 'k'), { root: src }));
    expect(err.extra).toEqual({ file: 'skills/k/p', reason: 'symlink_outside' });
  });
});

describe('hashSkill', () => {
  it('is sha256 over each file path, NUL, content, NUL in walk order (the format lock files hold)', async () => {
    write('b/x.txt', 'X');
    write('a.txt', 'A');
    const h = createHash('sha256');
    for (const [rel, content] of [
      ['SKILL.md', fs.readFileSync(path.join(src, 'SKILL.md'))],
      ['a.txt', 'A'],
      ['b/x.txt', 'X'],
    ] as const) {
      h.update(`${rel}\0`);
      h.update(content);
      h.update('\0');
    }
    expect(await hashSkill(await walkSkill(src))).toBe(`sha256:${h.digest('hex')}`);
  });
});

describe('placeAtomically', () => {
  it('a failing fill leaves nothing behind; replace swaps the old directory out', async () => {
    const parent = path.join(tmp, 'lib');
    const dest = path.join(parent, 'k');
    await expect(
      placeAtomically(
        dest,
        async (staging) => {
          fs.mkdirSync(staging);
          fs.writeFileSync(path.join(staging, 'half'), 'x');
          throw new Error('boom');
        },
        { replace: false },
      ),
    ).rejects.toThrow('boom');
    expect(fs.readdirSync(parent)).toEqual([]);

    await placeAtomically(dest, async (s) => fs.mkdirSync(s), { replace: false });
    fs.writeFileSync(path.join(dest, 'old'), 'o');
    await expect(placeAtomically(dest, async (s) => fs.mkdirSync(s), { replace: false })).rejects.toThrow(/already exists/);
    await placeAtomically(
      dest,
      async (s) => {
        fs.mkdirSync(s);
        fs.writeFileSync(path.join(s, 'new'), 'n');
      },
      { replace: true },
    );
    expect(fs.readdirSync(parent)).toEqual(['k']);
    expect(fs.readdirSync(dest)).toEqual(['new']);
  });
});

describe('isInside', () => {
  it('compares path segments, not string prefixes', () => {
    expect(isInside('/a/src', '/a/src')).toBe(true);
    expect(isInside('/a/src', '/a/src/x/y')).toBe(true);
    expect(isInside('/a/src', '/a/src-evil/x')).toBe(false);
    expect(isInside('/a/src', '/a')).toBe(false);
    expect(isInside('/a/src', '/a/src/..x')).toBe(true);
  });
});
