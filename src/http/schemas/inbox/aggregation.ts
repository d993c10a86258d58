/**
 * Aggregation policies of inbox agents and targets (src/inbox/delivery/aggregation.ts, digests.ts):
 * the policy in requests and records, the PATCH bodies, and AgentInbox's `inbox policy` shape.
 */
import { z } from 'zod';
import {
  DEFAULT_COALESCE_MS,
  DEFAULT_DIGEST_ENTRIES,
  MAX_DIGEST_EVERY_MS,
  MAX_POLICY_ENTRIES,
  MAX_WINDOW_MS,
  MIN_DIGEST_EVERY_MS,
  TARGET_KINDS,
} from '../../../inbox/delivery/index.js';
import { INBOX_POLICY_LIMITS } from '../../../inbox/entries/index.js';

const Entries = z.number().int().min(1).max(MAX_POLICY_ENTRIES);

const Immediate = z.strictObject({ mode: z.literal('immediate') }).openapi({ description: 'each commit of new entries is notified at once, as one notification' });

const Coalesce = z
  .strictObject({
    mode: z.literal('coalesce'),
    windowMs: z.number().int().min(0).max(MAX_WINDOW_MS).openapi({ description: `the window the first new entry opens (0 to ${MAX_WINDOW_MS}); it is never extended` }),
    maxEntries: Entries.nullable().optional().openapi({ description: 'the window closes early once this many entries wait (AgentInbox maxItems); absent: only the window' }),
  })
  .openapi({ description: `entries arriving within windowMs become one notification (the default: windowMs ${DEFAULT_COALESCE_MS})` });

const Digest = z
  .strictObject({
    mode: z.literal('digest'),
    every: z.number().int().min(MIN_DIGEST_EVERY_MS).max(MAX_DIGEST_EVERY_MS).optional().openapi({
      description: `the period in milliseconds (at least ${MIN_DIGEST_EVERY_MS}), counted from when the policy takes effect for the target`,
    }),
    cron: z.string().min(1).max(200).optional().openapi({ description: '5-field cron expression of the period boundaries, evaluated in timezone across DST changes; invalid: 400 invalid_cron' }),
    timezone: z.string().min(1).max(100).optional().openapi({ description: 'IANA time zone of cron (default: the daemon host zone); invalid: 400 invalid_timezone' }),
    maxEntries: Entries.optional().openapi({ description: `entries a digest lists (default ${DEFAULT_DIGEST_ENTRIES}); all are counted` }),
  })
  .refine((d) => (d.every === undefined) !== (d.cron === undefined), { message: 'a digest takes exactly one of every, cron' })
  .openapi({ description: 'no notification per entry: one digest per period of the unacknowledged entries since the last digest (none when nothing is new)' });

export const AggregationPolicyBody = z.discriminatedUnion('mode', [Immediate, Coalesce, Digest]).openapi('AggregationPolicyBody', {
  description: 'immediate | coalesce {windowMs, maxEntries?} | digest {every | cron, timezone?, maxEntries?}',
});

export const AggregationPolicy = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('immediate') }),
    z.object({ mode: z.literal('coalesce'), windowMs: z.number().int(), maxEntries: z.number().int().nullable() }),
    z.object({ mode: z.literal('digest'), every: z.number().int().nullable(), cron: z.string().nullable(), timezone: z.string(), maxEntries: z.number().int() }),
  ])
  .openapi('AggregationPolicy', { description: 'A stored policy: defaults filled in, the time zone resolved.' });

export const PatchInboxAgentBody = z
  .strictObject({
    aggregation: AggregationPolicyBody.nullable().openapi({ description: "the agent's policy; null: back to the default coalesce {windowMs: 250}" }),
  })
  .openapi('PatchInboxAgentBody');

export const PatchTargetBody = z
  .strictObject({
    aggregation: AggregationPolicyBody.nullable().openapi({ description: "the target's own policy; null: follow the agent's" }),
  })
  .openapi('PatchTargetBody');

const PolicyField = (max: number) => z.number().int().min(1).max(max);

export const AgentInboxPolicyBody = z
  .strictObject({
    enabled: z.boolean().optional().openapi({ description: 'group related items of a grouping source into digest threads (default false)' }),
    windowMs: PolicyField(INBOX_POLICY_LIMITS.windowMs).optional().openapi({ description: 'a thread is snapshotted once no item joined it for this long (default 30000)' }),
    maxItems: PolicyField(INBOX_POLICY_LIMITS.maxItems).optional().openapi({ description: '... or once it holds this many unacknowledged items (default 20)' }),
    maxThreadAgeMs: PolicyField(INBOX_POLICY_LIMITS.maxThreadAgeMs).optional().openapi({ description: 'a thread older than this takes no more items (default 86400000)' }),
    aggregation: AggregationPolicyBody.nullable().optional().openapi({ description: "svc's notification policy instead of AgentInbox's fields (not with them); null: the default" }),
  })
  .refine((b) => b.aggregation === undefined || (b.enabled === undefined && b.windowMs === undefined && b.maxItems === undefined && b.maxThreadAgeMs === undefined), {
    message: "send either svc's aggregation or AgentInbox's fields, not both",
  })
  .openapi('InboxPolicyBody', {
    description: "AgentInbox's `inbox policy set` {enabled?, windowMs?, maxItems?, maxThreadAgeMs?} (as AgentInbox: enabled keeps its value unless sent; windowMs, maxItems, maxThreadAgeMs not sent go back to their defaults), or svc's {aggregation}",
  });

const DigestSchedule = z
  .object({ nextDigestAt: z.string().nullable(), lastDigestAt: z.string().nullable(), digestCount: z.number().int() })
  .openapi('DigestSchedule');

export const InboxPolicyView = z
  .object({
    enabled: z.boolean().openapi({ description: "AgentInbox's inbox policy: digest threads on (default false)" }),
    windowMs: z.number().int(),
    maxItems: z.number().int(),
    maxThreadAgeMs: z.number().int(),
    agentId: z.string(),
    aggregation: AggregationPolicy.openapi({ description: "svc: the agent's notification policy (its own, or the default)" }),
    isDefault: z.boolean().openapi({ description: 'svc: the agent has no notification policy of its own' }),
    targets: z.array(
      z.object({
        targetId: z.string(),
        kind: z.enum(TARGET_KINDS),
        aggregation: AggregationPolicy.nullable().openapi({ description: "the target's own policy; null: the agent's" }),
        effective: AggregationPolicy,
        digest: DigestSchedule.nullable().openapi({ description: 'the digest schedule of a target whose effective policy is a digest' }),
      }),
    ),
  })
  .openapi('InboxPolicy', { description: "AgentInbox's inbox policy of an agent, and beside it svc's notification policies of the agent and its targets with their digest schedules." });
