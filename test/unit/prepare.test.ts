/**
 * `prepare` (scripts/prepare.js) builds only when dist/ is missing or older than its sources, so
 * that npm's second run of it (the first `npx svc` in a clone) does not rebuild.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JS build script, without type declarations
import { needsBuild, OUTPUTS } from '../../scripts/prepare.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A checkout with one source file and every output, each at the given time (seconds). */
function checkout(sourceAt: number, outputsAt: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-prepare-'));
  dirs.push(root);
  const write = (rel: string, at: number) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    // The file and each directory above it (a directory's time counts too: a file added or removed).
    for (let p = file; p !== root; p = path.dirname(p)) fs.utimesSync(p, at, at);
  };
  write('src/cli/main.ts', sourceAt);
  write('package.json', 1000);
  for (const out of OUTPUTS as string[]) write(out, outputsAt);
  return root;
}

describe('prepare', () => {
  it('skips the build when every output is newer than every source', () => {
    expect(needsBuild(checkout(2000, 3000))).toBe(false);
  });

  it('builds when a source is newer than an output', () => {
    const root = checkout(2000, 3000);
    fs.utimesSync(path.join(root, 'src/cli/main.ts'), 4000, 4000);
    expect(needsBuild(root)).toBe(true);
    expect(needsBuild(checkout(5000, 3000))).toBe(true);
  });

  it('builds when an output is missing', () => {
    const root = checkout(2000, 3000);
    fs.rmSync(path.join(root, 'dist/console/app.css'));
    expect(needsBuild(root)).toBe(true);
  });

  it('does not follow a symbolic link in the sources (a link back up the tree ends)', () => {
    const root = checkout(2000, 3000);
    const link = path.join(root, 'src/cli/loop');
    fs.symlinkSync(root, link);
    fs.lutimesSync(link, 2000, 2000);
    fs.utimesSync(path.join(root, 'src/cli'), 2000, 2000);
    fs.utimesSync(path.join(root, 'src'), 2000, 2000);
    expect(needsBuild(root)).toBe(false);
  });

  it('builds when a new file appears in a source directory', () => {
    const root = checkout(2000, 3000);
    fs.writeFileSync(path.join(root, 'src/new.ts'), '');
    expect(needsBuild(root)).toBe(true);
  });
});
