/** The credential store file: hand-written entries, skipped garbage, atomic 0600 writes, refusal of a readable file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialStore, CredentialStoreError } from '../../src/store/credentials.js';

const homes: string[] = [];
function home(): string {
  const h = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cred-'));
  homes.push(h);
  return h;
}
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

describe('CredentialStore', () => {
  it('reads a hand-written file: no kind means bearer_token; entries without a token or with a bad name are skipped', () => {
    const h = home();
    const file = path.join(h, 'credentials.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: { otlp: { token: 't1' }, k: { kind: 'api_key', token: 'k1' }, empty: { token: '' }, '../x': { token: 'y' }, n: null } }), { mode: 0o600 });
    const store = new CredentialStore(h);
    expect(store.list().map((p) => [p.profile, p.kind, p.configured])).toEqual([
      ['k', 'api_key', true],
      ['otlp', 'bearer_token', true],
    ]);
    expect(store.token('otlp')).toBe('t1');
    expect(store.token('empty')).toBeNull();
    expect(store.token('__proto__')).toBeNull();
  });

  it('writes 0600 through a temporary file, keeps other profiles, and a delete answers null for an unknown profile', () => {
    const h = home();
    const store = new CredentialStore(h, () => Date.parse('2026-01-02T03:04:05Z'));
    expect(store.list()).toEqual([]);
    expect(store.put('a', 'api_key', 'A')).toEqual({ profile: 'a', kind: 'api_key', configured: true, updated_at: '2026-01-02T03:04:05.000Z' });
    store.put('b', 'bearer_token', 'B');
    const file = path.join(h, 'credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(h)).toEqual(['credentials.json']);
    expect(store.delete('a')).toMatchObject({ profile: 'a', configured: false });
    expect(store.delete('a')).toBeNull();
    expect(new CredentialStore(h).list().map((p) => p.profile)).toEqual(['b']);
    expect(store.list(['z', 'b']).map((p) => [p.profile, p.configured])).toEqual([
      ['b', true],
      ['z', false],
    ]);
  });

  it('a profile named like an Object.prototype member is only ever a profile', () => {
    const store = new CredentialStore(home());
    expect(store.status('constructor')).toBeNull();
    expect(store.token('toString')).toBeNull();
    store.put('constructor', 'api_key', 'C');
    expect(store.status('constructor')).toMatchObject({ configured: true, kind: 'api_key' });
    expect(store.list(['hasOwnProperty']).map((p) => [p.profile, p.configured])).toEqual([
      ['constructor', true],
      ['hasOwnProperty', false],
    ]);
  });

  it('sees a change another writer made to the file (a hand edit, another process)', () => {
    const h = home();
    const store = new CredentialStore(h);
    store.put('a', 'api_key', 'first');
    expect(store.token('a')).toBe('first');
    const file = path.join(h, 'credentials.json');
    fs.writeFileSync(file, JSON.stringify({ profiles: { a: { kind: 'api_key', token: 'second-longer' } } }), { mode: 0o600 });
    expect(store.token('a')).toBe('second-longer');
  });

  it('refuses a file group or others can read, and one that is not JSON', () => {
    const h = home();
    const file = path.join(h, 'credentials.json');
    fs.writeFileSync(file, '{"profiles":{}}', { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    expect(() => new CredentialStore(h).list()).toThrow(CredentialStoreError);
    expect(() => new CredentialStore(h).put('a', 'api_key', 'x')).toThrow(/chmod 600/);
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, '{not json');
    expect(() => new CredentialStore(h).token('a')).toThrow(/not valid JSON/);
  });
});
