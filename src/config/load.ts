/**
 * Configuration layering (docs/configuration.md#layers-and-changes-at-run-time): built-in defaults
 * < config file < environment < command-line flags, validated by one zod schema. The only module
 * that reads process.env for settings is this one (through the `env` argument its caller passes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';
import { PROTOTYPE_KEYS, readRegularFile, SpecialFileError } from '../core/index.js';
import { ConfigSchema, type Config } from './schema.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface ServeFlags {
  home?: string | undefined;
  config?: string | undefined;
  listen?: string | undefined;
  socket?: string | undefined;
  port?: number | undefined;
  token?: string | undefined;
  tokenFile?: string | undefined;
  logLevel?: string | undefined;
}

export interface ResolvedConfig {
  home: string;
  /** The file that was read, or null when none exists. */
  configFile: string | null;
  /** Where PATCH /api/control/runtime/config writes: the file read, else <home>/config.toml. */
  configPath: string;
  values: Config;
  /** The effective control token ('' = local mode). */
  controlToken: string;
  /** control_token is written in the config file itself (not only given by env or flag). */
  tokenInConfigFile: boolean;
  /** The OpenID client secret read from `auth.oidc.client_secret_file` ('' = public client). */
  oidcClientSecret: string;
  socketPath: string;
}

type Doc = Record<string, unknown>;

export function defaultHome(env: NodeJS.ProcessEnv): string {
  return env.SVC_HOME || path.join(os.homedir(), '.svc');
}

export function loadConfig(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const home = path.resolve(flags.home ?? defaultHome(env));
  let configFile: string | null = null;
  let fileDoc: Doc = {};
  if (flags.config) {
    configFile = path.resolve(flags.config);
    if (!fs.existsSync(configFile)) throw new ConfigError(`config file ${configFile} does not exist`);
  } else if (fs.existsSync(path.join(home, 'config.toml'))) {
    configFile = path.join(home, 'config.toml');
  }
  if (configFile) fileDoc = readTomlFile(configFile);

  const envDoc: Doc = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) if (env[name]) envDoc[key] = env[name];

  const flagDoc: Doc = {};
  if (flags.listen !== undefined) flagDoc.listen = flags.listen;
  if (flags.logLevel !== undefined) flagDoc.log_level = flags.logLevel;
  if (flags.socket !== undefined) flagDoc.inbox = { socket: flags.socket };
  if (flags.port !== undefined) setPath(flagDoc, 'inbox.port', flags.port);
  // A token given at a higher layer replaces a token or token file from a lower one.
  if (envDoc.control_token !== undefined) envDoc.control_token_file = '';
  if (flags.tokenFile !== undefined) Object.assign(flagDoc, { control_token: '', control_token_file: flags.tokenFile });
  if (flags.token !== undefined) Object.assign(flagDoc, { control_token: flags.token, control_token_file: '' });

  const merged = deepMerge(deepMerge(fileDoc, envDoc), flagDoc);
  const values = validateConfig(merged, (keyPath) => settingOrigin(keyPath, envDoc, flagDoc, configFile));
  const base = configFile ? path.dirname(configFile) : home;
  const controlToken = resolveToken(values, base);
  const { oidc } = values.auth;
  const oidcClientSecret = oidc.issuer && oidc.client_secret_file ? readSecretFile('OIDC client secret file', path.resolve(base, oidc.client_secret_file)) : '';
  const socketPath = path.resolve(home, values.inbox.socket || 'inbox.sock');
  // The token (not a token file) is written in the config file itself: a file others can read leaks it.
  const tokenInConfigFile = typeof fileDoc.control_token === 'string' && fileDoc.control_token !== '';
  return { home, configFile, configPath: configFile ?? path.join(home, 'config.toml'), values, controlToken, tokenInConfigFile, oidcClientSecret, socketPath };
}

/** The environment variables that set a config key. */
const ENV_KEYS: Record<string, string> = { SVC_TOKEN: 'control_token', SVC_LOG_LEVEL: 'log_level', SVC_LISTEN: 'listen' };
/** The `svc serve` options that set a config key (dotted). */
const FLAG_KEYS: Record<string, string> = {
  listen: '--listen',
  log_level: '--log-level',
  'inbox.socket': '--socket',
  'inbox.port': '--port',
  control_token: '--token',
  control_token_file: '--token-file',
};

