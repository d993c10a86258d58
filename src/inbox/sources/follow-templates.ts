/**
 * AgentInbox's follow templates (`github.repo`, `github.pr`, `github.issue`) and its `pr`
 * subscription shortcut, as plans: which github host, sources and subscriptions they mean
 * (docs/agentinbox.md#follow). Plain data out of plain data: the follow service (inbox/follow/)
 * ensures what a plan names, and subscriptions expand a shortcut through `expandShortcut`.
 *
 * What a plan asks for, per template (AgentInbox's expansion, on svc's github events):
 * - `repo`: the repository's `repo_events` stream (issues, pull requests, comments), every event,
 *   cleanup manual;
 * - `pr`: the `repo_events` stream, events of that pull request (`metadata.number`,
 *   `metadata.isPullRequest: true`), tracked as `repo:<owner>/<repo>:pr:<n>` and removed when it
 *   closes or merges (`on_terminal`); `withCi` adds the `ci_runs` stream (workflow runs only) and a
 *   subscription to the runs of that pull request (`metadata.pullRequestNumbers` holding it);
 * - `issue`: events of that issue, tracked as `repo:<owner>/<repo>:issue:<n>`, cleanup manual.
 * Template arguments are checked against the template's argsSchema (400 invalid_request naming
 * `templateArgs.<name>`), then the host and source configs of the plan as creating them would
 * check them (`config.<field>`), so a refused follow creates nothing.
 */
import { errors, type Issue } from '../../core/index.js';
import { checkHostConfig, moduleSpecFor } from './host-types.js';

/** AgentInbox's description of a field: of a config, of event metadata, of template arguments. */
export interface SchemaField {
  name: string;
  type: string;
  description: string;
  required?: boolean;
}

export interface FollowTemplateSpec {
  templateId: string;
  providerOrKind: string;
  label: string;
  description: string;
  argsSchema: SchemaField[];
}

const REPO_ARGS: SchemaField[] = [
  { name: 'owner', type: 'string', required: true, description: 'GitHub repository owner.' },
  { name: 'repo', type: 'string', required: true, description: 'GitHub repository name.' },
];

export const GITHUB_FOLLOW_TEMPLATES: FollowTemplateSpec[] = [
  { templateId: 'github.repo', providerOrKind: 'github', label: 'GitHub Repository', description: "Follow a repository's issues, pull requests and comments.", argsSchema: REPO_ARGS },
  {
    templateId: 'github.pr',
    providerOrKind: 'github',
    label: 'GitHub Pull Request',
    description: 'Follow one pull request until it closes, and optionally its CI runs.',
    argsSchema: [
      ...REPO_ARGS,
      { name: 'number', type: 'number', required: true, description: 'Pull request number.' },
      { name: 'withCi', type: 'boolean', required: false, description: "Also follow the repository's CI runs of that pull request." },
    ],
  },
  {
    templateId: 'github.issue',
    providerOrKind: 'github',
    label: 'GitHub Issue',
    description: 'Follow one issue (no automatic cleanup).',
    argsSchema: [...REPO_ARGS, { name: 'number', type: 'number', required: true, description: 'Issue number.' }],
  },
];

export const GITHUB_SHORTCUTS = [
  {
    name: 'pr',
    description: 'Follow one pull request and remove the subscription when it closes or merges.',
    argsSchema: [
      { name: 'number', type: 'number', required: true, description: 'Pull request number.' },
      { name: 'withCi', type: 'boolean', required: false, description: 'Also subscribe to its CI runs on the ci_runs stream of the same host and repository.' },
    ] as SchemaField[],
  },
];

/** Names AgentInbox's client may give for the provider of these templates. */
const GITHUB_PROVIDER_NAMES = new Set(['github', 'github_repo']);
/** The github host config keys; every other key of a follow config is the source's. */
const HOST_CONFIG_KEYS = ['apiBaseUrl', 'credentialRef'] as const;
/** The kinds of GitHub objects a `repo_events` stream made by follow polls (its `ci_runs` sibling polls the runs). */
const REPO_EVENT_RESOURCES = ['issues', 'pull_requests', 'issue_comments'];
/** Template arguments that are not source config. */
const TEMPLATE_ONLY_ARGS = new Set(['number', 'withCi']);

export type CleanupMode = 'manual' | 'on_terminal';

export interface PlannedSubscription {
  /** The streamKind of the planned source it is on. */
  streamKind: string;
  filter: Record<string, unknown>;
  trackedResourceRef: string | null;
  cleanupPolicy: { mode: CleanupMode };
}

export interface FollowPlan {
  templateId: string;
  host: { hostType: 'github'; config: Record<string, unknown> };
  sources: Array<{ streamKind: string; streamKey: string; config: Record<string, unknown> }>;
  subscriptions: PlannedSubscription[];
}

export interface FollowRequest {
  providerOrKind: string;
  template: string;
  templateArgs: Record<string, unknown>;
  config: Record<string, unknown>;
}

/** The template a provider and template name mean (400 unknown_follow_template). */
export function followTemplate(providerOrKind: string, template: string): FollowTemplateSpec {
  const spec = GITHUB_PROVIDER_NAMES.has(providerOrKind) ? GITHUB_FOLLOW_TEMPLATES.find((t) => t.templateId === `github.${template}`) : undefined;
  if (!spec) throw errors.unknownFollowTemplate(providerOrKind, template, GITHUB_FOLLOW_TEMPLATES.map((t) => t.templateId));
  return spec;
}

