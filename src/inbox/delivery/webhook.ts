/**
 * Webhook targets: a JSON POST signed with the Standard Webhooks scheme
 * (https://www.standardwebhooks.com): headers `webhook-id` (the notification id, the same on every
 * retry, so receivers can deduplicate), `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded
 * part of the secret after `whsec_`.
 *
 * Outcomes: 2xx delivered; 410 Gone takes the target offline at once; anything else (other
 * statuses, redirects, network errors, the `delivery.timeout_ms` limit) is a failed attempt,
 * retried after `Retry-After` when the answer carries one.
 */
import { createHmac } from 'node:crypto';
import { readBody, type Clock } from '../../core/index.js';
import type { AttemptOutcome, Deliverer, PendingNotification, TargetWithSecret } from './types.js';

/** What of a receiver's answer is read (to reuse the connection); the rest is dropped with it. */
const RECEIVER_BODY_MAX = 64 * 1024;

/** `v1,<signature>` for one message (exported for tests and receivers written against svc). */
export function signWebhook(secret: string, id: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date (RFC 9110 section 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class WebhookDelivery implements Deliverer {
  constructor(private readonly deps: { clock: Clock; timeoutMs: () => number }) {}

  async deliver(target: TargetWithSecret, n: PendingNotification, signal: AbortSignal): Promise<AttemptOutcome> {
    if (!target.url || !target.secret) return { ok: false, error: 'webhook target without url or secret' };
    const timestamp = Math.floor(this.deps.clock.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'svc-inbox',
      'webhook-id': n.notificationId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(target.secret, n.notificationId, timestamp, n.body),
    };
    const timeoutMs = this.deps.timeoutMs();
    try {
      const res = await fetch(target.url, { method: 'POST', headers, body: n.body, redirect: 'manual', signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
      // Drain a short answer so the connection can be reused; past RECEIVER_BODY_MAX the rest is not
      // read and the connection is dropped (a receiver cannot make svc hold what it sends).
      await readBody(res, RECEIVER_BODY_MAX, undefined, true).catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return { ok: true };
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.deps.clock.now());
      return {
        ok: false,
        error: `HTTP ${res.status}`,
        gone: res.status === 410,
        ...(retryAfterMs === null ? {} : { retryAfterMs }),
      };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (signal.aborted) return { ok: false, error: 'aborted: the daemon is shutting down' };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') return { ok: false, error: `timed out after ${timeoutMs} ms` };
      return { ok: false, error: `request failed: ${e.cause?.code ?? e.message}` };
    }
  }
}
