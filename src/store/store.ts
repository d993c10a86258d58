/**
 * The SQLite store: one better-sqlite3 connection in WAL mode, a transaction helper with
 * commit/rollback hooks, and group commit whose disk wait runs off the event loop.
 *
 * Group commit: `write(fn)` queues fn; on the next tick every queued fn runs inside one
 * transaction (each in its own savepoint, so one failing caller does not undo the others) and the
 * transaction commits. Only then does the disk come in, and not on the event loop: the batch
 * commits with synchronous=NORMAL (in WAL mode: the frames are written to the WAL, no fsync), and
 * the WAL file is fsynced by a thread of libuv's pool (`fs.fsync`). That is exactly what
 * synchronous=FULL adds to NORMAL (one fsync of the WAL per commit), moved to another thread and
 * shared: while one fsync runs, the loop keeps parsing requests and committing the next batches,
 * and the next fsync covers all of them. A caller is answered, and the batch's after-commit
 * hooks run (the broadcaster publishes, timers are armed), only once an fsync that started after
 * its commit has returned. Reads on this connection see a committed batch at once; the outside
 * world hears of it only when it is on the disk.
 *
 * Hooks run in commit order, always: a commit's hooks wait for those of every earlier commit. A
 * hook that throws (after a commit or a rollback) is a bug in its listener, not in the commit:
 * the other hooks still run, the callers are still answered, and the error goes to `onHookError`
 * (the daemon logs it; by default it is thrown on its own, as an uncaught exception).
 *
 * `tx(fn)` (synchronous, outside group commit) keeps synchronous=FULL: it is durable when it
 * returns, and since its fsync covers the whole WAL, every earlier group commit is durable too.
 *
 * Internal progress nobody has been promised (the run loop claiming and finishing turns) may be
 * written with `{durable: false}`: a batch made only of such writes asks for no fsync. It survives
 * a crash of the process (kill -9: the WAL is in the OS page cache); only a power cut can lose it,
 * and the next durable commit fsyncs the WAL and with it everything written before.
 *
 * `synchronous: 'normal'` (config `[store] synchronous`) drops the fsync altogether: acknowledged
 * writes survive kill -9 but not a power cut.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { Checkpointer, type CheckpointerOptions } from './checkpointer.js';
import { migrate } from './migrations/index.js';
import { Texts } from './texts.js';
import { walSyncer, type WalSync } from './wal-sync.js';

type Hook = () => void;

class Unit {
  readonly commitHooks: Hook[] = [];
  readonly rollbackHooks: Hook[] = [];
  readonly beforeCommitHooks: Hook[] = [];
}

interface PendingWrite {
  fn: () => unknown;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** A committed group (or a tx whose hooks had to queue) waiting for the disk or for earlier hooks. */
interface Committed {
  /** The group commit's number; it is durable once `durableThrough` reaches it. */
  gen: number;
  /** False when nobody in it was promised durability (or it is already durable). */
  needsSync: boolean;
  hooks: Hook[];
  settle: (error: unknown) => void;
}

export interface StoreStats {
  commits: number;
  batchedWrites: number;
  /** fsyncs of the WAL run off the event loop for group commits. */
  walSyncs: number;
}

export type SyncMode = 'full' | 'normal';

export interface StoreOptions {
  /** 'full' (default): acknowledged writes survive a power cut; 'normal': only a crash of svc. */
  synchronous?: SyncMode;
  /** Default: fsync of the WAL file in libuv's thread pool (wal-sync.ts). Tests inject a slow or failing one. */
  syncWal?: WalSync;
  /** WAL checkpoints in a worker thread (checkpointer.ts); `false` leaves them to SQLite. */
  checkpointer?: Partial<CheckpointerOptions> | false;
  /** An after-commit hook threw (see the class comment). */
  onHookError?: (err: unknown) => void;
}

/** Sustained writes: after this many commits the checkpoint worker takes over. */
const CHECKPOINT_AFTER_COMMITS = 256;
const CHECKPOINT_INTERVAL_MS = 200;
/** 64 MiB of 4 KiB pages: past it the main connection checkpoints as well (checkpointer.ts). */
const CHECKPOINT_CATCH_UP_FRAMES = 16384;
/** A WAL that grew past this is truncated back to it once checkpointed (bytes). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** `Store.write` options for work promised to nobody (the run loop's progress, housekeeping). */
export const INTERNAL = { durable: false } as const;

