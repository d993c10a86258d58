/**
 * Runtime targets: the notification enqueued into a control-plane agent's queue as a
 * `webhook_event` with origin `{kind:"webhook", source:"inbox"}` through the `inbox` delivery
 * surface (trusted_integration, integration_signal, priority normal; core/provenance.ts).
 * Transactional: the enqueue commits in the same transaction that marks the notification sent,
 * so a notification reaches the queue exactly once, even across a crash.
 */
import { AppError, deriveProvenance } from '../../core/index.js';
import type { Ingress } from '../../runtime/agents/index.js';
import type { AttemptOutcome, Deliverer, PendingNotification, TargetWithSecret } from './types.js';

export class RuntimeDelivery implements Deliverer {
  readonly transactional = true;
  private readonly provenance = deriveProvenance('inbox', { kind: 'webhook', source: 'inbox' }, { kind: 'webhook_event' });

  constructor(private readonly deps: { ingress: Ingress }) {}

  deliver(target: TargetWithSecret, n: PendingNotification): AttemptOutcome {
    if (!target.runtimeAgentId) return { ok: false, error: 'runtime target without runtimeAgentId' };
    try {
      this.deps.ingress.enqueueNow(
        target.runtimeAgentId,
        this.provenance,
        { type: 'json', value: n.payload as unknown as Record<string, unknown> },
        {
          metadata: { inbox_agent_id: n.agentId, inbox_target_id: n.targetId, notification_id: n.notificationId },
          correlation_id: n.notificationId,
        },
      );
      return { ok: true };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // A deleted control-plane agent will not come back under this target, and a private child
      // agent never takes inbox notifications: like a 410.
      const gone = err.code === 'agent_not_found' || err.code === 'agent_private';
      const retryAfter = err.headers['retry-after'];
      return { ok: false, error: `${err.code}: ${err.message}`, gone, ...(retryAfter ? { retryAfterMs: Number(retryAfter) * 1000 } : {}) };
    }
  }
}