/**
 * Where the invalid value at `keyPath` came from, for the error message: the command-line option
 * or environment variable that set it (a higher layer wins, so it is the one validated), else the
 * config file.
 */
function settingOrigin(keyPath: PropertyKey[], envDoc: Doc, flagDoc: Doc, configFile: string | null): string {
  const dotted = keyPath.map(String).join('.');
  const has = (doc: Doc) => keyPath.length > 0 && keyPath.reduce<unknown>((d, k) => (d !== null && typeof d === 'object' && Object.hasOwn(d, k) ? (d as Doc)[k as string] : undefined), doc) !== undefined;
  if (has(flagDoc) && FLAG_KEYS[dotted]) return `command-line option ${FLAG_KEYS[dotted]}`;
  const envName = Object.keys(ENV_KEYS).find((name) => ENV_KEYS[name] === dotted);
  if (has(envDoc) && envName) return `environment variable ${envName}`;
  return configFile ?? 'configuration';
}

/** `where` names the source of the bad value: a fixed name, or one found from the issue's key path. */
export function validateConfig(doc: unknown, where: string | ((keyPath: PropertyKey[]) => string)): Config {
  const result = ConfigSchema.safeParse(doc);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ConfigError(`${typeof where === 'string' ? where : where(issue.path)}: ${formatZodIssue(issue)}`);
}

export function formatZodIssue(issue: z.core.$ZodIssue): string {
  let keyPath = issue.path.map(String).join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    keyPath = keyPath ? `${keyPath}.${key}` : key;
    message = 'unknown key';
  }
  return keyPath ? `${keyPath}: ${message}` : message;
}

export function readTomlFile(file: string): Doc {
  let text: string;
  try {
    text = readRegularFile(file).text;
  } catch (err) {
    if (err instanceof SpecialFileError) throw new ConfigError(`config file ${err.message}`);
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  try {
    return parseToml(text) as Doc;
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid TOML: ${(err as Error).message.split('\n')[0]}`);
  }
}

function resolveToken(values: Config, base: string): string {
  if (values.control_token) return values.control_token;
  if (!values.control_token_file) return '';
  return readSecretFile('control token file', path.resolve(base, values.control_token_file));
}

/** A secret kept in its own file (trimmed); an unreadable or empty file refuses the start. */
function readSecretFile(what: string, file: string): string {
  try {
    const secret = readRegularFile(file).text.trim();
    if (!secret) throw new ConfigError(`${what} ${file} is empty`);
    return secret;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    // A FIFO or a device would hold `svc serve`, and every CLI command, until something writes to it.
    if (err instanceof SpecialFileError) throw new ConfigError(`${what} ${err.message}`);
    throw new ConfigError(`cannot read ${what} ${file}: ${(err as Error).message}`);
  }
}

/**
 * Object-path helpers for configuration documents. They never follow or create a prototype key
 * (`__proto__`, `constructor`, `prototype`): a dotted key such as `__proto__.x` would otherwise
 * reach Object.prototype through assignment.
 */
function assertDataKey(key: string): void {
  if (PROTOTYPE_KEYS.has(key)) throw new ConfigError(`${JSON.stringify(key)} is not a configuration key`);
}

export function deepMerge(base: Doc, over: Doc): Doc {
  const out: Doc = { ...base };
  for (const [k, v] of Object.entries(over)) {
    assertDataKey(k);
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    out[k] = isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

export function setPath(doc: Doc, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  parts.forEach(assertDataKey);
  let cur = doc;
  for (const part of parts.slice(0, -1)) {
    if (!Object.hasOwn(cur, part) || !isPlainObject(cur[part])) cur[part] = {};
    cur = cur[part] as Doc;
  }
  cur[parts[parts.length - 1]!] = value;
}

export function getPath(doc: Doc, dotted: string): unknown {
  let cur: unknown = doc;
  for (const part of dotted.split('.')) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function isPlainObject(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
