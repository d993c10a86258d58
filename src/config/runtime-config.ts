/**
 * GET/PATCH /api/control/runtime/config. The running daemon keeps the configuration it started
 * with; PATCH writes supported keys into the TOML file (answering `accepted_requires_restart`)
 * and refuses start-up-only or unknown keys per key with a reason, without failing the request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify as toToml } from 'smol-toml';
import { checkJson, PROTOTYPE_KEYS } from '../core/index.js';
import { ConfigSchema, isStartupOnly, STARTUP_ONLY_KEYS, type Config } from './schema.js';
import { formatZodIssue, getPath, readTomlFile, setPath, type ResolvedConfig } from './load.js';

export interface ConfigUpdate {
  key: string;
  value?: unknown;
  /** Remove the key from the config file (the default applies after restart). */
  unset?: boolean | undefined;
}

/** What the config file cannot say by itself: the models catalog and the providers' key status. */
export interface SurfaceFacts {
  modelCatalog: string[];
  providers: Array<{ name: string; kind: string; base_url: string; api_key_env: string; credential_profile: string; api_key: 'not_required' | 'set' | 'missing' }>;
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

  /**
   * The effective configuration (secrets redacted) and where it persists, with the real system's
   * summary beside it (docs/holon-gui.md): `config_file_path`, `model_default`,
   * the catalog, the providers and what svc does not have (no fallbacks, vision or image defaults,
   * web search).
   */
  surface(facts: SurfaceFacts) {
    const { values } = this.config;
    return {
      config_path: this.config.configPath,
      config_file_path: this.config.configPath,
      config_file_exists: fs.existsSync(this.config.configPath),
      home_dir: this.config.home,
      effective: redact(values),
      startup_only_keys: [...STARTUP_ONLY_KEYS].sort(),
      model_default: values.model.default,
      model_fallbacks: [] as string[],
      vision_default: null,
      image_generation_default: null,
      model_catalog: facts.modelCatalog,
      unknown_model_fallback_configured: false,
      // svc never falls back to another provider: a failed request fails the turn.
      disable_provider_fallback: true,
      providers: facts.providers.map((p) => ({
        id: p.name,
        transport: p.kind,
        base_url: p.base_url,
        oauth_supported: false,
        api_key_supported: true,
        credential_source: p.credential_profile ? 'profile' : p.api_key_env ? 'env' : 'none',
        credential_kind: p.credential_profile || p.api_key_env ? 'api_key' : 'none',
        credential_env: p.api_key_env || null,
        credential_profile: p.credential_profile || null,
        credential_configured: p.api_key !== 'missing',
        configured_in_config: true,
      })),
      available_search_provider_kinds: [] as unknown[],
      web_search_providers: [] as unknown[],
    };
  }

  patch(updates: ConfigUpdate[]): { changed: boolean; results: UpdateResult[] } {
    const file = this.config.configPath;
    const doc = fs.existsSync(file) ? readTomlFile(file) : {};
    const results: UpdateResult[] = [];
    let changed = false;
    for (const { key, value, unset } of updates) {
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
      if (unset) deletePath(candidate, key);
      else setPath(candidate, key, value);
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
      if (JSON.stringify(getPath(doc, key)) !== JSON.stringify(getPath(candidate, key))) changed = true;
      if (unset) deletePath(doc, key);
      else setPath(doc, key, value);
      results.push({
        key,
        effect: 'accepted_requires_restart',
        reason: unset
          ? 'removed from the config file; the running daemon keeps its configuration until restart'
          : 'written to the config file; the running daemon keeps its configuration until restart',
      });
    }
    if (changed) writeAtomically(file, toToml(doc));
    return { changed, results };
  }
}

/** Remove a dotted key from a TOML document (a missing key is a no-op). */
function deletePath(doc: Record<string, unknown>, dotted: string): void {
  const parts = dotted.split('.');
  const last = parts.pop()!;
  const parent = parts.length === 0 ? doc : getPath(doc, parts.join('.'));
  if (parent && typeof parent === 'object' && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[last];
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

/** Which config keys name each credential profile: `{profile: ["providers.NAME", ...]}`. */
export function credentialReferences(values: Config): Map<string, string[]> {
  const refs = new Map<string, string[]>();
  const add = (profile: string, key: string) => {
    if (profile) refs.set(profile, [...(refs.get(profile) ?? []), key]);
  };
  for (const [name, p] of Object.entries(values.providers)) add(p.credential_profile, `providers.${name}.credential_profile`);
  add(values.runtime.observability.otlp.credential_profile, 'runtime.observability.otlp.credential_profile');
  for (const [name, m] of Object.entries(values.mcp.servers)) {
    add(m.credential_profile, `mcp.servers.${name}.credential_profile`);
    for (const [variable, profile] of Object.entries(m.env_credentials)) add(profile, `mcp.servers.${name}.env_credentials.${variable}`);
  }
  return refs;
}
