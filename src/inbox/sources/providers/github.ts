/**
 * The built-in `github` source module: a repository's issues, pull requests, issue comments and
 * workflow runs, polled from the REST API (github-api.ts) and mapped to inbox events
 * (github-events.ts). It implements the remote-source module interface and runs like any module,
 * in a worker thread with a time limit; svc loads it for sources on `github` hosts.
 *
 * The cursor (stored with the source, shown by GET /sources/{id}) per list: `since` (the newest
 * `updated_at` seen: the next poll asks for what changed from there), and the first page's `url`
 * and `etag` (the next poll of the same URL is conditional). The first poll starts from the
 * source's `since` config, else from the first poll's own time (`start`): the history before it is
 * not replayed.
 * `notBefore`/`waitReason` hold a wait GitHub asked for; a poll before then asks nothing.
 */
import { PROFILE_NAME } from '../../../core/index.js';
import { DEFAULT_API_BASE_URL, GithubApi, type Wait, type WaitReason } from './github-api.js';
import { asObj, commentEvent, issueLikeEvent, workflowRunEvent, type GithubEvent, type RepoRef } from './github-events.js';

export const GITHUB_RESOURCES = ['issues', 'pull_requests', 'issue_comments', 'workflow_runs'] as const;
export type GithubResource = (typeof GITHUB_RESOURCES)[number];

const TIMESTAMP = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';
const PROFILE = { type: 'string', pattern: PROFILE_NAME.source, description: 'a credential profile (svc credentials set NAME)' };

/** JSON Schema of a `github` host's config. */
export const GITHUB_HOST_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    apiBaseUrl: {
      type: 'string',
      maxLength: 2048,
      pattern: '^https?://[^\\s/?#@]+(/[^\\s?#@]*)?$',
      default: DEFAULT_API_BASE_URL,
      description: 'the REST API root; GitHub Enterprise Server: https://HOST/api/v3',
    },
    credentialRef: { ...PROFILE, description: 'a credential profile holding a token, sent as Authorization: Bearer (without one: anonymous, public repositories only)' },
  },
};

/** JSON Schema of the config of a source on a `github` host (its moduleConfig is the same object). */
export const GITHUB_SOURCE_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    owner: { type: 'string', pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$', description: 'default: the part of streamKey before "/"' },
    repo: { type: 'string', pattern: '^(?!\\.\\.?$)[A-Za-z0-9._-]{1,100}$', description: 'default: the part of streamKey after "/"' },
    resources: {
      type: 'array',
      items: { enum: [...GITHUB_RESOURCES] },
      minItems: 1,
      uniqueItems: true,
      description: 'what to poll; default all four',
    },
    since: { type: 'string', pattern: TIMESTAMP, description: 'first poll: changes from this time on (default: the first poll\'s time)' },
    perPage: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
    maxPages: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'pages per list and poll; the rest comes with the next poll' },
    pollIntervalMs: { type: 'integer', minimum: 1000, maximum: 86_400_000, default: 60_000 },
    pollTimeoutMs: { type: 'integer', minimum: 100, maximum: 300_000, default: 30_000 },
    webhookSecretRef: { ...PROFILE, description: 'a credential profile holding the webhook secret: enables POST /api/inbox/github/webhook/{sourceId}' },
  },
};

export interface GithubSourceConfig extends RepoRef {
  resources?: GithubResource[];
  since?: string;
  perPage?: number;
  maxPages?: number;
}

interface ListCursor {
  since: string;
  url?: string;
  etag?: string;
}

export interface GithubCursor {
  /** When the first poll started: every list starts there, even one first asked later (after a wait). */
  start?: string;
  issues?: ListCursor;
  issue_comments?: ListCursor;
  workflow_runs?: ListCursor;
  notBefore?: number | null;
  waitReason?: WaitReason | null;
  rateLimit?: { remaining: number; reset: number } | null;
}

export interface PollInput {
  moduleConfig: GithubSourceConfig;
  cursor: GithubCursor | null;
  hostConfig?: { apiBaseUrl?: string };
  credential?: { profile: string; secret: string } | null;
  now: number;
  signal?: AbortSignal;
}

export interface PollOutput {
  events: GithubEvent[];
  cursor: GithubCursor;
  notBefore: number | null;
}

const USER_AGENT = 'svc-inbox (github source)';

