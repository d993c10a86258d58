/**
 * Project instructions (docs/context.md#project-instructions) on real directories: the order from
 * the workspace root down to the working directory, both names, the byte cap and its marks,
 * changes and deletions seen on the next call, and the files a stranger may plant: symlinks out
 * (to a secret, to /etc/passwd, into the daemon's home), a fifo, an unreadable file, a directory.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../src/config/index.js';
import { MAX_INSTRUCTION_DIRS, ProjectInstructions } from '../../src/runtime/context/index.js';
import { filesFixture, put, type FilesFixture } from '../helpers/files.js';

let f: FilesFixture;
let logs: Array<{ msg: string; path?: string; reason?: string; agent_id?: string }>;

beforeEach(() => {
  f = filesFixture();
  logs = [];
});
afterEach(async () => {
  await f.close();
});

function instructions(context: Partial<ResolvedConfig['values']['context']> = {}): ProjectInstructions {
  const base = f.t.s.config;
  const config: ResolvedConfig = { ...base, values: { ...base.values, context: { ...base.values.context, ...context } } };
  const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, done) => (logs.push(JSON.parse(String(chunk))), done()) }));
  return new ProjectInstructions({ config, workspaces: f.t.s.workspaces, logger });
}

const header = (p: string) => `## Project instructions from ${p}`;
const refusals = () => logs.filter((l) => l.msg === 'project instructions file refused');

describe('which files, in which order', () => {
  it('reads the root first, then each directory down to the working directory', () => {
    put(f.ws, { 'AGENTS.md': 'root rules\n', 'a/AGENTS.md': 'a rules\n', 'a/b/AGENTS.md': 'b rules\n', 'a/b/c/other.md': 'no\n', 'x/AGENTS.md': 'sibling\n' });
    const pi = instructions();
    const deep = pi.for('main', path.join(f.ws, 'a/b/c'));
    expect(deep.files.map((x) => x.path)).toEqual([path.join(f.ws, 'AGENTS.md'), path.join(f.ws, 'a/AGENTS.md'), path.join(f.ws, 'a/b/AGENTS.md')]);
    expect(deep.files.every((x) => !x.truncated)).toBe(true);
    expect(deep.text).toBe(
      [`${header(path.join(f.ws, 'AGENTS.md'))}\n\nroot rules\n`, `${header(path.join(f.ws, 'a/AGENTS.md'))}\n\na rules\n`, `${header(path.join(f.ws, 'a/b/AGENTS.md'))}\n\nb rules\n`].join('\n\n'),
    );
    // By default the working directory is the active workspace's own directory: the root alone.
    expect(pi.for('main').files.map((x) => x.path)).toEqual([path.join(f.ws, 'AGENTS.md')]);
    // A working directory outside the root adds nothing from outside.
    put(f.outside, { 'AGENTS.md': 'outside\n' });
    const out = pi.for('main', f.outside);
    expect(out.files.map((x) => x.path)).toEqual([path.join(f.ws, 'AGENTS.md')]);
    expect(out.text).not.toContain('outside');
    // A working directory that is a file, or does not exist, reads what lies above it.
    expect(pi.for('main', path.join(f.ws, 'a/b/c/other.md')).files).toHaveLength(3);
    expect(pi.for('main', path.join(f.ws, 'a/missing')).files).toHaveLength(2);
    expect(logs).toEqual([]);
  });

  it('keeps the root and the deepest directories of a very deep working directory', () => {
    const rel = Array.from({ length: 30 }, (_, i) => `d${i}`);
    put(f.ws, { 'AGENTS.md': 'root\n', [`${rel.join('/')}/AGENTS.md`]: 'deepest\n', [`${rel.slice(0, 3).join('/')}/AGENTS.md`]: 'shallow\n' });
    const got = instructions().for('main', path.join(f.ws, ...rel));
    expect(got.text).toContain('root\n');
    expect(got.text).toContain('deepest\n');
    expect(got.text).not.toContain('shallow');
    expect(MAX_INSTRUCTION_DIRS).toBe(16);
  });

  it('includes AGENTS.md and CLAUDE.md of one directory both, in the configured order', () => {
    put(f.ws, { 'CLAUDE.md': 'claude\n', 'AGENTS.md': 'agents\n' });
    const got = instructions().for('main');
    expect(got.files.map((x) => path.basename(x.path))).toEqual(['AGENTS.md', 'CLAUDE.md']);
    expect(got.text.indexOf('agents\n')).toBeLessThan(got.text.indexOf('claude\n'));
    const reversed = instructions({ instructions_files: ['CLAUDE.md', 'AGENTS.md', 'CLAUDE.md'] }).for('main');
    expect(reversed.files.map((x) => path.basename(x.path))).toEqual(['CLAUDE.md', 'AGENTS.md']);
  });

  it('includes one file once when the other name is a hard link or a symlink to it', () => {
    put(f.ws, { 'AGENTS.md': 'shared\n', 'a/AGENTS.md': 'a\n' });
    fs.linkSync(path.join(f.ws, 'AGENTS.md'), path.join(f.ws, 'CLAUDE.md'));
    fs.symlinkSync('AGENTS.md', path.join(f.ws, 'a/CLAUDE.md'));
    const got = instructions().for('main', path.join(f.ws, 'a'));
    expect(got.files.map((x) => path.relative(f.ws, x.path))).toEqual(['AGENTS.md', 'a/AGENTS.md']);
    expect(got.text.split('shared').length).toBe(2);
  });

  it("reads agent_home's own files when the agent works in its home", () => {
    put(f.home, { 'AGENTS.md': 'home notes\n' });
    expect(instructions().for('main').text).not.toContain('home notes');
    f.t.s.workspaces.exit('main');
    const got = instructions().for('main');
    expect(got.files).toEqual([{ path: path.join(f.home, 'AGENTS.md'), bytes: 11, truncated: false }]);
    expect(got.text).toContain('home notes\n');
  });

  it('gives nothing, without throwing, for an agent that does not exist or a workspace without files', () => {
    const pi = instructions();
    expect(pi.for('nobody-here')).toEqual({ text: '', files: [] });
    expect(pi.for('main')).toEqual({ text: '', files: [] });
    put(f.ws, { 'AGENTS.md': '' });
    expect(pi.for('main')).toEqual({ text: '', files: [] });
  });
});

describe('the byte cap', () => {
  it('keeps the root whole, cuts the deeper file, leaves out what has no room, and marks both', () => {
    put(f.ws, { 'AGENTS.md': 'r'.repeat(60), 'a/AGENTS.md': 'a'.repeat(80), 'a/b/AGENTS.md': 'b'.repeat(10) });
    const got = instructions({ instructions_max_bytes: 100 }).for('main', path.join(f.ws, 'a/b'));
    expect(got.files).toEqual([
      { path: path.join(f.ws, 'AGENTS.md'), bytes: 60, truncated: false },
      { path: path.join(f.ws, 'a/AGENTS.md'), bytes: 40, truncated: true },
      { path: path.join(f.ws, 'a/b/AGENTS.md'), bytes: 0, truncated: true },
    ]);
    expect(got.text).toContain(`${'r'.repeat(60)}\n\n${header(path.join(f.ws, 'a/AGENTS.md'))}`);
    expect(got.text).toContain(`\n\n${'a'.repeat(40)}\n[truncated: cut after 40 of its 80 bytes; the instruction files may take 100 bytes in all ([context] instructions_max_bytes)]`);
    expect(got.text).not.toContain('a'.repeat(41));
    expect(got.text).toContain('[truncated: all 10 bytes left out;');
    expect(got.text).not.toContain('bbb');
  });

  it('cuts between UTF-8 characters, never inside one', () => {
    put(f.ws, { 'AGENTS.md': 'é'.repeat(10) }); // 20 bytes
    const got = instructions({ instructions_max_bytes: 5 }).for('main');
    expect(got.files[0]).toMatchObject({ bytes: 4, truncated: true });
    expect(got.text).toContain('éé\n[truncated');
    expect(got.text).not.toContain('\uFFFD');
  });

  it('reads a file far over the cap without trouble', () => {
    fs.writeFileSync(path.join(f.ws, 'AGENTS.md'), Buffer.alloc(20 * 1024 * 1024, 'x'));
    const got = instructions().for('main');
    expect(got.files[0]).toMatchObject({ bytes: 32 * 1024, truncated: true });
    expect(got.text).toContain(`cut after ${32 * 1024} of its ${20 * 1024 * 1024} bytes`);
  });

  it('reads nothing at 0, and nothing without names', () => {
    put(f.ws, { 'AGENTS.md': 'rules\n' });
    expect(instructions({ instructions_max_bytes: 0 }).for('main')).toEqual({ text: '', files: [] });
    expect(instructions({ instructions_files: [] }).for('main')).toEqual({ text: '', files: [] });
  });

  it('replaces invalid UTF-8 and drops a byte-order mark', () => {
    fs.writeFileSync(path.join(f.ws, 'AGENTS.md'), Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xff, 0xfe, 0x62, 0x0a]));
    const got = instructions().for('main');
    expect(got.text).toBe(`${header(path.join(f.ws, 'AGENTS.md'))}\n\na\uFFFD\uFFFDb\n`);
  });
});

describe('changes', () => {
  it('sees a change on the next call, and a deletion', () => {
    const file = path.join(f.ws, 'AGENTS.md');
    fs.writeFileSync(file, 'version one\n');
    const pi = instructions();
    expect(pi.for('main').text).toContain('version one');
    // Same size, content changed, a new mtime.
    fs.writeFileSync(file, 'version two\n');
    fs.utimesSync(file, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    expect(pi.for('main').text).toContain('version two');
    fs.writeFileSync(path.join(f.ws, 'CLAUDE.md'), 'added\n');
    expect(pi.for('main').files).toHaveLength(2);
    fs.rmSync(file);
    expect(pi.for('main').files.map((x) => path.basename(x.path))).toEqual(['CLAUDE.md']);
  });

  it('reads more of a cut file when room is made before it', () => {
    put(f.ws, { 'AGENTS.md': 'r'.repeat(90), 'a/AGENTS.md': 'a'.repeat(50) });
    const pi = instructions({ instructions_max_bytes: 100 });
    const cwd = path.join(f.ws, 'a');
    expect(pi.for('main', cwd).files[1]).toMatchObject({ bytes: 10, truncated: true });
    fs.writeFileSync(path.join(f.ws, 'AGENTS.md'), 'r'.repeat(10));
    expect(pi.for('main', cwd).files[1]).toMatchObject({ bytes: 50, truncated: false });
    expect(pi.for('main', cwd).text).toContain('a'.repeat(50));
  });
});

describe('files a stranger may plant', () => {
  it('refuses a symlink out of the workspace, to /etc/passwd, and logs it once', () => {
    put(f.outside, { 'secret.txt': 'the secret\n' });
    fs.symlinkSync(path.join(f.outside, 'secret.txt'), path.join(f.ws, 'AGENTS.md'));
    fs.symlinkSync('/etc/passwd', path.join(f.ws, 'CLAUDE.md'));
    put(f.ws, { 'a/AGENTS.md': 'fine\n' });
    fs.symlinkSync(f.outside, path.join(f.ws, 'a/linked'));
    const pi = instructions();
    for (let i = 0; i < 3; i++) {
      const got = pi.for('main', path.join(f.ws, 'a'));
      expect(got.files.map((x) => x.path)).toEqual([path.join(f.ws, 'a/AGENTS.md')]);
      expect(got.text).not.toContain('the secret');
      expect(got.text).not.toContain('root:');
    }
    expect(refusals().map((l) => path.basename(l.path!))).toEqual(['AGENTS.md', 'CLAUDE.md']);
    expect(refusals()[0]!.reason).toContain('in none of them');
    // A working directory reached through a link out is outside the root: nothing is read there.
    put(f.outside, { 'AGENTS.md': 'planted\n' });
    expect(pi.for('main', path.join(f.ws, 'a/linked')).text).not.toContain('planted');
  });

  it('follows a symlink that stays inside the workspace', () => {
    put(f.ws, { 'docs/agents.md': 'linked rules\n' });
    fs.symlinkSync('docs/agents.md', path.join(f.ws, 'AGENTS.md'));
    const got = instructions().for('main');
    expect(got.files).toEqual([{ path: path.join(f.ws, 'AGENTS.md'), bytes: 13, truncated: false }]);
    expect(got.text).toContain('linked rules');
  });

  it("refuses a file in the daemon's home outside the agent's own home, and reads the agent's own", () => {
    // An operator attached a directory holding the daemon's home.
    f.t.s.workspaces.attach('main', f.t.home, 'operator_instruction');
    fs.writeFileSync(path.join(f.t.home, 'AGENTS.md'), 'daemon home\n');
    put(f.home, { 'AGENTS.md': 'own home\n' });
    const got = instructions().for('main', f.home);
    expect(got.files.map((x) => x.path)).toEqual([path.join(f.home, 'AGENTS.md')]);
    expect(got.text).not.toContain('daemon home');
    expect(refusals()[0]!.reason).toContain("daemon's home");
  });

  it('refuses a fifo at once, without blocking on it', () => {
    expect(spawnSync('mkfifo', [path.join(f.ws, 'AGENTS.md')]).status).toBe(0);
    put(f.ws, { 'CLAUDE.md': 'still read\n' });
    const got = instructions().for('main');
    expect(got.files.map((x) => path.basename(x.path))).toEqual(['CLAUDE.md']);
    expect(refusals()[0]).toMatchObject({ path: path.join(f.ws, 'AGENTS.md') });
    expect(refusals()[0]!.reason).toContain('fifo');
  });

  it('reads nothing through names that are directories: ., .. (the config allows them)', () => {
    put(f.ws, { 'a/AGENTS.md': 'a\n' });
    put(f.outside, { 'AGENTS.md': 'outside\n' });
    const got = instructions({ instructions_files: ['..', '.'] }).for('main', path.join(f.ws, 'a'));
    expect(got).toEqual({ text: '', files: [] });
    expect(refusals().length).toBeGreaterThan(0);
  });

  it('skips a directory named AGENTS.md', () => {
    fs.mkdirSync(path.join(f.ws, 'AGENTS.md'));
    expect(instructions().for('main')).toEqual({ text: '', files: [] });
    expect(refusals()[0]!.reason).toContain('directory');
  });

  it('skips a file it may not read, and reads it again once it may', () => {
    const file = path.join(f.ws, 'AGENTS.md');
    fs.writeFileSync(file, 'private\n');
    put(f.ws, { 'CLAUDE.md': 'public\n' });
    fs.chmodSync(path.dirname(f.ws), 0o755);
    const pi = instructions();
    expect(pi.for('main').files).toHaveLength(2);
    fs.chmodSync(file, 0o000);
    // Root reads anything: the call is made as nobody then (the process's effective uid only).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) process.seteuid!(65534);
    let got;
    try {
      got = pi.for('main');
    } finally {
      if (asRoot) process.seteuid!(0);
    }
    expect(got.files.map((x) => path.basename(x.path))).toEqual(['CLAUDE.md']);
    expect(got.text).not.toContain('private');
    expect(refusals()[0]!.reason).toContain('cannot be read (EACCES)');
    fs.chmodSync(file, 0o644);
    expect(pi.for('main').text).toContain('private');
  });
});
