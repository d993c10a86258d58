/**
 * Named credential profiles (`<home>/credentials.json`, mode 0600): the keys and tokens svc sends to
 * services on the user's behalf. A model provider names one with `credential_profile` (read at each
 * request, so a change needs no restart) and so does the OTLP exporter (read at start).
 *
 * File shape: `{"profiles": {"<name>": {"kind": "api_key" | "bearer_token", "token": "...",
 * "updated_at": "..."}}}`; an entry without `kind` (written by hand) is a `bearer_token`.
 *
 * Reads refuse a file that group or others can read (the secret may already have leaked; the user
 * must look at it). Writes go through a temporary 0600 file, fsync and rename, so a crash leaves the
 * old file or the new one. A profile's material is never returned by any read: callers get
 * `{profile, kind, configured}`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROFILE_NAME, readRegularFile, SpecialFileError, writePrivateFile } from '../core/index.js';

export const CREDENTIALS_FILE = 'credentials.json';
export const CREDENTIAL_KINDS = ['api_key', 'bearer_token'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
/** Largest accepted material (keys and tokens are far smaller). */
export const MATERIAL_MAX_BYTES = 16 * 1024;

export interface CredentialStatus {
  profile: string;
  kind: CredentialKind;
  configured: boolean;
  updated_at: string | null;
}

/** Why the store cannot be used (mode, JSON, shape): the message names the file and the fix. */
export class CredentialStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialStoreError';
  }
}

interface Entry {
  kind: CredentialKind;
  token: string;
  updated_at: string | null;
}

export class CredentialStore {
  readonly file: string;
  private cache: { version: string; profiles: Record<string, Entry> } | null = null;

  constructor(
    home: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(home, CREDENTIALS_FILE);
  }

  /** Every stored profile and each of `referenced` (named by the config) that is not stored, by name. */
  list(referenced: Iterable<string> = []): CredentialStatus[] {
    const stored = this.read();
    const names = new Set([...Object.keys(stored), ...referenced]);
    return [...names]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((profile) => (stored[profile] ? status(profile, stored[profile]) : { profile, kind: 'api_key', configured: false, updated_at: null }));
  }

  status(profile: string): CredentialStatus | null {
    const e = this.read()[profile];
    return e ? status(profile, e) : null;
  }

  /** The profile's material, null when there is no such profile. */
  token(profile: string): string | null {
    return this.read()[profile]?.token ?? null;
  }

  /** The material of a profile a setting names (read at start); throws CredentialStoreError with a one-line reason. */
  required(profile: string, setting: string): string {
    if (!fs.existsSync(this.file)) throw new CredentialStoreError(`${setting} ${JSON.stringify(profile)}: credential store ${this.file} does not exist`);
    const token = this.token(profile);
    if (token === null) {
      throw new CredentialStoreError(
        `credential profile ${JSON.stringify(profile)} not found in ${this.file} (PUT /api/control/runtime/credentials/${profile}, or {"profiles": {"${profile}": {"token": "..."}}})`,
      );
    }
    return token;
  }

  put(profile: string, kind: CredentialKind, material: string): CredentialStatus {
    const profiles = this.read();
    profiles[profile] = { kind, token: material, updated_at: new Date(this.now()).toISOString() };
    this.write(profiles);
    return status(profile, profiles[profile]!);
  }

  /** Remove a profile; null when there was none. */
  delete(profile: string): CredentialStatus | null {
    const profiles = this.read();
    const entry = profiles[profile];
    if (!entry) return null;
    delete profiles[profile];
    this.write(profiles);
    return { ...status(profile, entry), configured: false };
  }

  /**
   * The profiles, null-prototype (a name such as `constructor` is only ever a profile). The parsed
   * file is kept while its inode, size and mtime stay the same: a provider reads its key at every
   * request, which then costs one stat.
   */
  private read(): Record<string, Entry> {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      this.cache = null;
      return copy({});
    }
    const version = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.mode}`;
    if (this.cache?.version === version) return copy(this.cache.profiles);
    const profiles = this.parse(stat);
    this.cache = { version, profiles };
    return copy(profiles);
  }

  private parse(stat: fs.Stats): Record<string, Entry> {
    if ((stat.mode & 0o077) !== 0) {
      throw new CredentialStoreError(
        `credential store ${this.file} has mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}; it must not be readable by group or others (chmod 600)`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(readRegularFile(this.file).text);
    } catch (err) {
      if (err instanceof SpecialFileError) throw new CredentialStoreError(`credential store ${err.message}; move it away`);
      throw new CredentialStoreError(`credential store ${this.file} is not valid JSON: ${(err as Error).message}`);
    }
    const raw = (parsed as { profiles?: unknown } | null)?.profiles;
    const out: Record<string, Entry> = Object.create(null) as Record<string, Entry>;
    if (raw === undefined) return out;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new CredentialStoreError(`credential store ${this.file}: "profiles" must be an object of {"kind", "token"} entries`);
    }
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
      const v = value as { kind?: unknown; token?: unknown; updated_at?: unknown } | null;
      if (!PROFILE_NAME.test(name) || !v || typeof v.token !== 'string' || v.token === '') continue;
      const kind = CREDENTIAL_KINDS.includes(v.kind as CredentialKind) ? (v.kind as CredentialKind) : 'bearer_token';
      out[name] = { kind, token: v.token, updated_at: typeof v.updated_at === 'string' ? v.updated_at : null };
    }
    return out;
  }

  private write(profiles: Record<string, Entry>): void {
    writePrivateFile(this.file, JSON.stringify({ profiles }, null, 1));
  }
}

/** A null-prototype copy: callers may change it without touching the cache. */
function copy(profiles: Record<string, Entry>): Record<string, Entry> {
  return Object.assign(Object.create(null) as Record<string, Entry>, profiles);
}

function status(profile: string, e: Entry): CredentialStatus {
  return { profile, kind: e.kind, configured: true, updated_at: e.updated_at };
}
