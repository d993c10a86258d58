/**
 * Writing planned changes all or nothing. Every change was computed in memory first (its content
 * before and after); here they are written in order, and each step that changed the disk leaves
 * the step that undoes it (the old content written back with its mode, a created file or
 * directory removed). If a write fails midway (a full disk, a read-only directory, a name the
 * filesystem refuses), the steps taken are undone in reverse order and the failure is reported:
 * every file is as it was. An undo that fails too is logged and named in the refusal.
 */
import fsp from 'node:fs/promises';
import type { Logger } from 'pino';
import { errors } from '../../core/index.js';
import { makeParents, writeAtomic } from './file-io.js';
import type { PlannedChange, Target } from './types.js';

type Undo = { what: string; run: () => Promise<void> };

export async function commitChanges(changes: PlannedChange[], logger: Logger): Promise<void> {
  const undo: Undo[] = [];
  let current: Target | null = null;
  try {
    for (const c of changes) {
      current = c.target;
      await step(c, undo, (t) => (current = t));
    }
  } catch (err) {
    const failed = await rollBack(undo, logger);
    const t = current!;
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    const message = err instanceof Error ? err.message : String(err);
    if (failed.length > 0) {
      throw errors.fileWriteFailed(t.input, code, `${message}; undoing the changes before it failed for ${failed.join(', ')}`, { rollback_failed: failed });
    }
    throw errors.fileWriteFailed(t.input, code, `${message}; every file was left as it was`);
  }
}

async function step(c: PlannedChange, undo: Undo[], at: (t: Target) => void): Promise<void> {
  const t = c.target;
  switch (c.op) {
    case 'create': {
      await createFile(t, c.after!, undo);
      return;
    }
    case 'update': {
      await writeAtomic(t, t.abs, c.after!, c.mode);
      undo.push({ what: t.rel, run: () => writeAtomic(t, t.abs, c.before!, c.mode) });
      return;
    }
    case 'delete': {
      await fsp.unlink(t.abs);
      undo.push({ what: t.rel, run: () => writeAtomic(t, t.abs, c.before!, c.mode) });
      return;
    }
    case 'move': {
      const to = c.movedTo!;
      at(to);
      await createFile(to, c.after!, undo, c.mode);
      at(t);
      await fsp.unlink(t.abs);
      undo.push({ what: t.rel, run: () => writeAtomic(t, t.abs, c.before!, c.mode) });
      return;
    }
  }
}

/** A new file (its missing directories first); the undo removes both again. */
async function createFile(t: Target, data: Buffer, undo: Undo[], mode: number | null = null): Promise<void> {
  const dirs = await makeParents(t.abs);
  if (dirs.length > 0) undo.push({ what: dirs[0]!, run: () => removeDirs(dirs) });
  await writeAtomic(t, t.abs, data, mode);
  undo.push({ what: t.rel, run: () => fsp.unlink(t.abs) });
}

async function removeDirs(dirs: string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) await fsp.rmdir(dir);
}

/** Undo in reverse order; the names of the steps that could not be undone. */
async function rollBack(undo: Undo[], logger: Logger): Promise<string[]> {
  const failed: string[] = [];
  for (const u of undo.reverse()) {
    try {
      await u.run();
    } catch (err) {
      failed.push(u.what);
      logger.error({ err, path: u.what }, 'a file change could not be undone');
    }
  }
  return failed;
}
