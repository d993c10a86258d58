/**
 * WAL checkpoints off the event loop. SQLite checkpoints automatically at the commit that takes
 * the WAL past 1,000 pages, on the committing connection: an fsync of the WAL, the copy into the
 * database file, an fsync of that, all on the event loop. Once writes are sustained, the store
 * hands this to a worker thread with its own connection, which runs `wal_checkpoint(PASSIVE)`
 * (it never takes the write lock: it copies what is committed and fsyncs) at most every
 * `intervalMs` while commits come, and the main connection's automatic checkpoint is turned off.
 *
 * A PASSIVE checkpoint copies what was committed when it began; SQLite restarts the WAL from its
 * start only when a write finds all of it copied. Under writes that never pause, commits land
 * during every checkpoint and the WAL would grow for ever: when a checkpoint reports more than
 * `catchUpFrames` frames, the main connection's automatic checkpoint is turned back on (SQLite's
 * own behaviour: the next commit checkpoints what is left, little since the worker copied most of
 * it, and the WAL restarts). Meanwhile the worker does nothing, since a checkpoint running there
 * makes the main connection's fail (busy) and only a complete one lets the WAL restart. The main
 * connection sees the restart in the WAL header (its checkpoint sequence number changes), turns
 * its automatic checkpoint off again and hands back to the worker.
 *
 * The worker's code is a short script evaluated in the thread, given the path of better-sqlite3
 * (so it runs the same from the sources under test and from the build). If the worker fails, the
 * main connection's automatic checkpoint comes back for good.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, busy: result.busy, log: result.log, checkpointed: result.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err && err.message) });
  }
});
`;

const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

/** The page count at which SQLite checkpoints by itself (its default), restored on failure. */
const SQLITE_AUTOCHECKPOINT = 1000;

export interface CheckpointResult {
  busy: number;
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface CheckpointerOptions {
  /** Commits after which the worker starts (small, short-lived stores never need one). */
  startAfterCommits: number;
  /** Least time between two checkpoints while commits keep coming. */
  intervalMs: number;
  /** WAL frames past which the main connection checkpoints too (see the header). */
  catchUpFrames: number;
  onError?: (err: Error) => void;
  onCheckpoint?: (result: CheckpointResult) => void;
}

export class Checkpointer {
  private worker: Worker | null = null;
  private commits = 0;
  private dirty = false;
  private inFlight = false;
  private timer: NodeJS.Timeout | null = null;
  private failed = false;
  private closed = false;
  private catchingUp = false;
  /** The WAL's restart count when catching up began. */
  private catchUpFrom: number | null = null;
  private largestWal = 0;
  private pageSize: number | null = null;
  readonly stats = { checkpoints: 0, catchUps: 0 };

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly opts: CheckpointerOptions,
  ) {}

  get running(): boolean {
    return this.worker !== null;
  }

  /** Called after every commit on the main connection. */
  committed(): void {
    if (this.closed || this.failed) return;
    this.dirty = true;
    if (!this.worker) {
      if (++this.commits < this.opts.startAfterCommits) return;
      this.start();
    }
    this.watchWal();
    this.arm();
  }

  private start(): void {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: this.file } });
    worker.unref();
    worker.on('message', (m: { ok: boolean; error?: string } & CheckpointResult) => {
      this.inFlight = false;
      if (!m.ok) return this.fail(new Error(`checkpoint failed: ${m.error}`));
      this.stats.checkpoints++;
      this.catchUp(m.log > this.opts.catchUpFrames);
      this.opts.onCheckpoint?.({ busy: m.busy, log: m.log, checkpointed: m.checkpointed });
      if (this.dirty) this.arm();
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', () => {
      if (!this.closed) this.fail(new Error('the checkpoint worker exited'));
    });
    this.worker = worker;
    this.db.pragma('wal_autocheckpoint = 0');
  }

  /**
   * The main connection's own look at the WAL, not waiting for the worker's next report (which a
   * busy machine delays while commits go on): the file growing past the limit means the log now
   * holds more than `catchUpFrames` frames; a new restart count means it started again.
   */
  private watchWal(): void {
    const size = walBytes(this.file);
    if (!this.catchingUp && size > this.limitBytes && size > this.largestWal) this.catchUp(true);
    this.largestWal = Math.max(this.largestWal, size);
    if (this.catchingUp && walRestarts(this.file) !== this.catchUpFrom) this.catchUp(false);
  }

  private get limitBytes(): number {
    this.pageSize ??= this.db.pragma('page_size', { simple: true }) as number;
    return WAL_HEADER_BYTES + this.opts.catchUpFrames * (WAL_FRAME_HEADER_BYTES + this.pageSize);
  }

  private catchUp(on: boolean): void {
    if (on === this.catchingUp || !this.db.open) return;
    this.catchingUp = on;
    if (on) {
      this.stats.catchUps++;
      this.catchUpFrom = walRestarts(this.file);
    }
    this.db.pragma(`wal_autocheckpoint = ${on ? Math.min(SQLITE_AUTOCHECKPOINT, this.opts.catchUpFrames) : 0}`);
  }

  private arm(): void {
    if (this.timer || this.inFlight || !this.worker || this.catchingUp) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.worker || this.closed) return;
      this.dirty = false;
      this.inFlight = true;
      this.worker.postMessage('checkpoint');
    }, this.opts.intervalMs);
    this.timer.unref();
  }

  private fail(err: Error): void {
    if (this.failed || this.closed) return;
    this.failed = true;
    this.inFlight = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    // Back to SQLite's own checkpoints on the main connection.
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
    this.opts.onError?.(err);
  }

  /** Stop the worker (the store checkpoints itself at close). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.worker?.postMessage('close');
    this.worker = null;
  }
}

function walBytes(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * How many times the WAL restarted: the checkpoint sequence number of the WAL header (bytes
 * 12..15, big-endian; SQLite increments it each time the log starts again from its beginning).
 * null when there is no WAL file to read.
 */
function walRestarts(file: string): number | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(`${file}-wal`, 'r');
    const header = Buffer.alloc(16);
    return fs.readSync(fd, header, 0, 16, 0) === 16 ? header.readUInt32BE(12) : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
