/**
 * AgentInbox's source kinds over svc's host types (docs/agentinbox.md#hosts-sources-and-streams):
 * a source's `sourceType` and its resolved schema (`GET /sources/{id}/schema`,
 * `POST /streams/schema-preview`) as AgentInbox's client reads them.
 *
 * | host type      | streamKind      | sourceType (kind) | resolved hostType | implementationId      |
 * |----------------|-----------------|-------------------|-------------------|-----------------------|
 * | local_event    | any             | local_event       | local_event       | builtin.local_event   |
 * | remote_source  | any             | remote_source     | remote_source     | the module's name     |
 * | github         | ci_runs         | github_repo_ci    | remote_source     | builtin.github_repo_ci|
 * | github         | any other       | github_repo       | remote_source     | builtin.github_repo   |
 *
 * The resolved `hostType` is AgentInbox's runtime class (a github source runs as a module in a
 * worker, like a remote one), not the host record's type. A remote module's name is its file name
 * without the extension (`jsonl-file.mjs` → `jsonl-file`, kind `remote:jsonl-file`): svc's modules
 * export no id. The field lists describe the events svc's own modules make (github-events.ts).
 */
import path from 'node:path';
import type { HostType } from '../types.js';
import { GITHUB_FOLLOW_TEMPLATES, GITHUB_SHORTCUTS, type FollowTemplateSpec, type SchemaField } from './follow-templates.js';
import { GITHUB_CI_STREAM_KIND } from './host-types.js';
import type { JsonSchema } from './json-schema.js';

export type { SchemaField } from './follow-templates.js';

export const SOURCE_KINDS = ['local_event', 'remote_source', 'github_repo', 'github_repo_ci'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** The stream kinds each host type names (`GET /hosts/{id}/schema`); svc takes any other name too. */
export const STREAM_KINDS: Record<HostType, string[]> = {
  local_event: ['events'],
  remote_source: ['default'],
  github: ['repo_events', 'ci_runs'],
};


export function sourceKindOf(hostType: HostType, streamKind: string): SourceKind {
  if (hostType !== 'github') return hostType;
  return streamKind === GITHUB_CI_STREAM_KIND ? 'github_repo_ci' : 'github_repo';
}

/** The host type and stream kind a kind named by AgentInbox's client is served by. */
export function hostOfKind(kind: SourceKind): { hostType: HostType; streamKind: string } {
  if (kind === 'github_repo') return { hostType: 'github', streamKind: 'repo_events' };
  if (kind === 'github_repo_ci') return { hostType: 'github', streamKind: GITHUB_CI_STREAM_KIND };
  return { hostType: kind, streamKind: STREAM_KINDS[kind][0]! };
}

export interface ResolvedIdentity {
  hostType: 'local_event' | 'remote_source';
  sourceKind: string;
  implementationId: string;
}

export interface SubscriptionSchema {
  supportsTrackedResourceRef: boolean;
  supportsLifecycleSignals: boolean;
  shortcuts: Array<{ name: string; description: string; argsSchema?: SchemaField[] }>;
}

/** AgentInbox's resolved schema, without the source id (a preview has none). */
export interface ResolvedSchema extends ResolvedIdentity {
  sourceType: SourceKind;
  metadataFields: SchemaField[];
  payloadExamples: Record<string, unknown>[];
  eventVariantExamples: string[];
  configFields: SchemaField[];
  aliases?: string[];
  subscriptionSchema?: SubscriptionSchema;
  followSchema?: { templates: FollowTemplateSpec[] };
}

/** A remote module's name: its file name without the extension. */
export function moduleName(modulePath: string): string {
  const base = path.basename(modulePath);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export function resolvedIdentity(kind: SourceKind, modulePath: string | null): ResolvedIdentity {
  if (kind === 'local_event') return { hostType: 'local_event', sourceKind: 'local_event', implementationId: 'builtin.local_event' };
  if (kind === 'remote_source') {
    const name = modulePath === null ? 'unknown' : moduleName(modulePath);
    return { hostType: 'remote_source', sourceKind: `remote:${name}`, implementationId: name };
  }
  return { hostType: 'remote_source', sourceKind: kind, implementationId: `builtin.${kind}` };
}

/** Fields of a JSON Schema's properties, in AgentInbox's `{name, type, required, description}` form. */
export function fieldsOf(schema: JsonSchema): SchemaField[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    type: fieldType(prop),
    required: required.has(name),
    description: typeof prop.description === 'string' ? prop.description : '',
  }));
}

function fieldType(prop: JsonSchema): string {
  if (prop.type === 'integer') return 'number';
  if (prop.type === 'array') {
    const items = (prop.items ?? {}) as JsonSchema;
    return Array.isArray(items.enum) || items.type === 'string' ? 'string[]' : `${fieldType(items)}[]`;
  }
  return typeof prop.type === 'string' ? prop.type : 'any';
}

const field = (name: string, type: string, description: string): SchemaField => ({ name, type, description });

const GITHUB_COMMON: SchemaField[] = [
  field('provider', 'string', 'Always "github".'),
  field('owner', 'string', 'Repository owner.'),
  field('repo', 'string', 'Repository name.'),
  field('repoFullName', 'string', 'Repository full name in owner/repo form.'),
  field('origin', 'string', 'poll or webhook: how svc saw the event.'),
  field('eventType', 'string', 'issues, pull_request, issue_comment, workflow_run, push, or the webhook event name.'),
  field('action', 'string|null', "The webhook's action; a poll sees states: opened, updated, closed, merged, created, edited, a run's status."),
];