/** Upper bound on writes folded into one group-commit transaction. */
const MAX_BATCH = 2000;

export class Store {
  readonly db: Database.Database;
  /** Long strings of the owning tables, stored once (texts.ts). */
  readonly texts: Texts;
  private unit: Unit | null = null;
  private depth = 0;
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private closed = false;
  readonly stats: StoreStats = { commits: 0, batchedWrites: 0, walSyncs: 0 };
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly totalChanges: Database.Statement;
  private readonly savepoints: Array<{ begin: Database.Statement; release: Database.Statement; rollback: Database.Statement }> = [];
  /** Commits waiting for the disk or for the hooks of earlier ones, oldest first. */
  private readonly waiting: Committed[] = [];
  private committedGen = 0;
  private durableThrough = 0;
  private syncing = false;
  private pumping = false;
  /** Set when an fsync failed: what the WAL holds may not be on the disk, so no write is taken. */
  private failure: Error | null = null;
  private readonly syncWal: WalSync;
  private readonly releaseWal: () => void;
  private readonly fsyncs: boolean;
  readonly checkpointer: Checkpointer | null;

  /** Called after every committed transaction (metrics). */
  onCommit: (() => void) | null = null;
  private readonly onHookError: (err: unknown) => void;

  private constructor(db: Database.Database, file: string, opts: StoreOptions) {
    this.db = db;
    this.texts = new Texts(db);
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.fsyncs = (opts.synchronous ?? 'full') === 'full' && file !== ':memory:';
    this.onHookError =
      opts.onHookError ??
      ((err) =>
        queueMicrotask(() => {
          throw err;
        }));
    const syncer = opts.syncWal ? { sync: opts.syncWal, release: () => {} } : walSyncer(file);
    this.syncWal = syncer.sync;
    this.releaseWal = syncer.release;
    this.checkpointer =
      file === ':memory:' || opts.checkpointer === false
        ? null
        : new Checkpointer(db, file, {
            startAfterCommits: CHECKPOINT_AFTER_COMMITS,
            intervalMs: CHECKPOINT_INTERVAL_MS,
            catchUpFrames: CHECKPOINT_CATCH_UP_FRAMES,
            ...opts.checkpointer,
          });
  }

