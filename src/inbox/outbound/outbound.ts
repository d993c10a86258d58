/**
 * Outbound deliveries through handles (AgentInbox v1.0.3 `POST /deliveries/send|actions|invoke`;
 * docs/agentinbox.md#deliveries): list what a handle offers, run one operation, or `send` a text
 * with the handle's canonical text operation. AgentInbox's request and answer shapes; svc adds
 * `sourceId` and `result` (what GitHub made: its page, a comment id, a state, a merge sha).
 *
 * Who may: whoever reaches the inbox API (the socket is the owner's, 0600; its loopback port and
 * /api/inbox on the control plane ask for the control token). What a handle may name is narrow
 * all the same, because the model tool (replies.ts) and scripts copy handles out of items a
 * stranger's event produced:
 * - GitHub only, a surface its adapter knows, a targetRef `owner/repo#n` and a threadRef
 *   `review_comment:<id>` of the patterns in handles.ts: no URL, host, path or query can be named;
 * - a repository a github source follows: the named source's (else 400
 *   delivery_target_not_followed), or, without sourceId, the one source (or several sharing a
 *   host and credential) following it; svc never writes to a repository it was not set up for;
 * - the API root and token are that source's host `apiBaseUrl` and credential profile (the
 *   source's `credential:` configRef, else the host's credentialRef); the token is sent there
 *   only, never returned and never logged;
 * - an operation the surface lists, with a strict input (operations.ts).
 * Every check runs before anything is sent: a refused request sends nothing. A GitHub failure is
 * 502 delivery_failed with GitHub's status (`upstreamStatus`) and message. Each delivery is one
 * log line (its id, operation, target, source and caller; never the text or the token).
 */
import type { Logger } from 'pino';
import { isoAt, type Clock, errors, type IdGenerator, type Issue } from '../../core/index.js';
import { credentialReference, githubRepoOf, type HostService, type Source, type SourceCredentials, type SourceService } from '../sources/index.js';
import { callGithub, GithubCallFailed, type GithubResult } from './github.js';
import { parseTargetRef, parseThreadRef, TARGET_REF_RULE, THREAD_REF_RULE, type DeliveryHandle, type GithubTarget } from './handles.js';
import { checkInput, githubOperations, NOTES, type GithubOperation, type OperationDescriptor, type OperationInput } from './operations.js';

/** A handle as a request gives it: whole in `deliveryHandle`, or as top-level fields. */
export interface DeliveryTargetRequest {
  sourceId?: string | undefined;
  deliveryHandle?: { provider: string; surface: string; targetRef: string; threadRef?: string | null | undefined; replyMode?: string | null | undefined } | undefined;
  provider?: string | undefined;
  surface?: string | undefined;
  targetRef?: string | undefined;
  threadRef?: string | null | undefined;
  replyMode?: string | null | undefined;
}

export interface SendRequest extends DeliveryTargetRequest {
  kind?: string | undefined;
  payload: Record<string, unknown>;
}

export interface InvokeRequest extends DeliveryTargetRequest {
  operation: string;
  input: Record<string, unknown>;
}

export interface DeliveryActions {
  /** The source the request named (null: none), as AgentInbox echoes it. */
  sourceId: string | null;
  /** svc's: the github source that would deliver (null: none follows the repository). */
  deliveringSourceId: string | null;
  handle: DeliveryHandle;
  operations: OperationDescriptor[];
}

/** AgentInbox's DeliveryAttempt with its note and `operation` (invoke's; on send it names the text operation), plus svc's sourceId and result. */
export interface DeliveryAttempt extends DeliveryHandle {
  deliveryId: string;
  kind: string;
  payload: Record<string, unknown>;
  status: 'sent';
  createdAt: string;
  note: string;
  operation: GithubOperation;
  sourceId: string;
  result: GithubResult;
}

/** Who asked, for the log line: the socket, or an agent's reply_to_entry. */
export interface DeliveryCaller {
  by: string;
  signal?: AbortSignal | undefined;
}

export interface OutboundDeps {
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  sources: SourceService;
  hosts: HostService;
  credentials: SourceCredentials;
}

interface Resolved {
  handle: DeliveryHandle;
  target: GithubTarget;
  threadId: number | null;
  source: Source;
}

const HANDLE_FIELDS = ['provider', 'surface', 'targetRef', 'threadRef', 'replyMode'] as const;

export class Outbound {
  constructor(private readonly deps: OutboundDeps) {}

