/**
 * GitHub webhooks pushed to a github source (docs/security.md#github-webhooks): the control plane's
 * `POST /api/inbox/github/webhook/{sourceId}` hands the raw request here.
 *
 * Who may call: anyone who can reach the control port (GitHub, through whatever forwards to it).
 * The HMAC is the authentication: `X-Hub-Signature-256: sha256=<hex>` over the raw body bytes with
 * the secret of the source's `webhookSecretRef` profile, compared in constant time, before any of
 * the body is read. What a caller may lie about:
 * - the source id: an unknown id, a source that is not a github source, one without a webhook
 *   secret, or one whose secret cannot be read all answer the same 404 source_not_found (the log
 *   says which), so the route tells nothing about sources or secrets;
 * - the body: a signature that does not verify is 403 webhook_signature_invalid, none is 401
 *   webhook_signature_required; nothing is appended either way, and the warning goes to the log
 *   at most once a minute per source and reason, with the count of those not written (LogLimiter);
 * - replays: a signed body sent again (GitHub's redelivery, or a captured body with a fresh
 *   X-GitHub-Delivery) maps to the same event id (its resource state, what a push moved, or a hash
 *   of the payload for other events), which the stream stores once: it answers `deduped: 1` and
 *   appends nothing (logged at debug);
 * - the headers: X-GitHub-Event and X-GitHub-Delivery are not signed. The body decides what the
 *   event is (providers/github-events.ts bodyKind), so a body sent again under another event name is the same
 *   event; an event name svc maps (issues, pull_request, issue_comment, workflow_run, push) on a body
 *   that is not one is 400 invalid_request (GitHub never sends that);
 * - another repository's delivery signed with the same secret (one secret shared by two hooks): 400
 *   webhook_repository_mismatch unless `repository.full_name` is the source's repository.
 * Bodies are limited to WEBHOOK_BODY_LIMIT bytes (413), JSON or GitHub's form encoding (`payload=`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { type Clock, AppError, errors, LogLimiter, parseJsonBody } from '../../core/index.js';
import { githubRepoOf } from './host-types.js';
import type { SourceCredentials } from './credentials.js';
import type { Source } from './records.js';
import type { SourceService } from './sources.js';
import { EventInputSchema, type StreamService } from '../streams/index.js';
import { asObj, BODY_KINDS, bodyKind, webhookEvent } from './providers/index.js';

/** GitHub caps payloads at 25 MB; the events svc maps are far smaller (an issue body is at most 64 KiB). */
export const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;

export interface WebhookRequest {
  sourceId: string;
  signature: string | undefined;
  event: string | undefined;
  deliveryId: string | undefined;
  contentType: string | undefined;
  body: Buffer | undefined;
}

export interface WebhookResult {
  ok: true;
  sourceId: string;
  event: string;
  deliveryId: string;
  /** The event's id in the stream; null for `ping`. */
  eventId: string | null;
  appended: number;
  deduped: number;
}

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;
const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;

/** HMAC-SHA256 of the raw bytes, compared in constant time with the header's hex digest. */
export function signatureMatches(secret: string, body: Buffer, header: string): boolean {
  const m = SIGNATURE.exec(header.trim());
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(m[1]!, 'hex'), expected);
}

const MAPPED_EVENTS: ReadonlySet<string> = new Set(BODY_KINDS);

export class GithubWebhooks {
  private readonly refusals: LogLimiter;

  constructor(
    private readonly deps: {
      sources: SourceService;
      streams: StreamService;
      credentials: SourceCredentials;
      logger: Logger;
      clock: Clock;
    },
  ) {
    this.refusals = new LogLimiter(deps.clock);
  }

