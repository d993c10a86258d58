/** The fsync of the WAL that group commit runs off the event loop (store.ts header). */
import fs from 'node:fs';
import path from 'node:path';

/** Makes everything written to the WAL so far durable, then calls `done` (on the event loop). */
export type WalSync = (done: (err: Error | null) => void) => void;

/**
 * fsync of the WAL file in libuv's thread pool. The file descriptor is opened at the first sync
 * (the WAL exists by then: the migrations wrote it) and kept: SQLite truncates and reuses the
 * WAL, never replaces it, while its connection is open. The directory is synced once, so the
 * WAL's own entry is durable too (what SQLite does at its first FULL sync of a new WAL).
 */
export function walSyncer(file: string): { sync: WalSync; release: () => void } {
  let fd: number | null = null;
  let running = false;
  let released = false;
  const closeFd = () => {
    if (fd !== null) fs.closeSync(fd);
    fd = null;
  };
  const sync: WalSync = (done) => {
    if (released) return setImmediate(() => done(new Error('store is closed')));
    if (fd === null) {
      try {
        fd = fs.openSync(`${file}-wal`, fs.constants.O_RDWR | fs.constants.O_NOFOLLOW);
        const dir = fs.openSync(path.dirname(file), fs.constants.O_RDONLY);
        try {
          fs.fsyncSync(dir);
        } finally {
          fs.closeSync(dir);
        }
      } catch (err) {
        setImmediate(() => done(err as Error));
        return;
      }
    }
    running = true;
    fs.fsync(fd, (err) => {
      running = false;
      if (released) closeFd();
      done(err);
    });
  };
  return {
    sync,
    release: () => {
      released = true;
      if (!running) closeFd();
    },
  };
}