/** GitHub's `since` form: whole seconds, UTC. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const laterOf = (a: string, b: unknown) => (typeof b === 'string' && Date.parse(b) > Date.parse(a) ? b : a);

export async function poll(input: PollInput): Promise<PollOutput> {
  const cfg = input.moduleConfig;
  const now = input.now;
  const cursor: GithubCursor = { ...(input.cursor ?? {}) };
  if (cursor.notBefore && now < cursor.notBefore) return { events: [], cursor, notBefore: cursor.notBefore };
  const repo: RepoRef = { owner: cfg.owner, repo: cfg.repo };
  const api = new GithubApi({
    apiBaseUrl: input.hostConfig?.apiBaseUrl ?? DEFAULT_API_BASE_URL,
    token: input.credential?.secret ?? null,
    profile: input.credential?.profile ?? null,
    now,
    userAgent: USER_AGENT,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const want = new Set<GithubResource>(cfg.resources ?? GITHUB_RESOURCES);
  const start = cfg.since ?? cursor.start ?? isoSeconds(now);
  cursor.start = start;
  const perPage = cfg.perPage ?? 100;
  const maxPages = cfg.maxPages ?? 10;
  const path = `/repos/${encodeURIComponent(cfg.owner)}/${encodeURIComponent(cfg.repo)}`;
  const events: GithubEvent[] = [];
  const asArray = (body: unknown) => (Array.isArray(body) ? body.map(asObj) : []);

  // Issues and pull requests come from one list (a pull request is an issue with `pull_request`).
  if (want.has('issues') || want.has('pull_requests')) {
    const c = cursor.issues ?? { since: start };
    const url = api.url(`${path}/issues`, { state: 'all', sort: 'updated', direction: 'asc', per_page: perPage, since: c.since });
    const res = await api.list(url, c.url === url ? (c.etag ?? null) : null, maxPages, asArray);
    for (const item of res.items as Array<Record<string, unknown>>) {
      const isPr = item.pull_request !== undefined;
      if (want.has(isPr ? 'pull_requests' : 'issues')) events.push(issueLikeEvent(repo, item, { origin: 'poll' }));
    }
    cursor.issues = nextCursor(c, url, res);
  }
  if (want.has('issue_comments') && !api.limited) {
    const c = cursor.issue_comments ?? { since: start };
    const url = api.url(`${path}/issues/comments`, { sort: 'updated', direction: 'asc', per_page: perPage, since: c.since });
    const res = await api.list(url, c.url === url ? (c.etag ?? null) : null, maxPages, asArray);
    for (const item of res.items) events.push(commentEvent(repo, asObj(item), { origin: 'poll' }));
    cursor.issue_comments = nextCursor(c, url, res);
  }
  if (want.has('workflow_runs') && !api.limited) {
    // Newest first and no `since` filter: read pages while they hold runs changed since the mark.
    const c = cursor.workflow_runs ?? { since: start };
    const changed = (run: unknown) => typeof asObj(run).updated_at === 'string' && Date.parse(asObj(run).updated_at as string) >= Date.parse(c.since);
    const url = api.url(`${path}/actions/runs`, { per_page: perPage });
    const res = await api.list(url, c.url === url ? (c.etag ?? null) : null, maxPages, (body) => asArray(asObj(body).workflow_runs), (page) => page.some(changed));
    for (const run of res.items.filter(changed)) events.push(workflowRunEvent(repo, asObj(run), { origin: 'poll' }));
    cursor.workflow_runs = nextCursor(c, url, res);
  }

  const wait: Wait | null = api.wait;
  cursor.notBefore = wait?.until ?? null;
  cursor.waitReason = wait?.reason ?? null;
  cursor.rateLimit = api.rateLimit;
  // Oldest change first, whichever list it came from.
  events.sort((a, b) => Date.parse(a.time ?? '') - Date.parse(b.time ?? ''));
  return { events, cursor, notBefore: cursor.notBefore };
}

/** The newest updated_at seen becomes `since`; the ETag is kept for the URL it belongs to. */
function nextCursor(c: ListCursor, url: string, res: { status: string; items: unknown[]; etag: string | null }): ListCursor {
  if (res.status !== 'ok') return c;
  const since = res.items.reduce<string>((acc, item) => laterOf(acc, asObj(item).updated_at), c.since);
  return { since, url, ...(res.etag ? { etag: res.etag } : {}) };
}

export default {
  configSchema: GITHUB_SOURCE_CONFIG_SCHEMA,
  hostConfigSchema: GITHUB_HOST_CONFIG_SCHEMA,
  poll,
};