  /** Open (creating if needed) and migrate the database at `file`. */
  static open(file: string, opts: StoreOptions = {}): Store {
    restrictFiles(file);
    const db = new Database(file);
    try {
      // Before anything writes the header: a new database starts in incremental auto-vacuum.
      db.pragma('auto_vacuum = INCREMENTAL');
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${opts.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
      migrate(db);
      enableIncrementalVacuum(db);
    } catch (err) {
      db.close();
      throw err;
    }
    return new Store(db, file, opts);
  }

  get inTransaction(): boolean {
    return this.unit !== null;
  }

  /**
   * Run fn in a transaction now (synchronously). Nested calls become savepoints: a nested
   * failure rolls back only its own writes and hooks. Durable when it returns (synchronous=FULL).
   */
  tx<T>(fn: () => T): T {
    if (this.unit) return this.savepoint(fn);
    // A FULL commit that wrote fsynced the whole WAL: every earlier group commit is on the disk.
    // (Only worth asking while a group commit waits for its fsync.)
    const waitingForDisk = this.fsyncs && this.committedGen > this.durableThrough;
    const changesBefore = waitingForDisk ? (this.totalChanges.get() as number) : 0;
    const { result, hooks } = this.transaction(fn);
    if (waitingForDisk && (this.totalChanges.get() as number) !== changesBefore) this.durableThrough = this.committedGen;
    this.afterTransaction({ gen: 0, needsSync: false, hooks, settle: () => {} });
    return result;
  }

  /** BEGIN, fn, COMMIT; on failure ROLLBACK, run the rollback hooks and rethrow. */
  private transaction<T>(fn: () => T): { result: T; hooks: Hook[] } {
    const unit = new Unit();
    this.unit = unit;
    this.begin.run();
    let result: T;
    try {
      result = fn();
      // Registered while they run too: until none is left.
      for (let i = 0; i < unit.beforeCommitHooks.length; i++) unit.beforeCommitHooks[i]!();
      this.commit.run();
    } catch (err) {
      if (this.db.inTransaction) this.rollback.run();
      this.unit = null;
      this.runHooks(unit.rollbackHooks);
      throw err;
    }
    this.unit = null;
    this.stats.commits++;
    this.onCommit?.();
    this.checkpointer?.committed();
    return { result, hooks: unit.commitHooks };
  }

  private savepoint<T>(fn: () => T): T {
    const parent = this.unit!;
    const child = new Unit();
    const sp = this.savepointStatements(++this.depth);
    sp.begin.run();
    this.unit = child;
    try {
      const result = fn();
      sp.release.run();
      parent.commitHooks.push(...child.commitHooks);
      parent.rollbackHooks.push(...child.rollbackHooks);
      parent.beforeCommitHooks.push(...child.beforeCommitHooks);
      return result;
    } catch (err) {
      // A full disk or an I/O error makes SQLite roll back the whole transaction, savepoints and
      // all: then there is nothing left to roll back here, and the caller must see that error.
      if (this.db.inTransaction) {
        sp.rollback.run();
        sp.release.run();
      }
      this.runHooks(child.rollbackHooks);
      throw err;
    } finally {
      this.unit = parent;
      this.depth--;
    }
  }

  /** Prepared once per nesting depth: group commit opens one savepoint per write. */
  private savepointStatements(depth: number) {
    let sp = this.savepoints[depth];
    if (!sp) {
      const name = `sp${depth}`;
      sp = this.savepoints[depth] = {
        begin: this.db.prepare(`SAVEPOINT ${name}`),
        release: this.db.prepare(`RELEASE ${name}`),
        rollback: this.db.prepare(`ROLLBACK TO ${name}`),
      };
    }
    return sp;
  }

  /**
   * Queue fn for the next group commit; resolves with fn's result once the commit is on the
   * disk. With `durable: false` the commit need not reach the disk first (see the header).
   */
  write<T>(fn: () => T, opts: { durable?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('store is closed'));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, durable: opts.durable ?? true, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * The next tick flushes, unless an fsync is running: then the writes gather until it returns
   * and commit together (their callers wait for a sync either way; one commit per sync keeps the
   * WAL from rewriting the same pages for a handful of writes at a time).
   */
  private schedule(): void {
    if (this.scheduled || this.syncing || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Register a hook that runs after the enclosing transaction commits (and is on the disk). */
  afterCommit(hook: Hook): void {
    if (!this.unit) throw new Error('afterCommit outside a transaction');
    this.unit.commitHooks.push(hook);
  }

  /**
   * Register work that runs inside the enclosing transaction just before it commits, after every
   * write of a group commit (dropped if its savepoint rolls back; a throw rolls back the whole
   * transaction). For writes a savepoint makes costly: an FTS5 table flushes what it holds in
   * memory at every savepoint, so a group commit's rows go in together, once.
   */
  beforeCommit(hook: Hook): void {
    if (!this.unit) throw new Error('beforeCommit outside a transaction');
    this.unit.beforeCommitHooks.push(hook);
  }

  /** Register a hook that runs if the enclosing transaction (or savepoint) rolls back. */
  onRollback(hook: Hook): void {
    if (!this.unit) throw new Error('onRollback outside a transaction');
    this.unit.rollbackHooks.push(hook);
  }

  /** Commit every queued write now (used by flush ticks and before close). */
  flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      if (this.failure) {
        for (const item of batch) item.reject(this.failure);
        continue;
      }
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      // (exec, not a prepared statement: a prepared PRAGMA synchronous does not reliably take effect.)
      if (this.fsyncs) this.db.exec('PRAGMA synchronous = NORMAL');
      let hooks: Hook[];
      try {
        hooks = this.transaction(() => {
          for (const item of batch) {
            try {
              outcomes.push({ ok: true, value: this.tx(item.fn) });
            } catch (error) {
              // SQLite rolled the whole transaction back (disk full, I/O error): every write of the batch is undone.
              if (!this.db.inTransaction) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        }).hooks;
      } catch (error) {
        // The transaction was lost or its commit failed (disk full, I/O error): nobody's write stands.
        // A write that had already failed on its own keeps its own error (a 4xx is not a full disk).
        batch.forEach((item, i) => {
          const own = outcomes[i];
          item.reject(own && !own.ok ? own.error : error);
        });
        continue;
      } finally {
        if (this.fsyncs) this.db.exec('PRAGMA synchronous = FULL');
      }
      this.stats.batchedWrites += batch.length;
      this.afterTransaction({
        gen: ++this.committedGen,
        needsSync: this.fsyncs && batch.some((item) => item.durable),
        hooks,
        settle: (error) =>
          batch.forEach((item, i) => {
            const outcome = outcomes[i]!;
            if (error) item.reject(error);
            else if (outcome.ok) item.resolve(outcome.value);
            else item.reject(outcome.error);
          }),
      });
    }
  }

  /** Every hook runs, whatever another one throws. */
  private runHooks(hooks: Hook[]): void {
    for (const hook of hooks) {
      try {
        hook();
      } catch (err) {
        this.onHookError(err);
      }
    }
  }

  /** A commit's hooks run now if nothing earlier is waiting, else in turn (commit order). */
  private afterTransaction(committed: Committed): void {
    if (this.waiting.length === 0 && !this.pumping && !committed.needsSync) {
      this.runHooks(committed.hooks);
      committed.settle(null);
      return;
    }
    this.waiting.push(committed);
    this.pump();
  }

  /** Settle every waiting commit that is durable (or needs no fsync), in order; start an fsync for the rest. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0) {
        const head = this.waiting[0]!;
        if (head.needsSync && head.gen > this.durableThrough) break;
        this.waiting.shift();
        this.runHooks(head.hooks);
        head.settle(null);
      }
    } finally {
      this.pumping = false;
    }
    if (this.waiting.length > 0 && !this.syncing) this.startSync();
  }

  private startSync(): void {
    this.syncing = true;
    const target = this.committedGen;
    this.syncWal((err) => {
      this.syncing = false;
      this.stats.walSyncs++;
      if (err) return this.fail(err);
      this.durableThrough = Math.max(this.durableThrough, target);
      this.pump();
      this.schedule();
    });
  }

  /**
   * The WAL could not be made durable: the kernel may have dropped the pages it failed to write,
   * so what the waiting callers wrote may be lost. They are told, and the store takes no more writes.
   */
  private fail(err: Error): void {
    this.failure = new Error(`the database could not be synced to disk: ${err.message}`);
    for (const committed of this.waiting.splice(0)) committed.settle(this.failure);
  }

  /**
   * Copy the WAL into the main database file: TRUNCATE at shutdown; PASSIVE (never waits, leaves the
   * WAL file's size) after bulk internal writes, so each checkpoint stays small (events/retention.ts).
   * (Measured while pruning a million events: these small checkpoints on the event loop kept a
   * GET's p99 at 6.5 ms; leaving them to the checkpoint worker, which copies every 200 ms, let the
   * WAL outgrow it and gave 14.5 ms with stalls up to 146 ms.)
   */
  checkpoint(mode: 'TRUNCATE' | 'PASSIVE' = 'TRUNCATE'): void {
    this.db.pragma(`wal_checkpoint(${mode})`);
  }

  /**
   * Commit what is queued, checkpoint and close. When the final checkpoint fails (a full disk), the
   * database is closed all the same and the error thrown after: what was committed stays in the
   * WAL, which the next open replays; callers still waiting for an fsync are told it failed.
   */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.checkpointer?.close();
    let failed: unknown = null;
    try {
      // A checkpoint syncs the WAL before copying it and the database file after: all is durable.
      this.checkpoint();
      this.durableThrough = this.committedGen;
    } catch (err) {
      failed = err;
      for (const committed of this.waiting.splice(0)) committed.settle(err);
    }
    this.pump();
    this.db.close();
    // An fsync still running keeps the descriptor until it returns (walSyncer).
    this.releaseWal();
    if (failed) throw failed;
  }
}

/**
 * Space freed by deletions (event retention) goes back to the file system through
 * `PRAGMA incremental_vacuum`, which needs auto_vacuum = INCREMENTAL. A database created before
 * that setting is rebuilt once with VACUUM (outside any transaction, so not as a migration; after
 * them, so a database of a newer svc is refused untouched): it takes as long as copying the file
 * and needs that much free space, once.
 */
function enableIncrementalVacuum(db: Database.Database): void {
  if (db.pragma('auto_vacuum', { simple: true }) === AUTO_VACUUM_INCREMENTAL) return;
  db.exec('VACUUM');
}

const AUTO_VACUUM_INCREMENTAL = 2;

/**
 * The database holds every message, event and task output preview: readable by its owner only,
 * whatever the home directory's mode. SQLite creates the -wal and -shm files with the database
 * file's mode, so creating the database 0600 (and tightening files an older svc left 0644) is
 * enough; the three are checked again after open.
 */
function restrictFiles(file: string): void {
  if (file === ':memory:') return;
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      if ((fs.statSync(f).mode & 0o077) !== 0) fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}
