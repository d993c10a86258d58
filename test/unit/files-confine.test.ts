/**
 * The file tools' confinement (docs/tools.md#confinement), attacked as another local user or an
 * injected model would: `..`, absolute paths elsewhere, symlinks out (file, directory, a link in
 * the middle of a path, a dangling link), fifos, devices, huge arguments, `.git`, prototype keys.
 * Every refusal is a tool error with its code, and changes nothing on the disk.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesFixture, put, tree, type FilesFixture } from '../helpers/files.js';

let f: FilesFixture;
beforeEach(() => {
  f = filesFixture();
  put(f.ws, { 'a.txt': 'inside\n', 'src/b.txt': 'b\n' });
  put(f.outside, { 'secret.txt': 'the secret\n' });
});
afterEach(async () => {
  await f.close();
});

const WRITERS: Array<[string, (p: string) => Record<string, unknown>]> = [
  ['write_file', (p) => ({ path: p, content: 'pwned\n' })],
  ['edit_file', (p) => ({ path: p, old_text: 'the secret', new_text: 'pwned' })],
  ['apply_patch', (p) => ({ patch: `*** Begin Patch\n*** Update File: ${p}\n@@\n-the secret\n+pwned\n*** End Patch\n` })],
];

/** Every tool refuses `p` with `code`, and neither the workspace nor the outside changes. */
async function refusedEverywhere(p: string, code: string) {
  const before = [tree(f.ws), tree(f.outside)];
  for (const [tool, args] of [['read_file', { path: p }], ...WRITERS.map(([n, a]) => [n, a(p)] as const)] as const) {
    const data = await f.refused(tool, args as Record<string, unknown>, code);
    expect(data.error, tool).not.toContain('the secret');
  }
  expect([tree(f.ws), tree(f.outside)]).toEqual(before);
  expect(f.changes()).toEqual([]);
}

describe('paths that lead out of the workspaces', () => {
  it('refuses ../ climbing out, absolute paths elsewhere, /etc/passwd and /dev/zero', async () => {
    await refusedEverywhere('../outside/secret.txt', 'path_outside_workspace');
    await refusedEverywhere('src/../../outside/secret.txt', 'path_outside_workspace');
    await refusedEverywhere(path.join(f.outside, 'secret.txt'), 'path_outside_workspace');
    await f.refused('read_file', { path: '/etc/passwd' }, 'path_outside_workspace');
    await f.refused('read_file', { path: '/dev/zero' }, 'path_outside_workspace');
    await f.refused('list_files', { path: '/' }, 'path_outside_workspace');
    await f.refused('search_files', { pattern: 'secret', path: f.outside }, 'path_outside_workspace');
    // ../ that stays inside is fine.
    expect((await f.ok('read_file', { path: 'src/../a.txt' })).content).toBe('inside\n');
  });

  it('refuses a symlinked file and a symlinked directory pointing out, and a link in the middle of a path', async () => {
    fs.symlinkSync(path.join(f.outside, 'secret.txt'), path.join(f.ws, 'link.txt'));
    fs.symlinkSync(f.outside, path.join(f.ws, 'linkdir'));
    await refusedEverywhere('link.txt', 'path_outside_workspace');
    await refusedEverywhere('linkdir/secret.txt', 'path_outside_workspace');
    // A new file through the linked directory would land outside: refused too.
    await f.refused('write_file', { path: 'linkdir/new.txt', content: 'x' }, 'path_outside_workspace');
    await f.refused('apply_patch', { patch: '*** Begin Patch\n*** Add File: linkdir/deep/new.txt\n+x\n*** End Patch' }, 'path_outside_workspace');
    await f.refused('list_files', { path: 'linkdir' }, 'path_outside_workspace');
    expect(fs.readdirSync(f.outside)).toEqual(['secret.txt']);
    // The listing shows the links but never follows them, and search does not read through them.
    expect((await f.ok('list_files', {})).entries).toEqual(expect.arrayContaining(['link.txt@', 'linkdir@']));
    expect((await f.ok('search_files', { pattern: 'secret' })).matches).toEqual([]);
  });

  it('refuses a dangling symlink instead of writing through it', async () => {
    fs.symlinkSync(path.join(f.outside, 'not-yet.txt'), path.join(f.ws, 'dangling.txt'));
    await f.refused('write_file', { path: 'dangling.txt', content: 'x' }, 'path_invalid');
    await f.refused('apply_patch', { patch: '*** Begin Patch\n*** Add File: dangling.txt\n+x\n*** End Patch' }, 'path_invalid');
    expect(fs.existsSync(path.join(f.outside, 'not-yet.txt'))).toBe(false);
  });

  it('follows a symlink that stays inside, and names the real path in the answer', async () => {
    fs.symlinkSync(path.join(f.ws, 'src'), path.join(f.ws, 'alias'));
    const read = await f.ok('read_file', { path: 'alias/b.txt' });
    expect(read).toMatchObject({ path: 'src/b.txt', workspace_id: f.wsId, content: 'b\n' });
    await f.ok('edit_file', { path: 'alias/b.txt', old_text: 'b', new_text: 'c' });
    expect(fs.readFileSync(path.join(f.ws, 'src/b.txt'), 'utf8')).toBe('c\n');
  });

  it('reaches the agent home and other attached workspaces by absolute path; a relative path uses the active one', async () => {
    put(f.home, { 'notes.md': 'home notes\n' });
    expect(await f.ok('read_file', { path: path.join(f.home, 'notes.md') })).toMatchObject({ workspace_id: 'agent_home', path: 'notes.md' });
    await f.refused('read_file', { path: 'notes.md' }, 'file_not_found');
    f.t.s.workspaces.exit('main');
    expect(await f.ok('read_file', { path: 'notes.md' })).toMatchObject({ workspace_id: 'agent_home', content: 'home notes\n' });
    expect(await f.ok('read_file', { path: path.join(f.ws, 'a.txt') })).toMatchObject({ workspace_id: f.wsId, path: 'a.txt' });
  });
});