  /** The operations the handle offers, and which source would deliver through it. */
  actions(req: DeliveryTargetRequest): DeliveryActions {
    const handle = handleOf(req);
    if (handle.provider !== 'github') {
      // No operations, as AgentInbox answers for a provider it has no adapter for; a named source must exist.
      const named = req.sourceId === undefined ? null : this.deps.sources.get(req.sourceId).sourceId;
      return { sourceId: named, deliveringSourceId: null, handle, operations: [] };
    }
    const operations = githubOperations(handle);
    const target = parseTargetRef(handle.targetRef);
    if (!target) throw badRef(req, 'targetRef', TARGET_REF_RULE);
    const source = req.sourceId !== undefined ? this.namedSource(req.sourceId, target) : this.followers(target)[0];
    return { sourceId: req.sourceId ?? null, deliveringSourceId: source?.sourceId ?? null, handle, operations };
  }

  /** `text` (or `body`) of the payload through the handle's one text operation (add_comment, reply_in_review_thread). */
  async send(req: SendRequest, caller: DeliveryCaller): Promise<DeliveryAttempt> {
    const resolved = this.resolve(req);
    const canonical = githubOperations(resolved.handle).find((o) => o.canonicalTextAlias);
    if (!canonical) {
      throw errors.deliveryUnsupported(`deliver send is not supported for github/${resolved.handle.surface}; use deliver invoke`, { surface: resolved.handle.surface });
    }
    const text = typeof req.payload.text === 'string' ? req.payload.text : req.payload.body;
    if (typeof text !== 'string') throw errors.invalidRequest([{ path: 'payload.text', message: 'a text to send is required (payload {"text": "…"})' }]);
    const input = checkInput(canonical.name, { body: text }, () => 'payload.text');
    return this.run(resolved, canonical.name, input, { kind: req.kind ?? 'reply', payload: req.payload }, caller);
  }

  /** One operation the handle offers, with its input. */
  async invoke(req: InvokeRequest, caller: DeliveryCaller): Promise<DeliveryAttempt> {
    const resolved = this.resolve(req);
    const offered = githubOperations(resolved.handle).map((o) => o.name);
    const operation = offered.find((o) => o === req.operation);
    if (!operation) {
      throw errors.deliveryUnsupported(
        `operation ${JSON.stringify(req.operation)} is not offered for github/${resolved.handle.surface}; offered: ${offered.join(', ') || 'none'}`,
        { operation: req.operation, offered },
      );
    }
    const input = checkInput(operation, req.input, (path) => ['input', ...path].join('.'));
    return this.run(resolved, operation, input, { kind: operation, payload: req.input }, caller);
  }

  /** Everything checked before anything is sent: the handle, the source and its repository. */
  private resolve(req: DeliveryTargetRequest): Resolved {
    const handle = handleOf(req);
    if (handle.provider !== 'github') {
      throw errors.deliveryUnsupported(`delivery operations are not supported for provider ${JSON.stringify(handle.provider)}: svc delivers to GitHub only`, { provider: handle.provider });
    }
    const target = parseTargetRef(handle.targetRef);
    if (!target) throw badRef(req, 'targetRef', TARGET_REF_RULE);
    let threadId: number | null = null;
    if (handle.threadRef !== null) {
      threadId = parseThreadRef(handle.threadRef);
      if (threadId === null) throw badRef(req, 'threadRef', THREAD_REF_RULE);
    }
    if (githubOperations(handle).length === 0) {
      throw errors.deliveryUnsupported(`GitHub handles have the surfaces issue_comment, pull_request_comment and review_comment, not ${JSON.stringify(handle.surface)}`, { surface: handle.surface });
    }
    const source = req.sourceId !== undefined ? this.namedSource(req.sourceId, target) : this.onlyFollower(target);
    return { handle, target, threadId, source };
  }

  /** The named source, which must be a github source following the handle's repository. */
  private namedSource(sourceId: string, target: GithubTarget): Source {
    const source = this.deps.sources.get(sourceId);
    const repository = `${target.owner}/${target.repo}`;
    if (source.hostType !== 'github') {
      throw errors.deliveryTargetNotFollowed(`source ${JSON.stringify(sourceId)} is a ${source.hostType} source: svc delivers through github sources only`, { sourceId, repository });
    }
    const follows = repositoryOf(source);
    if (follows.toLowerCase() !== repository.toLowerCase()) {
      throw errors.deliveryTargetNotFollowed(`source ${JSON.stringify(sourceId)} follows ${follows}, not ${repository}`, { sourceId, repository });
    }
    return source;
  }

  /** github sources following the repository (GitHub names are case-insensitive), oldest first. */
  private followers(target: GithubTarget): Source[] {
    const repository = `${target.owner}/${target.repo}`.toLowerCase();
    return this.deps.sources.list().filter((s) => s.hostType === 'github' && repositoryOf(s).toLowerCase() === repository);
  }