/** A follow request as a plan (400 for an unknown template or arguments its argsSchema refuses). */
export function expandFollow(req: FollowRequest): FollowPlan {
  const spec = followTemplate(req.providerOrKind, req.template);
  checkArgs(spec.argsSchema, req.templateArgs, 'templateArgs');
  const { owner, repo, number, withCi } = req.templateArgs as { owner: string; repo: string; number?: number; withCi?: boolean };
  // AgentInbox hands the template its config with the arguments over it. Built from entries, so a
  // `__proto__` key stays a key (the source schema then refuses it) and sets no prototype.
  const merged = Object.entries({ ...req.config, ...req.templateArgs });
  const isHostKey = (key: string) => (HOST_CONFIG_KEYS as readonly string[]).includes(key);
  const host: Record<string, unknown> = Object.fromEntries(merged.filter(([key]) => isHostKey(key)));
  const source: Record<string, unknown> = Object.fromEntries(merged.filter(([key]) => !isHostKey(key) && !TEMPLATE_ONLY_ARGS.has(key)));
  const streamKey = `${owner}/${repo}`;
  const repoEvents = { streamKind: 'repo_events', streamKey, config: { ...source, resources: source.resources ?? REPO_EVENT_RESOURCES } };
  const plan: FollowPlan = { templateId: spec.templateId, host: { hostType: 'github', config: host }, sources: [repoEvents], subscriptions: [] };
  if (spec.templateId === 'github.repo') {
    plan.subscriptions.push({ streamKind: 'repo_events', filter: {}, trackedResourceRef: null, cleanupPolicy: { mode: 'manual' } });
  } else if (spec.templateId === 'github.issue') {
    plan.subscriptions.push({
      streamKind: 'repo_events',
      filter: { metadata: { number, isPullRequest: false } },
      trackedResourceRef: `repo:${streamKey}:issue:${number}`,
      cleanupPolicy: { mode: 'manual' },
    });
  } else {
    plan.subscriptions.push(...prSubscriptions(streamKey, number!, withCi === true));
    if (withCi === true) plan.sources.push({ streamKind: 'ci_runs', streamKey, config: { ...source, resources: ['workflow_runs'] } });
  }
  // The configs are checked here, before anything is created (400 naming the field).
  checkHostConfig('github', plan.host.config);
  for (const planned of plan.sources) moduleSpecFor('github', planned.streamKind, planned.streamKey, planned.config);
  return plan;
}

/**
 * The `pr` shortcut on a github `repo_events` source (`streamKey` owner/repo): the subscriptions it
 * means, each naming the stream kind it is on (`ci_runs`: the sibling stream of the same host and
 * key). 400 for another shortcut name or arguments its argsSchema refuses.
 */
export function expandShortcut(streamKey: string, name: string, args: Record<string, unknown>): PlannedSubscription[] {
  const spec = GITHUB_SHORTCUTS.find((s) => s.name === name);
  if (!spec) throw errors.invalidRequest([{ path: 'body.shortcut.name', message: `unknown subscription shortcut ${JSON.stringify(name)}; this source has: ${GITHUB_SHORTCUTS.map((s) => s.name).join(', ')}` }]);
  checkArgs(spec.argsSchema, args, 'body.shortcut.args');
  return prSubscriptions(streamKey, args.number as number, args.withCi === true);
}

function prSubscriptions(streamKey: string, number: number, withCi: boolean): PlannedSubscription[] {
  const trackedResourceRef = `repo:${streamKey}:pr:${number}`;
  const subs: PlannedSubscription[] = [
    { streamKind: 'repo_events', filter: { metadata: { number, isPullRequest: true } }, trackedResourceRef, cleanupPolicy: { mode: 'on_terminal' } },
  ];
  // A scalar in a metadata block matches an element of an array (svc's filters, AgentInbox's
  // contains(metadata.pullRequestNumbers, n)).
  if (withCi) subs.push({ streamKind: 'ci_runs', filter: { metadata: { pullRequestNumbers: number } }, trackedResourceRef, cleanupPolicy: { mode: 'on_terminal' } });
  return subs;
}

/** Arguments against an argsSchema: required ones present, each of its type, numbers positive integers. */
function checkArgs(schema: SchemaField[], args: Record<string, unknown>, at: string): void {
  const issues: Issue[] = [];
  for (const f of schema) {
    const value = args[f.name];
    if (value === undefined) {
      if (f.required) issues.push({ path: `${at}.${f.name}`, message: 'required' });
      continue;
    }
    const ok =
      f.type === 'string' ? typeof value === 'string' && value.length > 0 && value.length <= 100
      : f.type === 'number' ? Number.isSafeInteger(value) && (value as number) > 0
      : f.type === 'boolean' ? typeof value === 'boolean'
      : true;
    if (!ok) issues.push({ path: `${at}.${f.name}`, message: f.type === 'number' ? 'expected a positive integer' : `expected a ${f.type === 'string' ? 'non-empty string of at most 100 characters' : f.type}` });
  }
  if (issues.length > 0) throw errors.invalidRequest(issues);
}