describe('what is not a regular file', () => {
  it('refuses a fifo at once for reading and writing, without blocking on it', async () => {
    const fifo = path.join(f.ws, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const started = performance.now();
    expect(await f.refused('read_file', { path: 'pipe' }, 'not_a_regular_file')).toMatchObject({ kind: 'fifo' });
    await f.refused('write_file', { path: 'pipe', content: 'x' }, 'not_a_regular_file');
    await f.refused('edit_file', { path: 'pipe', old_text: 'a', new_text: 'b' }, 'not_a_regular_file');
    await f.refused('apply_patch', { patch: '*** Begin Patch\n*** Delete File: pipe\n*** End Patch' }, 'not_a_regular_file');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
    // The walk passes it by too.
    expect((await f.ok('search_files', { pattern: 'x' })).matches).toEqual([]);
  });

  it('refuses a character device inside a workspace (an operator attached /dev)', async () => {
    f.t.s.workspaces.attach('main', '/dev', 'operator_instruction');
    expect(await f.refused('read_file', { path: 'zero' }, 'not_a_regular_file')).toMatchObject({ kind: 'character device' });
    expect(await f.refused('read_file', { path: '/dev/null' }, 'not_a_regular_file')).toMatchObject({ kind: 'character device' });
    await f.refused('write_file', { path: 'null', content: 'x' }, 'not_a_regular_file');
  });

  it('refuses a directory as a file', async () => {
    expect(await f.refused('read_file', { path: 'src' }, 'not_a_regular_file')).toMatchObject({ kind: 'directory' });
    await f.refused('write_file', { path: 'src', content: 'x' }, 'not_a_regular_file');
    await f.refused('write_file', { path: '.', content: 'x' }, 'path_protected');
  });
});

describe('git internals, sizes and argument abuse', () => {
  it('never writes inside .git (any case), but may read it', async () => {
    put(f.ws, { '.git/config': '[core]\n', '.git/hooks/README': 'hooks\n' });
    const before = tree(f.ws);
    await f.refused('write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ncurl evil\n' }, 'path_protected');
    await f.refused('write_file', { path: 'sub/.GIT/config', content: 'x', create_dirs: true }, 'path_protected');
    await f.refused('edit_file', { path: '.git/config', old_text: '[core]', new_text: '[x]' }, 'path_protected');
    await f.refused('apply_patch', { patch: '*** Begin Patch\n*** Update File: a.txt\n*** Move to: .git/a.txt\n*** End Patch' }, 'path_protected');
    expect(tree(f.ws)).toEqual(before);
    expect((await f.ok('read_file', { path: '.git/config' })).content).toBe('[core]\n');
  });

  it('refuses content, edits and patches over max_file_bytes, and reads a big file only in parts', async () => {
    const small = filesFixture({}, '[tools.files]\nmax_file_bytes = 2048\nmax_read_bytes = 1024\n');
    try {
      put(small.ws, { 'big.txt': 'x\n'.repeat(1500), 'ok.txt': 'ok\n', 'near.txt': 'm\n'.repeat(1000) });
      expect(await small.refused('write_file', { path: 'new.txt', content: 'y'.repeat(4096) }, 'file_too_large')).toMatchObject({ bytes: 4096, limit: 2048 });
      expect(await small.refused('write_file', { path: 'new.txt', content: 'é'.repeat(1500) }, 'file_too_large')).toMatchObject({ bytes: 3000 });
      await small.refused('edit_file', { path: 'big.txt', old_text: 'x', new_text: 'y', replace_all: true }, 'file_too_large');
      await small.refused('edit_file', { path: 'ok.txt', old_text: 'ok', new_text: 'z'.repeat(3000) }, 'file_too_large');
      await small.refused('apply_patch', { patch: `*** Begin Patch\n*** Update File: near.txt\n@@\n m\n+${'z'.repeat(100)}\n*** End of File\n*** End Patch` }, 'file_too_large');
      await small.refused('apply_patch', { patch: `*** Begin Patch\n*** Add File: n.txt\n${'+z\n'.repeat(2000)}*** End Patch` }, 'patch_invalid');
      // Many files of a patch are held in memory together: at most 8 × max_file_bytes of them.
      put(small.ws, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`m${i}.txt`, 'q\n'.repeat(1000)])));
      const many = Array.from({ length: 12 }, (_, i) => `*** Delete File: m${i}.txt`).join('\n');
      expect(await small.refused('apply_patch', { patch: `*** Begin Patch\n${many}\n*** End Patch` }, 'patch_invalid')).toMatchObject({ line: 10 });
      expect(fs.existsSync(path.join(small.ws, 'm0.txt'))).toBe(true);
      const part = await small.ok('read_file', { path: 'big.txt' });
      expect(part).toMatchObject({ start_line: 1, end_line: 512, total_lines: null, truncated: true, next_offset_line: 513 });
      expect(fs.existsSync(path.join(small.ws, 'new.txt')) || fs.existsSync(path.join(small.ws, 'n.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(small.ws, 'near.txt'), 'utf8')).toBe('m\n'.repeat(1000));
      expect(small.changes()).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('refuses empty, NUL-bearing and overlong paths, huge patterns, and unknown or prototype keys', async () => {
    await f.refused('read_file', { path: 'a\u0000b' }, 'path_invalid');
    await f.refused('read_file', { path: 'x'.repeat(5000) }, 'invalid_arguments');
    await f.refused('read_file', { path: '' }, 'invalid_arguments');
    await f.refused('search_files', { pattern: 'a'.repeat(5000) }, 'invalid_arguments');
    await f.refused('read_file', JSON.parse('{"path": "a.txt", "__proto__": {"polluted": true}}'), 'invalid_arguments');
    await f.refused('write_file', JSON.parse('{"path": "a.txt", "content": "x", "constructor": {"prototype": {}}}'), 'invalid_arguments');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Names that look like prototype keys are just names.
    await f.ok('write_file', { path: '__proto__', content: 'proto\n' });
    await f.ok('apply_patch', { patch: '*** Begin Patch\n*** Add File: constructor\n+c\n*** Update File: __proto__\n@@\n-proto\n+PROTO\n*** End Patch' });
    const after = tree(f.ws);
    expect([after['__proto__'], after['constructor']]).toEqual(['PROTO\n', 'c\n']);
    expect(f.changes().map((c) => c.path)).toEqual(['__proto__', 'constructor', '__proto__']);
  });
});
