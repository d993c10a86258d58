/**
 * The SQLite store: one better-sqlite3 connection in WAL mode with synchronous=FULL, a
 * transaction helper with commit/rollback hooks, and group commit.
 *
 * Group commit: `write(fn)` queues fn; on the next tick every queued fn runs inside one
 * transaction (each in its own savepoint, so one failing caller does not undo the others), the
 * transaction commits (one fsync for the whole batch), after-commit hooks run (the broadcaster
 * publishes), and only then is each caller answered. Durability costs one fsync per tick, not
 * one per request.
 *
 * Internal progress nobody has been promised (the run loop claiming and finishing turns) may be
 * written with `{durable: false}`: a batch made only of such writes commits with
 * synchronous=NORMAL, which in WAL mode skips the fsync. It survives a crash of the process
 * (kill -9: the WAL is in the OS page cache); only a power cut can lose it, and the next durable
 * commit (any acknowledged write) fsyncs the WAL and with it everything written before.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { migrate } from './migrations/index.js';

type Hook = () => void;

class Unit {
  readonly commitHooks: Hook[] = [];
  readonly rollbackHooks: Hook[] = [];
}

interface PendingWrite {
  fn: () => unknown;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface StoreStats {
  commits: number;
  batchedWrites: number;
}

/** Upper bound on writes folded into one group-commit transaction. */
const MAX_BATCH = 2000;

export class Store {
  readonly db: Database.Database;
  private unit: Unit | null = null;
  private depth = 0;
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private closed = false;
  readonly stats: StoreStats = { commits: 0, batchedWrites: 0 };
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly savepoints: Array<{ begin: Database.Statement; release: Database.Statement; rollback: Database.Statement }> = [];

  /** Called after every committed transaction (metrics). */
  onCommit: (() => void) | null = null;

  private constructor(db: Database.Database) {
    this.db = db;
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** Open (creating if needed) and migrate the database at `file`. */
  static open(file: string): Store {
    restrictFiles(file);
    const db = new Database(file);
    try {
      // Before anything writes the header: a new database starts in incremental auto-vacuum.
      db.pragma('auto_vacuum = INCREMENTAL');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      migrate(db);
      enableIncrementalVacuum(db);
    } catch (err) {
      db.close();
      throw err;
    }
    return new Store(db);
  }

  get inTransaction(): boolean {
    return this.unit !== null;
  }

  /**
   * Run fn in a transaction now (synchronously). Nested calls become savepoints: a nested
   * failure rolls back only its own writes and hooks.
   */
  tx<T>(fn: () => T): T {
    if (this.unit) return this.savepoint(fn);
    const unit = new Unit();
    this.unit = unit;
    this.begin.run();
    let result: T;
    try {
      result = fn();
      this.commit.run();
    } catch (err) {
      if (this.db.inTransaction) this.rollback.run();
      this.unit = null;
      runHooks(unit.rollbackHooks);
      throw err;
    }
    this.unit = null;
    this.stats.commits++;
    this.onCommit?.();
    runHooks(unit.commitHooks);
    return result;
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
      return result;
    } catch (err) {
      sp.rollback.run();
      sp.release.run();
      runHooks(child.rollbackHooks);
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
   * Queue fn for the next group commit; resolves with fn's result after the commit. With
   * `durable: false` the commit need not reach the disk before the answer (see the header).
   */
  write<T>(fn: () => T, opts: { durable?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('store is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, durable: opts.durable ?? true, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Register a hook that runs after the enclosing transaction commits. */
  afterCommit(hook: Hook): void {
    if (!this.unit) throw new Error('afterCommit outside a transaction');
    this.unit.commitHooks.push(hook);
  }

  /** Register a hook that runs if the enclosing transaction (or savepoint) rolls back. */
  onRollback(hook: Hook): void {
    if (!this.unit) throw new Error('onRollback outside a transaction');
    this.unit.rollbackHooks.push(hook);
  }

  /** Run every queued write now (used by flush ticks and before close). */
  flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      const relaxed = batch.every((item) => !item.durable);
      // (exec, not a prepared statement: a prepared PRAGMA synchronous does not reliably take effect.)
      if (relaxed) this.db.exec('PRAGMA synchronous = NORMAL');
      try {
        this.tx(() => {
          for (const item of batch) {
            try {
              outcomes.push({ ok: true, value: this.tx(item.fn) });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        });
      } catch (error) {
        // The commit itself failed (disk full, I/O error): nobody's write is durable.
        for (const item of batch) item.reject(error);
        continue;
      } finally {
        if (relaxed) this.db.exec('PRAGMA synchronous = FULL');
      }
      this.stats.batchedWrites += batch.length;
      batch.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    }
  }

  /**
   * Copy the WAL into the main database file: TRUNCATE at shutdown; PASSIVE (never waits, leaves the
   * WAL file's size) after bulk internal writes, so each checkpoint stays small (events/retention.ts).
   */
  checkpoint(mode: 'TRUNCATE' | 'PASSIVE' = 'TRUNCATE'): void {
    this.db.pragma(`wal_checkpoint(${mode})`);
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.checkpoint();
    this.db.close();
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

function runHooks(hooks: Hook[]): void {
  for (const hook of hooks) hook();
}

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
