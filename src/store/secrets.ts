/**
 * Secrets svc must be able to use in clear (binding delivery credentials, webhook signing
 * secrets) are kept out of the database (ARCHITECTURE.md principle 7): rows hold a reference, the
 * value lives in `<home>/secrets.json`, mode 0600, written atomically (temporary file, fsync,
 * rename, directory fsync). A database backup or copy therefore carries no usable credential.
 *
 * Inside a store transaction, `put` and `delete` register a rollback hook that restores the
 * previous value, so a change whose transaction fails leaves the secret as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile, writePrivateFile } from '../core/index.js';
import type { Store } from './store.js';

export const SECRETS_FILE = 'secrets.json';

export class SecretStore {
  private readonly values: Map<string, string>;
  private readonly file: string;

  constructor(
    home: string,
    private readonly store?: Store,
  ) {
    this.file = path.join(home, SECRETS_FILE);
    this.values = new Map(Object.entries(readSecrets(this.file)));
  }

  get(ref: string): string | null {
    return this.values.get(ref) ?? null;
  }

  has(ref: string): boolean {
    return this.values.has(ref);
  }

  put(ref: string, value: string): void {
    const previous = this.values.get(ref);
    if (previous === value) return;
    this.values.set(ref, value);
    this.persist();
    this.onRollback(() => this.restore(ref, previous));
  }

  delete(ref: string): void {
    const previous = this.values.get(ref);
    if (previous === undefined) return;
    this.values.delete(ref);
    this.persist();
    this.onRollback(() => this.restore(ref, previous));
  }

  /** References starting with `prefix` (cleanup of a resource's secrets). */
  refs(prefix = ''): string[] {
    return [...this.values.keys()].filter((k) => k.startsWith(prefix));
  }

  private restore(ref: string, previous: string | undefined): void {
    if (previous === undefined) this.values.delete(ref);
    else this.values.set(ref, previous);
    this.persist();
  }

  private onRollback(hook: () => void): void {
    if (this.store?.inTransaction) this.store.onRollback(hook);
  }

  private persist(): void {
    writePrivateFile(this.file, JSON.stringify(Object.fromEntries(this.values), null, 1));
  }
}

function readSecrets(file: string): Record<string, string> {
  let text: string;
  try {
    text = readRegularFile(file).text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  fs.chmodSync(file, 0o600);
  const parsed: unknown = JSON.parse(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
