/**
 * The test suite's system prerequisites (scripts/prerequisites.js): one list, found on PATH or in
 * the system directories, and one install command for what is missing. The README names the same
 * programs beside its test command.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JS build script, without type declarations
import { findProgram, installCommand, missingLine, missingPrerequisites, PREREQUISITES } from '../../scripts/prerequisites.js';

type Prerequisite = { program: string; pkg: string; why: string };
const LIST = PREREQUISITES as Prerequisite[];
const ROOT = path.resolve(import.meta.dirname, '..', '..');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A directory holding executables (and, for `plain`, non-executable files) of these names. */
function binDir(executables: string[], plain: string[] = []): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-prereq-'));
  dirs.push(dir);
  for (const name of executables) fs.writeFileSync(path.join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
  for (const name of plain) fs.writeFileSync(path.join(dir, name), '', { mode: 0o644 });
  return dir;
}

describe('test prerequisites', () => {
  it('finds an executable and ignores a file that is not executable', () => {
    const dir = binDir(['tmux'], ['jq']);
    expect(findProgram('tmux', [dir])).toBe(path.join(dir, 'tmux'));
    expect(findProgram('jq', [dir])).toBeNull();
  });

  it('lists what is missing and names one install command with each package once', () => {
    const dir = binDir(['git', 'tmux', 'bwrap', 'jq', 'curl']);
    const missing = missingPrerequisites([dir]) as Prerequisite[];
    expect(missing.map((p) => p.program)).toEqual(['nats-server', 'chromium', 'promtool', 'rg']);
    expect(installCommand(missing, true)).toBe('apt-get install -y --no-install-recommends nats-server chromium prometheus ripgrep');
    expect(installCommand([...missing, ...missing], false)).toBe('sudo apt-get install -y --no-install-recommends nats-server chromium prometheus ripgrep');
    expect(missingPrerequisites([binDir(LIST.map((p) => p.program))])).toEqual([]);
  });

  it('a run that cannot install stops with one line naming the install command', () => {
    const missing = LIST.filter((p) => p.program === 'chromium' || p.program === 'promtool');
    expect(missingLine(missing, false)).toBe("svc's tests need chromium, promtool: install with `sudo apt-get install -y --no-install-recommends chromium prometheus`");
  });

  it('--check exits 0 with nothing printed when every prerequisite is installed, 1 with that line otherwise', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'prerequisites.js'), '--check'], { encoding: 'utf8' });
    const missing = missingPrerequisites() as Prerequisite[];
    expect({ status: r.status, stderr: r.stderr.trim() }).toEqual(missing.length === 0 ? { status: 0, stderr: '' } : { status: 1, stderr: missingLine(missing, process.getuid?.() === 0) });
  });

  it('the README names every prerequisite beside the test command', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const head = readme.slice(0, readme.indexOf('## Quick start'));
    expect(head).toContain('npm ci && npm test');
    for (const p of LIST) expect(head, p.program).toContain(p.program);
  });
});
