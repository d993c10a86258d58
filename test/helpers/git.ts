/** A git repository with one commit on branch `main`, in a fresh temporary directory. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function gitRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-repo-'));
  const g = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 't@example.com');
  g('config', 'user.name', 'T');
  fs.writeFileSync(path.join(dir, 'README.md'), 'hello\n');
  g('add', '.');
  g('commit', '-q', '-m', 'init');
  return dir;
}

/** `git -C dir ARGS`, stdout as text. */
export const git = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
