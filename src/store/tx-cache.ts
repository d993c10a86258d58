/**
 * An in-memory cache of values derived from the database, kept honest across transactions:
 * every fill or change made inside a transaction is forgotten if that transaction (or savepoint)
 * rolls back, so the next read reloads the committed truth. Hot paths (enqueue) use it to avoid
 * re-reading rows they read on every request.
 */
import type { Store } from './store.js';

export class TxCache<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly store: Store) {}

  get(key: string, load: () => V): V {
    if (this.map.has(key)) return this.map.get(key) as V;
    const value = load();
    this.set(key, value);
    return value;
  }

  /** The cached value, without loading. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    this.map.set(key, value);
    this.forgetOnRollback(key);
  }

  delete(key: string): void {
    this.map.delete(key);
    this.forgetOnRollback(key);
  }

  private forgetOnRollback(key: string): void {
    if (this.store.inTransaction) this.store.onRollback(() => this.map.delete(key));
  }
}
