import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaTooNewError, SCHEMA_VERSION } from '../../src/store/migrations/index.js';
import { Store } from '../../src/store/store.js';

const dirs: string[] = [];
function dbFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-store-'));
  dirs.push(dir);
  return path.join(dir, 'svc.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function open(): Store {
  const store = Store.open(dbFile());
  store.db.exec('CREATE TABLE t (v INTEGER NOT NULL UNIQUE)');
  return store;
}

describe('Store', () => {
  it('opens in WAL mode with synchronous=FULL and records the schema version', () => {
    const store = Store.open(dbFile());
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    store.close();
  });

  it('creates a database in incremental auto-vacuum, and rebuilds an older one into it once, keeping its rows', () => {
    const fresh = Store.open(dbFile());
    expect(fresh.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    fresh.close();
    const file = dbFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec("CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('row')");
    expect(old.pragma('auto_vacuum', { simple: true })).toBe(0);
    old.close();
    const store = Store.open(file);
    expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(store.db.prepare('SELECT v FROM kept').pluck().all()).toEqual(['row']);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    store.close();
  });

  it('refuses a database written by a newer schema version', () => {
    const file = dbFile();
    const db = new Database(file);
    db.pragma('user_version = 999');
    db.close();
    expect(() => Store.open(file)).toThrow(SchemaTooNewError);
  });

  it('runs commit hooks after commit and rollback hooks on failure', () => {
    const store = open();
    const seen: string[] = [];
    store.tx(() => {
      store.db.prepare('INSERT INTO t VALUES (1)').run();
      store.afterCommit(() => seen.push('committed'));
    });
    expect(() =>
      store.tx(() => {
        store.db.prepare('INSERT INTO t VALUES (2)').run();
        store.afterCommit(() => seen.push('never'));
        store.onRollback(() => seen.push('rolled back'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(seen).toEqual(['committed', 'rolled back']);
    expect(store.db.prepare('SELECT v FROM t').pluck().all()).toEqual([1]);
    store.close();
  });

  it('a failing nested transaction undoes only its own writes and hooks', () => {
    const store = open();
    const seen: string[] = [];
    store.tx(() => {
      store.db.prepare('INSERT INTO t VALUES (1)').run();
      expect(() =>
        store.tx(() => {
          store.db.prepare('INSERT INTO t VALUES (2)').run();
          store.afterCommit(() => seen.push('inner'));
          throw new Error('inner failure');
        }),
      ).toThrow('inner failure');
      store.afterCommit(() => seen.push('outer'));
    });
    expect(store.db.prepare('SELECT v FROM t').pluck().all()).toEqual([1]);
    expect(seen).toEqual(['outer']);
    store.close();
  });

  it('runs before-commit work inside the transaction after every write of a group commit, without a rolled-back savepoint\'s; a throw undoes the batch', async () => {
    const store = open();
    const order: string[] = [];
    const insert = (v: number) => store.db.prepare('INSERT INTO t VALUES (?)').run(v);
    const writes = [1, 2, 2, 3].map((v) =>
      store.write(() => {
        order.push(`write ${v}`);
        store.beforeCommit(() => {
          order.push(`before commit ${v}`);
          insert(100 + v);
        });
        insert(v); // the second 2 fails: its savepoint and its work go
      }),
    );
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['write 1', 'write 2', 'write 2', 'write 3', 'before commit 1', 'before commit 2', 'before commit 3']);
    expect(store.db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 2, 3, 101, 102, 103]);
    const failed = [store.write(() => insert(4)), store.write(() => store.beforeCommit(() => insert(1)))];
    expect((await Promise.allSettled(failed)).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(store.db.prepare('SELECT count(*) FROM t WHERE v = 4').pluck().get()).toBe(0);
    expect(() => store.beforeCommit(() => {})).toThrow('outside a transaction');
    store.close();
  });

  it('group commit: many writes in one transaction, each caller answered after the commit with its own outcome', async () => {
    const store = open();
    const before = store.stats.commits;
    const writes = Array.from({ length: 50 }, (_, i) => store.write(() => store.db.prepare('INSERT INTO t VALUES (?)').run(i % 40).changes));
    const outcomes = await Promise.allSettled(writes);
    expect(store.stats.commits - before).toBe(1);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(40);
    // Duplicates failed alone; everyone else's row is there.
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(10);
    expect(store.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(40);
    store.close();
  });

  it('a write is durable when its promise resolves (visible to a second connection)', async () => {
    const file = dbFile();
    const store = Store.open(file);
    store.db.exec('CREATE TABLE t (v INTEGER)');
    await store.write(() => store.db.prepare('INSERT INTO t VALUES (7)').run());
    const other = new Database(file, { readonly: true });
    expect(other.prepare('SELECT v FROM t').pluck().all()).toEqual([7]);
    other.close();
    store.close();
  });
  it('a durable group commit is answered, and its hooks run, only after the WAL sync that follows it; the loop is free meanwhile', async () => {
    const syncs: Array<(err: Error | null) => void> = [];
    const store = Store.open(dbFile(), { syncWal: (done) => syncs.push(done) });
    store.db.exec('CREATE TABLE t (v INTEGER NOT NULL UNIQUE)');
    const seen: string[] = [];
    const sync = () => store.db.pragma('synchronous', { simple: true });
    let answered = false;
    const first = store.write(() => {
      store.db.prepare('INSERT INTO t VALUES (1)').run();
      store.afterCommit(() => seen.push('hook 1'));
      return sync();
    }).then((v) => {
      answered = true;
      return v;
    });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    // Committed (a read sees it) and the fsync requested, but nobody told yet.
    expect(store.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1);
    expect(syncs).toHaveLength(1);
    expect(answered).toBe(false);
    expect(seen).toEqual([]);
    // Writes that come while the sync runs gather until it returns, then commit together and
    // wait for a sync of their own.
    const second = store.write(() => {
      store.db.prepare('INSERT INTO t VALUES (2)').run();
      store.afterCommit(() => seen.push('hook 2'));
    });
    const third = store.write(() => store.db.prepare('INSERT INTO t VALUES (3)').run());
    await new Promise((r) => setImmediate(r));
    expect(store.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1);
    const commits = store.stats.commits;
    syncs.shift()!(null);
    expect(await first).toBe(1); // the batch committed with synchronous=NORMAL: the fsync is ours
    expect(seen).toEqual(['hook 1']);
    await new Promise((r) => setImmediate(r));
    expect(store.stats.commits - commits).toBe(1);
    expect(store.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(3);
    expect(syncs).toHaveLength(1);
    syncs.shift()!(null);
    await third;
    await second;
    expect(seen).toEqual(['hook 1', 'hook 2']);
    expect(sync()).toBe(2); // FULL again for tx()
    expect(store.stats.walSyncs).toBe(2);
    store.close();
  });

  it('a hook that throws after a durable commit: the other hooks run, every caller is answered, and the error is reported', async () => {
    const syncs: Array<(err: Error | null) => void> = [];
    const errors: unknown[] = [];
    const store = Store.open(dbFile(), { syncWal: (done) => syncs.push(done), onHookError: (err) => errors.push(err) });
    store.db.exec('CREATE TABLE t (v INTEGER NOT NULL UNIQUE)');
    const seen: string[] = [];
    const first = store.write(() => {
      store.db.prepare('INSERT INTO t VALUES (1)').run();
      store.afterCommit(() => seen.push('before'));
      store.afterCommit(() => {
        throw new Error('a listener broke');
      });
      store.afterCommit(() => seen.push('after'));
      return 'one';
    });
    while (syncs.length === 0) await new Promise((r) => setImmediate(r));
    const second = store.write(() => {
      store.db.prepare('INSERT INTO t VALUES (2)').run();
      store.afterCommit(() => seen.push('next commit'));
      return 'two';
    });
    // The hooks run from the fsync's callback, outside any caller's stack.
    syncs.shift()!(null);
    expect(await first).toBe('one');
    while (syncs.length === 0) await new Promise((r) => setImmediate(r));
    syncs.shift()!(null);
    expect(await second).toBe('two');
    expect(seen).toEqual(['before', 'after', 'next commit']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['a listener broke']);
    // A synchronous tx: its caller gets its result, not the listener's error.
    expect(store.tx(() => {
      store.afterCommit(() => {
        throw new Error('again');
      });
      return 3;
    })).toBe(3);
    expect(errors).toHaveLength(2);
    store.close();
  });

  it('a batch of only non-durable writes asks for no sync, but its hooks still wait for the earlier commit', async () => {
    const syncs: Array<(err: Error | null) => void> = [];
    const store = Store.open(dbFile(), { syncWal: (done) => syncs.push(done) });
    const seen: string[] = [];
    const relaxed = await store.write(() => {
      store.afterCommit(() => seen.push('relaxed alone'));
      return 'ok';
    }, { durable: false });
    expect(relaxed).toBe('ok');
    expect(syncs).toHaveLength(0);
    const durable = store.write(() => store.afterCommit(() => seen.push('durable')));
    await new Promise((r) => setImmediate(r));
    const after = store.write(() => store.afterCommit(() => seen.push('relaxed after')), { durable: false });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['relaxed alone']);
    expect(syncs).toHaveLength(1);
    syncs.shift()!(null);
    await Promise.all([durable, after]);
    expect(seen).toEqual(['relaxed alone', 'durable', 'relaxed after']);
    store.close();
  });

  it('a synchronous tx that writes is durable at once (FULL) and so is every group commit before it: hooks in commit order', async () => {
    const syncs: Array<(err: Error | null) => void> = [];
    const store = Store.open(dbFile(), { syncWal: (done) => syncs.push(done) });
    store.db.exec('CREATE TABLE t (v INTEGER NOT NULL UNIQUE)');
    const seen: string[] = [];
    const grouped = store.write(() => {
      store.db.prepare('INSERT INTO t VALUES (1)').run();
      store.afterCommit(() => seen.push('grouped'));
    });
    await new Promise((r) => setImmediate(r));
    expect(syncs).toHaveLength(1);
    store.tx(() => {
      expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
      store.db.prepare('INSERT INTO t VALUES (2)').run();
      store.afterCommit(() => seen.push('tx'));
    });
    expect(seen).toEqual(['grouped', 'tx']);
    await grouped;
    syncs.shift()!(null); // the late fsync changes nothing
    store.close();
  });

  it('a failed WAL sync rejects the callers waiting for it, and the store takes no more writes', async () => {
    const store = Store.open(dbFile(), { syncWal: (done) => setImmediate(() => done(new Error('EIO: i/o error'))) });
    const seen: string[] = [];
    await expect(store.write(() => store.afterCommit(() => seen.push('never')))).rejects.toThrow(/could not be synced to disk: EIO/);
    expect(seen).toEqual([]);
    await expect(store.write(() => 1)).rejects.toThrow(/could not be synced/);
    store.close();
  });

  /** The database may grow by `pages` more pages: SQLITE_FULL past that, as on a full disk. */
  const capPages = (store: Store, pages: number) => store.db.pragma(`max_page_count = ${(store.db.pragma('page_count', { simple: true }) as number) + pages}`);

  it('a full disk in the middle of a group commit fails every write of the batch with SQLITE_FULL and commits none; writes work again once there is room', async () => {
    const store = open();
    store.db.exec('CREATE TABLE big (s TEXT)');
    const seen: string[] = [];
    const small = (v: number) =>
      store.write(() => {
        store.db.prepare('INSERT INTO t VALUES (?)').run(v);
        store.afterCommit(() => seen.push(`small ${v}`));
        store.onRollback(() => seen.push(`undone ${v}`));
      });
    capPages(store, 2);
    // SQLite rolls the whole transaction back when a statement hits the limit, not only its savepoint.
    const outcomes = await Promise.allSettled([small(1), store.write(() => store.db.prepare('INSERT INTO big VALUES (?)').run('x'.repeat(200_000))), small(2)]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : 'fulfilled'))).toEqual(['SQLITE_FULL', 'SQLITE_FULL', 'SQLITE_FULL']);
    expect(store.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    expect(seen).toEqual(['undone 1']);
    store.db.pragma('max_page_count = 1073741823');
    await small(3);
    expect(store.db.prepare('SELECT v FROM t').pluck().all()).toEqual([3]);
    expect(seen).toEqual(['undone 1', 'small 3']);
    store.close();
  });

  it('close when the final checkpoint fails (a full disk): the database is closed all the same and the error thrown after', async () => {
    const file = dbFile();
    const store = Store.open(file, { checkpointer: false });
    store.db.exec('CREATE TABLE big (s TEXT)');
    await store.write(() => store.db.prepare('INSERT INTO big VALUES (?)').run('y'.repeat(100_000)));
    // (A real full disk is test/integration/disk-full.test.ts; here only the checkpoint fails.)
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    store.checkpoint = () => {
      throw full;
    };
    expect(() => store.close()).toThrow(full);
    expect(store.db.open).toBe(false);
    const again = Store.open(file);
    expect(again.db.prepare('SELECT length(s) FROM big').pluck().all()).toEqual([100_000]);
    again.close();
  });

  it('synchronous "normal" commits without any fsync', async () => {
    const syncs: Array<(err: Error | null) => void> = [];
    const store = Store.open(dbFile(), { synchronous: 'normal', syncWal: (done) => syncs.push(done) });
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
    expect(await store.write(() => 5)).toBe(5);
    expect(syncs).toHaveLength(0);
    store.close();
  });

  it('the default sync fsyncs the real WAL file off the loop', async () => {
    const store = Store.open(dbFile());
    store.db.exec('CREATE TABLE t (v INTEGER)');
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.write(() => store.db.prepare('INSERT INTO t VALUES (?)').run(i))));
    expect(store.stats.walSyncs).toBeGreaterThanOrEqual(1);
    expect(store.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(20);
    store.close();
  });
});

describe('WAL checkpoints in a worker thread', () => {
  const until = async (cond: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const walBytes = (file: string) => fs.statSync(`${file}-wal`).size;

  it('start once writes are sustained, turn SQLite\'s own checkpoint off, and copy the WAL into the database file', async () => {
    const file = dbFile();
    const results: Array<{ log: number; checkpointed: number }> = [];
    const store = Store.open(file, { checkpointer: { startAfterCommits: 5, intervalMs: 5, onCheckpoint: (r) => results.push(r) } });
    store.db.exec('CREATE TABLE t (v TEXT)');
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    for (let i = 0; i < 3; i++) await store.write(() => store.db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1000)));
    expect(store.checkpointer!.running).toBe(false);
    for (let i = 0; i < 10; i++) await store.write(() => store.db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1000)));
    expect(store.checkpointer!.running).toBe(true);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await until(() => results.some((r) => r.log > 0 && r.checkpointed === r.log));
    // What a reader of the database file alone (no WAL) sees: every committed row.
    const copy = path.join(path.dirname(file), 'copy.db');
    fs.copyFileSync(file, copy);
    const alone = new Database(copy, { readonly: true });
    expect(alone.prepare('SELECT count(*) FROM t').pluck().get()).toBe(13);
    alone.close();
    store.close();
  });

  it('under writes that never pause, the WAL stays bounded (the main connection catches up past the limit)', async () => {
    const file = dbFile();
    // synchronous 'normal': no fsync to wait for, so a commit lands during every checkpoint.
    const store = Store.open(file, { synchronous: 'normal', checkpointer: { startAfterCommits: 1, intervalMs: 1, catchUpFrames: 200 } });
    store.db.exec('CREATE TABLE t (v TEXT)');
    const row = 'y'.repeat(4000);
    let maxWal = 0;
    // ~40 MB through the WAL, a commit every tick.
    for (let i = 0; i < 1000; i++) {
      await Promise.all(Array.from({ length: 10 }, () => store.write(() => store.db.prepare('INSERT INTO t VALUES (?)').run(row))));
      maxWal = Math.max(maxWal, walBytes(file));
    }
    expect(store.checkpointer!.stats.checkpoints).toBeGreaterThan(0);
    expect(store.checkpointer!.stats.catchUps).toBeGreaterThan(0);
    expect(maxWal).toBeLessThan(16 * 1024 * 1024);
    store.close();
  });

  it('when the worker dies, SQLite checkpoints on the main connection again', async () => {
    const errors: Error[] = [];
    const store = Store.open(dbFile(), { checkpointer: { startAfterCommits: 1, intervalMs: 5, onError: (e) => errors.push(e) } });
    await store.write(() => 1);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await (store.checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await until(() => errors.length > 0);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(store.checkpointer!.running).toBe(false);
    await store.write(() => 2); // writes go on
    store.close();
  });
});
