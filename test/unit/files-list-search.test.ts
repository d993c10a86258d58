/**
 * list_files and search_files over a tree with nested .gitignore files, a .git directory, hidden
 * files, symlinks and binary files: both search engines (ripgrep, and the JS walk the fallback
 * uses) report the same matches, honour the same bounds, and say what they cut. A catastrophic
 * regex in the JS engine ends at the time limit without holding the event loop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileService } from '../../src/runtime/files/index.js';
import { ripgrepOnPath } from '../../src/runtime/files/search-rg.js';
import { filesFixture, put, type FilesFixture } from '../helpers/files.js';

let f: FilesFixture;
beforeEach(() => {
  f = filesFixture();
  put(f.ws, {
    '.gitignore': 'dist/\n*.log\n!keep.log\n',
    'README.md': 'the needle in the readme\n',
    'src/a.ts': 'const needle = 1;\nconst other = 2;\nconst NEEDLE = 3;\n',
    'src/sub/b.ts': 'x\nneedle here\ny\n',
    'src/sub/.gitignore': 'gen.ts\n',
    'src/sub/gen.ts': 'needle generated\n',
    'dist/out.js': 'needle built\n',
    'debug.log': 'needle logged\n',
    'keep.log': 'needle kept\n',
    '.github/ci.yml': 'needle: hidden\n',
    '.git/HEAD': 'needle in git\n',
  });
  fs.writeFileSync(path.join(f.ws, 'blob.bin'), Buffer.from('needle\0binary\n'));
  fs.symlinkSync(path.join(f.ws, 'src'), path.join(f.ws, 'srclink'));
});
afterEach(async () => {
  await f.close();
});

describe('list_files', () => {
  it('lists breadth first, marks directories and symlinks, skips .git and what .gitignore ignores (nested too)', async () => {
    const r = await f.ok('list_files', {});
    expect(r).toMatchObject({ workspace_id: f.wsId, root: f.ws, path: '.', truncated: false });
    expect(r.entries).toEqual([
      '.github/',
      '.gitignore',
      'README.md',
      'blob.bin',
      'keep.log',
      'src/',
      'srclink@',
      '.github/ci.yml',
      'src/a.ts',
      'src/sub/',
      'src/sub/.gitignore',
      'src/sub/b.ts',
    ]);
    const all = await f.ok('list_files', { include_ignored: true });
    expect(all.entries).toEqual(expect.arrayContaining(['dist/', 'debug.log', 'dist/out.js', 'src/sub/gen.ts']));
    expect(all.entries).not.toContain('.git/');
  });

  it('filters with a glob relative to the directory listed, and lists a subdirectory with the root rules', async () => {
    expect((await f.ok('list_files', { glob: '*.ts' })).entries).toEqual(['src/a.ts', 'src/sub/b.ts', 'src/sub/gen.ts']);
    expect((await f.ok('list_files', { path: 'src', glob: 'sub/*.ts' })).entries).toEqual(['src/sub/b.ts', 'src/sub/gen.ts']);
    expect((await f.ok('list_files', { glob: '!src' })).entries).not.toContain('src/a.ts');
    const sub = await f.ok('list_files', { path: 'src/sub' });
    expect(sub).toMatchObject({ path: 'src/sub', entries: ['src/sub/.gitignore', 'src/sub/b.ts'] });
  });

  it('lists an ignored directory named explicitly, as ripgrep searches one', async () => {
    expect((await f.ok('list_files', { path: 'dist' })).entries).toEqual(['dist/out.js']);
  });

  it('caps the entries with a note', async () => {
    const r = await f.ok('list_files', { max_entries: 3 });
    expect(r).toMatchObject({ entries: ['.github/', '.gitignore', 'README.md'], truncated: true, truncated_reason: 'entries' });
    expect(r.note).toContain('stopped after 3 entries');
  });
});

const EXPECTED = [
  { path: 'README.md', line: 1, text: 'the needle in the readme' },
  { path: 'keep.log', line: 1, text: 'needle kept' },
  { path: '.github/ci.yml', line: 1, text: 'needle: hidden' },
  { path: 'src/a.ts', line: 1, text: 'const needle = 1;' },
  { path: 'src/sub/b.ts', line: 2, text: 'needle here' },
];
const sorted = (ms: Array<{ path: string; line: number }>) => [...ms].sort((a, b) => (a.path + a.line).localeCompare(b.path + b.line));

describe.each(['rg', 'js'] as const)('search_files with the %s engine', (engine) => {
  let svc: FileService;
  const search = (args: Record<string, unknown>) => svc.search('main', args as never, new AbortController().signal);
  beforeEach(() => {
    svc = new FileService(f.t.s, { searchEngine: engine });
  });

  it('finds the same matches, skipping .git, ignored, binary and symlinked files', async () => {
    if (engine === 'rg') expect(ripgrepOnPath()).not.toBeNull();
    const r = await search({ pattern: 'needle' });
    expect(r).toMatchObject({ engine, workspace_id: f.wsId, path: '.', truncated: false });
    expect(sorted(r.matches)).toEqual(sorted(EXPECTED));
  });

  it('takes flags, globs, a subdirectory or a single file, and context lines', async () => {
    expect(sorted((await search({ pattern: 'NEEDLE', case_insensitive: true, glob: '*.ts' })).matches).map((m) => `${m.path}:${m.line}`)).toEqual(['src/a.ts:1', 'src/a.ts:3', 'src/sub/b.ts:2', 'src/sub/gen.ts:1']);
    expect((await search({ pattern: 'needle', path: 'src/sub' })).matches).toEqual([{ path: 'src/sub/b.ts', line: 2, text: 'needle here' }]);
    expect((await search({ pattern: 'needle', path: 'src/sub/b.ts', context_lines: 1 })).matches).toEqual([{ path: 'src/sub/b.ts', line: 2, text: 'needle here', before: ['x'], after: ['y'] }]);
    expect((await search({ pattern: 'n(?=eedle built)', include_ignored: true })).matches).toEqual([{ path: 'dist/out.js', line: 1, text: 'needle built' }]);
    expect((await search({ pattern: 'needle', path: 'dist' })).matches).toEqual([{ path: 'dist/out.js', line: 1, text: 'needle built' }]);
  });

  it('caps matches and long lines, and says what it cut', async () => {
    put(f.ws, { 'many.txt': 'hit\n'.repeat(50), 'wide.txt': `${'w'.repeat(2000)} hit\n` });
    const r = await search({ pattern: 'hit', path: 'many.txt', max_matches: 10 });
    expect(r).toMatchObject({ truncated: true, truncated_reason: 'matches' });
    expect(r.matches).toHaveLength(10);
    expect(r.note).toContain('stopped after 10 matches');
    const wide = await search({ pattern: 'hit', path: 'wide.txt' });
    expect(wide.matches[0]!.text).toMatch(/^w{500}… \[line cut at 500 of 2004 characters\]$/);
  });

  it('answers at once with nothing when the run is already aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    const r = await svc.search('main', { pattern: 'needle' }, abort.signal);
    expect(r).toMatchObject({ truncated: true, truncated_reason: 'aborted', matches: [] });
  });

  it('takes a pattern or a glob that looks like a flag as text', async () => {
    put(f.ws, { 'flags.txt': 'run with --files here\n', '-g.txt': 'needle dash\n' });
    expect((await search({ pattern: '--files' })).matches).toEqual([{ path: 'flags.txt', line: 1, text: 'run with --files here' }]);
    expect((await search({ pattern: 'needle', glob: '-g*' })).matches).toEqual([{ path: '-g.txt', line: 1, text: 'needle dash' }]);
  });

  it('refuses an invalid pattern and a path outside the workspaces', async () => {
    await expect(search({ pattern: 'a(' })).rejects.toMatchObject({ code: 'invalid_pattern' });
    await expect(search({ pattern: 'a\u0000b' })).rejects.toMatchObject({ code: 'invalid_pattern' });
    await expect(search({ pattern: 'a', glob: '*\u0000' })).rejects.toMatchObject({ code: 'path_invalid' });
    await expect(search({ pattern: 'x', path: f.outside })).rejects.toMatchObject({ code: 'path_outside_workspace' });
  });
});

describe('the JS engine', () => {
  it('stops a catastrophic regex at the time limit; the event loop keeps turning meanwhile', async () => {
    const slow = new FileService(f.t.s, { searchEngine: 'js', searchTimeoutMs: 500 });
    put(f.ws, { 'evil.txt': `${'a'.repeat(40)}!\n` });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    const r = await slow.search('main', { pattern: '^(a+)+$', path: 'evil.txt' }, new AbortController().signal);
    clearInterval(timer);
    expect(r).toMatchObject({ engine: 'js', truncated: true, truncated_reason: 'time', matches: [] });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(10);
  });
});
