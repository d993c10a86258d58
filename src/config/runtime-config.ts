/**
 * GET/PATCH /api/control/runtime/config. The running daemon keeps the configuration it started
 * with; PATCH writes supported keys into the TOML file (answering `accepted_requires_restart`)
 * and refuses start-up-only or unknown keys per key with a reason, without failing the request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify as toToml } from 'smol-toml';
import { checkJson, PROTOTYPE_KEYS } from '../core/json-guard.js';
import { ConfigSchema, isStartupOnly, STARTUP_ONLY_KEYS, type Config } from './schema.js';
import { formatZodIssue, getPath, readTomlFile, setPath, type ResolvedConfig } from './load.js';

export interface ConfigUpdate {
  key: string;
  value: unknown;
}

export interface UpdateResult {
  key: string;
  effect: 'accepted_requires_restart' | 'rejected';
  reason: string;
}

const STARTUP_ONLY_REASON = 'start-up only: set it in the config file, the environment or a flag, then restart';

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export class RuntimeConfig {
  constructor(private readonly config: ResolvedConfig) {}

  /** The effective configuration (secrets redacted) and where it persists. */
  surface() {
    return {
      config_path: this.config.configPath,
      config_file_exists: fs.existsSync(this.config.configPath),
      home_dir: this.config.home,
      effective: redact(this.config.values),
      startup_only_keys: [...STARTUP_ONLY_KEYS].sort(),
    };
  }

  patch(updates: ConfigUpdate[]): { changed: boolean; results: UpdateResult[] } {
    const file = this.config.configPath;
    const doc = fs.existsSync(file) ? readTomlFile(file) : {};
    const results: UpdateResult[] = [];
    let changed = false;
    for (const { key, value } of updates) {
      const reject = (reason: string) => results.push({ key, effect: 'rejected', reason });
      if (!KEY_PATTERN.test(key)) {
        reject('not a configuration key (expected dotted names such as events.heartbeat_ms)');
        continue;
      }
      if (key.split('.').some((part) => PROTOTYPE_KEYS.has(part))) {
        reject('not a configuration key: __proto__, constructor and prototype are never keys');
        continue;
      }
      if (isStartupOnly(key)) {
        reject(STARTUP_ONLY_REASON);
        continue;
      }
      const hostile = checkJson(value, { strictKeys: true });
      if (hostile) {
        reject(`invalid value: ${hostile.kind === 'depth' ? 'nested too deeply' : `the key ${JSON.stringify(hostile.path)} is never a configuration key`}`);
        continue;
      }
      const candidate = structuredClone(doc);
      setPath(candidate, key, value);
      // A table value is checked key by key: `{"key":"inbox","value":{"port":1}}` changes inbox.port.
      const touched = [...STARTUP_ONLY_KEYS].find((k) => JSON.stringify(getPath(doc, k)) !== JSON.stringify(getPath(candidate, k)));
      if (touched) {
        reject(`${STARTUP_ONLY_REASON} (${touched} is start-up only)`);
        continue;
      }
      const check = ConfigSchema.safeParse(candidate);
      if (!check.success) {
        const issue = check.error.issues[0]!;
        reject(issue.code === 'unrecognized_keys' ? `unknown key: ${formatZodIssue(issue)}` : `invalid value: ${formatZodIssue(issue)}`);
        continue;
      }
      if (JSON.stringify(getPath(doc, key)) !== JSON.stringify(value)) changed = true;
      setPath(doc, key, value);
      results.push({ key, effect: 'accepted_requires_restart', reason: 'written to the config file; the running daemon keeps its configuration until restart' });
    }
    if (changed) writeAtomically(file, toToml(doc));
    return { changed, results };
  }
}

function redact(values: Config): Config {
  return { ...values, control_token: values.control_token ? '[redacted]' : '' };
}

function writeAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
