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
  it('commits a batch of only non-durable writes with synchronous=NORMAL, any durable write keeps FULL, and FULL is restored', async () => {
    const store = open();
    const sync = () => store.db.pragma('synchronous', { simple: true });
    const relaxed = await Promise.all([store.write(() => sync(), { durable: false }), store.write(() => sync(), { durable: false })]);
    expect(relaxed).toEqual([1, 1]);
    expect(sync()).toBe(2);
    const mixed = await Promise.all([store.write(() => sync(), { durable: false }), store.write(() => sync())]);
    expect(mixed).toEqual([2, 2]);
    // A failing commit restores FULL too.
    await expect(store.write(() => { store.db.prepare('INSERT INTO t (v) VALUES (1)').run(); throw new Error('x'); }, { durable: false })).rejects.toThrow('x');
    expect(sync()).toBe(2);
    store.close();
  });
});
