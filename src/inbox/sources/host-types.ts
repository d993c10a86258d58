/**
 * Host types, in one table: what a host's `config` may hold, what the `config` of a source on it
 * may hold (JSON Schemas, served by GET /hosts/{id}/schema and checked at creation), and, for
 * managed types, which module polls its sources.
 * - `local_event`: events appended through the API; configs are free-form.
 * - `remote_source`: a module from the module directories (`config.modulePath`); the host config
 *   is free-form settings and may name a credential profile (`credentialRef`).
 * - `github`: svc's own GitHub module (providers/github.ts); configs are strict.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { errors, PROFILE_NAME } from '../../core/index.js';
import type { HostType } from '../types.js';
import { schemaIssues, type JsonSchema } from './json-schema.js';
import { GITHUB_HOST_CONFIG_SCHEMA, GITHUB_SOURCE_CONFIG_SCHEMA, type GithubSourceConfig, type RepoRef } from './providers/index.js';
import { DEFAULT_POLL_INTERVAL_MS, parseRemoteConfig, remoteModuleSpec, RemoteSourceConfigSchema, type ModuleSpec } from './remote-sources.js';

/** A github stream of this kind (AgentInbox's github_repo_ci) polls only workflow runs unless its config names `resources`. */
export const GITHUB_CI_STREAM_KIND = 'ci_runs';

/** Host types whose sources a module polls (pause, resume, poll, idle auto-pause apply). */
export const MANAGED_HOST_TYPES: readonly HostType[] = ['remote_source', 'github'];

export function isManaged(hostType: HostType): boolean {
  return MANAGED_HOST_TYPES.includes(hostType);
}

/** A github source must name its repository (in config or as streamKey `owner/repo`). */
const GITHUB_SOURCE_NEEDS_REPO: JsonSchema = { ...GITHUB_SOURCE_CONFIG_SCHEMA, required: ['owner', 'repo'] };

const OPEN: JsonSchema = { type: 'object', description: 'free-form settings' };

const HOST_CONFIG_SCHEMAS: Record<HostType, JsonSchema> = {
  local_event: OPEN,
  remote_source: {
    type: 'object',
    description: 'free-form settings, handed to the modules of its sources as hostConfig',
    properties: {
      credentialRef: {
        type: 'string',
        pattern: PROFILE_NAME.source,
        description: "a credential profile: its secret reaches the modules of this host's sources (in memory only)",
      },
    },
  },
  github: GITHUB_HOST_CONFIG_SCHEMA,
};

export function hostConfigSchema(hostType: HostType): JsonSchema {
  return HOST_CONFIG_SCHEMAS[hostType];
}

/** JSON Schema of the config of sources on a host of this type. */
export function sourceConfigSchema(hostType: HostType): JsonSchema {
  if (hostType === 'github') return GITHUB_SOURCE_CONFIG_SCHEMA;
  if (hostType === 'remote_source') return z.toJSONSchema(RemoteSourceConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return OPEN;
}

/** 400 invalid_request naming the field when a host config does not match its type's schema. */
export function checkHostConfig(hostType: HostType, config: Record<string, unknown>): void {
  const issues = schemaIssues(hostConfigSchema(hostType), config, 'config');
  if (issues.length > 0) throw errors.invalidRequest(issues);
}

/**
 * The module a managed source runs, from its config (400 when the config is wrong); null for
 * `local_event`. A github source's owner and repo default to its streamKey `owner/repo`, and a
 * `ci_runs` stream (AgentInbox's github_repo_ci) polls only workflow runs unless `resources` says
 * otherwise.
 */
export function moduleSpecFor(hostType: HostType, streamKind: string, streamKey: string, config: Record<string, unknown>): ModuleSpec | null {
  if (hostType === 'remote_source') return remoteModuleSpec(parseRemoteConfig(config));
  if (hostType !== 'github') return null;
  const [keyOwner, keyRepo, ...rest] = streamKey.split('/');
  const fromKey = rest.length === 0 && keyRepo !== undefined ? { owner: keyOwner, repo: keyRepo } : {};
  const merged = { ...fromKey, ...config };
  const issues = schemaIssues(GITHUB_SOURCE_NEEDS_REPO, merged, 'config');
  if (issues.length > 0) throw errors.invalidRequest(issues, 'config.owner and config.repo default to a streamKey of the form owner/repo');
  const { pollIntervalMs, pollTimeoutMs, webhookSecretRef: _hook, ...moduleConfig } = merged as Record<string, unknown> & GithubSourceConfig;
  if (streamKind === GITHUB_CI_STREAM_KIND && moduleConfig.resources === undefined) moduleConfig.resources = ['workflow_runs'];
  return {
    modulePath: 'github (built in)',
    builtin: builtinModule('github'),
    moduleConfig,
    configPath: 'config',
    pollIntervalMs: (pollIntervalMs as number | undefined) ?? DEFAULT_POLL_INTERVAL_MS,
    pollTimeoutMs: pollTimeoutMs as number | undefined,
  };
}

/**
 * svc's own module file. Under the test runner this file is TypeScript, which a worker cannot
 * import, so the built copy in dist/ is used (npm test builds first).
 */
function builtinModule(name: string): string {
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith('.ts')
    ? path.resolve(path.dirname(here), '..', '..', '..', 'dist', 'inbox', 'sources', 'providers', `${name}.js`)
    : path.join(path.dirname(here), 'providers', `${name}.js`);
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** The repository a github source follows: its config's owner and repo, else its streamKey's (`owner/repo`). */
export function githubRepoOf(source: { streamKind: string; streamKey: string; config: Record<string, unknown> }): RepoRef {
  const cfg = moduleSpecFor('github', source.streamKind, source.streamKey, source.config)!.moduleConfig as RepoRef;
  return { owner: cfg.owner, repo: cfg.repo };
}