const GITHUB_REPO_FIELDS: SchemaField[] = [
  ...GITHUB_COMMON,
  field('number', 'number|null', 'Issue or pull request number.'),
  field('isPullRequest', 'boolean', 'Whether the event is about a pull request.'),
  field('title', 'string|null', 'Issue or pull request title.'),
  field('state', 'string|null', 'open or closed.'),
  field('merged', 'boolean', 'Pull requests: whether it was merged.'),
  field('draft', 'boolean', 'Pull requests: whether it is a draft.'),
  field('author', 'string|null', 'Login of the author (of the comment, for comments).'),
  field('labels', 'string[]', 'Label names of the issue or pull request.'),
  field('mentions', 'string[]', '@handles in the title, body or comment text.'),
  field('commentId', 'number|null', 'Comments: the comment id.'),
  field('url', 'string|null', 'GitHub HTML URL of the issue, pull request or comment.'),
  field('lifecycle', 'string', 'terminal once the issue or pull request is closed, merged or deleted; else active.'),
];

const GITHUB_CI_FIELDS: SchemaField[] = [
  ...GITHUB_COMMON,
  field('runId', 'number', 'Workflow run id.'),
  field('runAttempt', 'number|null', 'Workflow run attempt.'),
  field('name', 'string|null', 'Workflow name.'),
  field('status', 'string|null', 'Workflow run status.'),
  field('conclusion', 'string|null', 'Workflow run conclusion once completed.'),
  field('event', 'string|null', 'The GitHub event that triggered the run.'),
  field('headBranch', 'string|null', 'Head branch of the run.'),
  field('headSha', 'string|null', 'Head commit SHA of the run.'),
  field('pullRequestNumbers', 'number[]', 'Pull request numbers of the run.'),
  field('author', 'string|null', 'Login of the actor.'),
  field('url', 'string|null', 'GitHub Actions run URL.'),
  field('lifecycle', 'string', 'terminal once the run completed; else active.'),
];

interface KindEntry {
  metadataFields: SchemaField[];
  payloadExamples: Record<string, unknown>[];
  eventVariantExamples: string[];
  /** Managed kinds: what subscriptions on them can use. */
  subscriptionSchema?: SubscriptionSchema;
  followSchema?: { templates: FollowTemplateSpec[] };
}

const KINDS: Record<SourceKind, KindEntry> = {
  local_event: {
    metadataFields: [
      field('channel', 'string', 'Producer-defined routing channel for local event ingress.'),
      field('subject', 'string', 'Producer-defined short summary or subject field.'),
    ],
    payloadExamples: [{ text: 'hello from local event source' }],
    eventVariantExamples: ['message.created'],
  },
  remote_source: {
    metadataFields: [],
    payloadExamples: [],
    eventVariantExamples: [],
    subscriptionSchema: { supportsTrackedResourceRef: true, supportsLifecycleSignals: true, shortcuts: [] },
  },
  github_repo: {
    metadataFields: GITHUB_REPO_FIELDS,
    payloadExamples: [
      { number: 12, title: 'Track filtering work', state: 'open', user: { login: 'octocat' }, labels: [{ name: 'bug' }] },
      { number: 67, title: 'Add capability hooks', state: 'closed', pull_request: { merged_at: '2026-04-01T10:00:00Z' } },
      { id: 1234567890, body: '@alpha please look', issue_url: 'https://api.github.com/repos/octo/hello/issues/12' },
    ],
    eventVariantExamples: ['github.issue', 'github.pull_request', 'github.issue_comment', 'github.push'],
    subscriptionSchema: { supportsTrackedResourceRef: true, supportsLifecycleSignals: true, shortcuts: GITHUB_SHORTCUTS },
    followSchema: { templates: GITHUB_FOLLOW_TEMPLATES },
  },
  github_repo_ci: {
    metadataFields: GITHUB_CI_FIELDS,
    payloadExamples: [{ id: 987, name: 'CI', status: 'completed', conclusion: 'failure', event: 'pull_request', head_branch: 'main', pull_requests: [{ number: 93 }] }],
    eventVariantExamples: ['github.workflow_run'],
    subscriptionSchema: { supportsTrackedResourceRef: true, supportsLifecycleSignals: true, shortcuts: [] },
  },
};

/**
 * AgentInbox's resolved schema of a kind. `configSchema` is the source config's JSON Schema as svc
 * checks it (a remote module's own schema set in as `moduleConfig`); configFields come from it.
 */
export function resolvedSchema(kind: SourceKind, modulePath: string | null, configSchema: JsonSchema): ResolvedSchema {
  const entry = KINDS[kind];
  return {
    sourceType: kind,
    metadataFields: entry.metadataFields,
    payloadExamples: entry.payloadExamples,
    eventVariantExamples: entry.eventVariantExamples,
    configFields: fieldsOf(configSchema),
    ...resolvedIdentity(kind, modulePath),
    ...(kind === 'github_repo' || kind === 'github_repo_ci' ? { aliases: [kind] } : {}),
    ...(entry.subscriptionSchema ? { subscriptionSchema: entry.subscriptionSchema } : {}),
    ...(entry.followSchema ? { followSchema: entry.followSchema } : {}),
  };
}

/** A kind AgentInbox's `stream schema preview` names: a kind, or `remote:<module name>`. */
export function parseSourceRef(sourceRef: string): { kind: SourceKind; moduleName: string | null } | null {
  if ((SOURCE_KINDS as readonly string[]).includes(sourceRef)) return { kind: sourceRef as SourceKind, moduleName: null };
  if (sourceRef.startsWith('remote:') && sourceRef.length > 'remote:'.length) return { kind: 'remote_source', moduleName: sourceRef.slice('remote:'.length) };
  return null;
}
