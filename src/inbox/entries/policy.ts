/**
 * An agent's inbox policy: AgentInbox's `InboxAggregationPolicy` (its `inbox policy show|set`,
 * GET/POST /agents/{id}/inbox/policy, docs/agentinbox.md#inbox-items-and-entries). It decides what
 * the agent reads, not when it is notified (that is svc's aggregation policy, delivery/aggregation.ts):
 * with `enabled`, related items of a source that groups them (threads.ts) are read as one
 * `digest_snapshot` entry instead of one entry each.
 *
 * - `windowMs`: a thread's pending items become a snapshot once no new item joined it for this long;
 * - `maxItems`: ... or as soon as it has this many unacknowledged items;
 * - `maxThreadAgeMs`: a thread older than this takes no more items; the next one starts a new thread.
 *
 * Stored per agent as the fields that were set (`inbox_agents.inbox_policy`, JSON; NULL: none);
 * what is not set reads as AgentInbox's default. A change works as AgentInbox's does: `enabled`
 * keeps its value unless sent, while `windowMs`, `maxItems` and `maxThreadAgeMs` take the value
 * sent and go back to their default when not sent (its updateInboxAggregationPolicy stores every
 * numeric field of the request, absent ones as null).
 */

export interface InboxPolicy {
  enabled: boolean;
  windowMs: number;
  maxItems: number;
  maxThreadAgeMs: number;
}

export type InboxPolicyInput = Partial<InboxPolicy>;

/** AgentInbox's defaults (its DEFAULT_INBOX_AGGREGATION_*). */
export const DEFAULT_INBOX_POLICY: Readonly<InboxPolicy> = Object.freeze({ enabled: false, windowMs: 30_000, maxItems: 20, maxThreadAgeMs: 86_400_000 });

/** Upper bounds of the fields (AgentInbox has none; these keep timers and counts sane). */
export const INBOX_POLICY_LIMITS: Readonly<Omit<InboxPolicy, 'enabled'>> = Object.freeze({
  windowMs: 30 * 86_400_000,
  maxItems: 10_000,
  maxThreadAgeMs: 365 * 86_400_000,
});

const FIELDS = ['enabled', 'windowMs', 'maxItems', 'maxThreadAgeMs'] as const;

/** The stored fields (JSON text, or null) over the defaults. */
export function effectivePolicy(stored: InboxPolicyInput | null): InboxPolicy {
  return { ...DEFAULT_INBOX_POLICY, ...(stored ?? {}) };
}

/** The stored fields after a change, AgentInbox's way (see the header; the HTTP schema has checked the values). */
export function mergePolicy(stored: InboxPolicyInput | null, change: InboxPolicyInput): InboxPolicyInput {
  const enabled = change.enabled ?? stored?.enabled;
  const next: InboxPolicyInput = enabled === undefined ? {} : { enabled };
  for (const field of ['windowMs', 'maxItems', 'maxThreadAgeMs'] as const) {
    if (change[field] !== undefined) next[field] = change[field];
  }
  return next;
}

/**
 * A reader of stored JSON that parses each distinct string once (policies are read for every new
 * item), keeping at most 1000 of them.
 */
export function jsonReader<T>(shape: (raw: unknown) => T): (json: string | null) => T | null {
  const cache = new Map<string, T>();
  return (json) => {
    if (json === null) return null;
    let value = cache.get(json);
    if (value === undefined) {
      if (cache.size > 1000) cache.clear();
      value = shape(JSON.parse(json));
      cache.set(json, value);
    }
    return value;
  };
}

/** Stored JSON -> the fields set. */
export const readInboxPolicy = jsonReader((raw) => {
  const r = raw as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((f) => r[f] !== undefined).map((f) => [f, r[f]])) as InboxPolicyInput;
});