  async receive(req: WebhookRequest): Promise<WebhookResult> {
    const { source, secret } = this.target(req.sourceId);
    const body = req.body ?? Buffer.alloc(0);
    if (req.signature === undefined) {
      this.refused(`${source.sourceId}:unsigned`, { sourceId: source.sourceId }, 'github webhook refused: no signature');
      throw errors.webhookSignatureRequired();
    }
    if (!signatureMatches(secret, body, req.signature)) {
      this.refused(`${source.sourceId}:signature`, { sourceId: source.sourceId, deliveryId: req.deliveryId }, 'github webhook refused: signature does not verify');
      throw errors.webhookSignatureInvalid();
    }
    const event = req.event ?? '';
    const deliveryId = req.deliveryId ?? '';
    const issues = [
      ...(EVENT_NAME.test(event) ? [] : [{ path: 'headers.x-github-event', message: 'a GitHub event name is required' }]),
      ...(DELIVERY_ID.test(deliveryId) ? [] : [{ path: 'headers.x-github-delivery', message: 'a delivery id (GUID) is required' }]),
    ];
    if (issues.length > 0) throw errors.invalidRequest(issues);
    const payload = asObj(readPayload(req.contentType, body));
    const repo = githubRepoOf(source);
    const named = String(asObj(payload.repository).full_name ?? '');
    if (named.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase()) throw errors.webhookRepositoryMismatch(req.sourceId, `${repo.owner}/${repo.repo}`, named || null);
    if (MAPPED_EVENTS.has(event) && bodyKind(payload) !== event) {
      throw errors.invalidRequest([{ path: 'headers.x-github-event', message: `the body is not a ${event} delivery` }]);
    }
    const mapped = webhookEvent(repo, event, deliveryId, payload);
    if (mapped) {
      // The payload is the caller's: what it makes of the event must still be a valid event.
      const checked = EventInputSchema.safeParse(mapped);
      if (!checked.success) throw errors.invalidRequest(checked.error.issues.map((i) => ({ path: ['event', ...i.path].join('.'), message: i.message })));
    }
    const result = mapped ? await this.deps.streams.append(source.sourceId, [mapped]) : { appended: 0, deduped: 0 };
    // A replay is logged at debug: anyone holding a captured body can send it again at will.
    const level = result.appended > 0 ? 'info' : 'debug';
    this.deps.logger[level]({ sourceId: source.sourceId, event, deliveryId, appended: result.appended, deduped: result.deduped }, 'github webhook received');
    return { ok: true, sourceId: source.sourceId, event, deliveryId, eventId: mapped?.id ?? null, appended: result.appended, deduped: result.deduped };
  }

  /** The source and its webhook secret, or the one 404 for every way of not having both. */
  private target(sourceId: string): { source: Source; secret: string } {
    // Keyed by the source when it exists, else by the reason alone: a caller names any id it likes.
    const notFound = (reason: string, known = true): AppError => {
      this.refused(known ? `${sourceId}:no-webhook` : 'no-such-source', { sourceId, reason }, 'github webhook refused: no webhook on this source');
      return errors.sourceNotFound(sourceId, { sourceId });
    };
    let source: Source;
    try {
      source = this.deps.sources.get(sourceId);
    } catch (err) {
      if (err instanceof AppError) throw notFound('no such source', false);
      throw err;
    }
    if (source.hostType !== 'github') throw notFound(`a ${source.hostType} source`);
    const ref = source.config.webhookSecretRef;
    if (typeof ref !== 'string') throw notFound('the source has no webhookSecretRef');
    const found = this.deps.credentials.lookup(ref);
    if (!found.ok) throw notFound(found.error);
    return { source, secret: found.credential.secret };
  }

  private refused(key: string, fields: Record<string, unknown>, message: string): void {
    this.refusals.limit(key, (suppressed) => this.deps.logger.warn({ ...fields, suppressed }, message));
  }
}

/** JSON, or GitHub's `application/x-www-form-urlencoded` form whose `payload` field is the JSON. */
function readPayload(contentType: string | undefined, body: Buffer): unknown {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let text: string;
  if (type === 'application/json') text = body.toString('utf8');
  else if (type === 'application/x-www-form-urlencoded') text = new URLSearchParams(body.toString('utf8')).get('payload') ?? '';
  else throw errors.unsupportedMediaType(contentType);
  if (text.trim() === '') throw errors.invalidJson('the delivery has no payload');
  return parseJsonBody(text);
}