  /** Without sourceId: the follower, or several that would deliver the same way (one API root, one credential). */
  private onlyFollower(target: GithubTarget): Source {
    const repository = `${target.owner}/${target.repo}`;
    const found = this.followers(target);
    if (found.length === 0) {
      throw errors.deliveryTargetNotFollowed(`no github source follows ${repository}: svc delivers only to repositories it follows (create a source for it)`, { repository });
    }
    const ways = new Set(found.map((s) => JSON.stringify(this.way(s))));
    if (ways.size > 1) throw errors.deliverySourceAmbiguous(repository, found.map((s) => s.sourceId));
    return found[0]!;
  }

  /** Which API root and credential reference a source delivers with (for telling followers apart). */
  private way(source: Source): [unknown, string | null] {
    const host = this.deps.hosts.get(source.hostId);
    return [host.config.apiBaseUrl ?? null, credentialReference(host, source.configRef)?.profile ?? null];
  }

  private async run(
    r: Resolved,
    operation: GithubOperation,
    input: OperationInput,
    shown: { kind: string; payload: Record<string, unknown> },
    caller: DeliveryCaller,
  ): Promise<DeliveryAttempt> {
    if (operation === 'reply_in_review_thread' && r.threadId === null) {
      throw errors.invalidRequest([{ path: 'threadRef', message: `reply_in_review_thread needs the handle's threadRef (${THREAD_REF_RULE})` }]);
    }
    const host = this.deps.hosts.get(r.source.hostId);
    const found = this.deps.credentials.resolve(host, r.source.configRef);
    if (!found.ok) throw errors.deliveryCredentialMissing(r.source.sourceId, found.error);
    if (!found.credential) throw errors.deliveryCredentialMissing(r.source.sourceId, `writing to GitHub needs a token: set credentialRef in the config of host ${host.hostId}`);
    const apiBaseUrl = typeof host.config.apiBaseUrl === 'string' ? host.config.apiBaseUrl : 'https://api.github.com';
    const deliveryId = this.deps.ids.make('delivery');
    const line = { deliveryId, sourceId: r.source.sourceId, operation, targetRef: r.handle.targetRef, threadRef: r.handle.threadRef, by: caller.by };
    let result: GithubResult;
    try {
      result = await callGithub({ apiBaseUrl, token: found.credential.secret }, operation, r.target, input, r.threadId, caller.signal);
    } catch (err) {
      if (!(err instanceof GithubCallFailed)) throw err;
      this.deps.logger.warn({ ...line, upstreamStatus: err.status, error: err.message }, 'inbox delivery failed');
      throw errors.deliveryFailed(err.message, { deliveryId, operation, targetRef: r.handle.targetRef, upstreamStatus: err.status });
    }
    this.deps.logger.info(line, 'inbox delivery sent');
    return {
      deliveryId,
      ...r.handle,
      kind: shown.kind,
      payload: shown.payload,
      status: 'sent',
      createdAt: isoAt(this.deps.clock.now()),
      note: NOTES[operation],
      operation,
      sourceId: r.source.sourceId,
      result,
    };
  }
}

/** The handle a request names: `deliveryHandle` or the top-level fields, never both. */
function handleOf(req: DeliveryTargetRequest): DeliveryHandle {
  const loose = HANDLE_FIELDS.filter((f) => req[f] !== undefined);
  if (req.deliveryHandle && loose.length > 0) {
    throw errors.invalidRequest([{ path: loose[0]!, message: 'give the handle either as deliveryHandle or as provider/surface/targetRef fields, not both' }]);
  }
  const h = req.deliveryHandle ?? req;
  if (h.provider === undefined || h.surface === undefined || h.targetRef === undefined) {
    throw errors.invalidRequest([{ path: 'deliveryHandle', message: 'delivery requires either deliveryHandle or provider/surface/targetRef' }]);
  }
  return { provider: h.provider, surface: h.surface, targetRef: h.targetRef, threadRef: h.threadRef ?? null, replyMode: h.replyMode ?? null };
}

function badRef(req: DeliveryTargetRequest, field: 'targetRef' | 'threadRef', rule: string) {
  const issue: Issue = { path: req.deliveryHandle ? `deliveryHandle.${field}` : field, message: rule };
  return errors.invalidRequest([issue]);
}

/** `owner/repo` a github source follows (its config, else its streamKey). */
function repositoryOf(source: Source): string {
  const { owner, repo } = githubRepoOf(source);
  return `${owner}/${repo}`;
}

