/**
 * AgentInbox's notify lease (docs/inbox-api.md#notify-lease), for webhook and terminal targets (a
 * runtime target, svc's own kind, gets every batch): once a target is notified, it holds a lease of
 * `delivery.notify_lease_ms` (600000, AgentInbox's default; 0 turns the lease off) and is not
 * notified of new entries while the lease runs. Instead its dispatch state turns `dirty`: entries
 * after its `queued_through` cursor wait. Then:
 * - an acknowledgement that leaves nothing unacknowledged ends the lease (the state is gone, and the
 *   next entry is notified as the first was); one that leaves entries while the state is dirty ends
 *   it too and notifies what waited at once (a new lease starts); one that leaves entries of a
 *   state that is only `notified` changes nothing;
 * - when the lease ends unacknowledged: with nothing unacknowledged the state is gone; a dirty state
 *   is notified of what waited; a `notified` webhook target is reminded of every unacknowledged
 *   entry (reason `reminder`), while a terminal target's lease is only extended (AgentInbox types
 *   nothing again into a pane that has not changed). Either way a new lease starts.
 * The lease end is a column of the target row, so it survives restarts; the notifier schedules it
 * with the rest of the target's moments (notifier.ts). Digests, which come once per period, and a
 * resume's catch-up are not held by it; a catch-up starts a lease like any notification.
 */
import { isoAt, type Clock } from '../../core/index.js';
import type { InboxEntries } from '../entries/index.js';
import { ActivationTally } from './activation.js';
import type { TargetService } from './targets.js';
import { LEASED_KINDS, type DeliverySettings, type TargetRow } from './types.js';

/** Entries read to describe what a dirty state waits for (its counts stop there). */
const PENDING_SCAN = 500;

/**
 * AgentInbox's ActivationDispatchState: a target under a notify lease, `dirty` while entries wait
 * for the lease to end. The pending fields describe what waits; svc defers nothing else, so the
 * defer fields stay empty and fingerprints are not kept.
 */
export interface DispatchState {
  agentId: string;
  targetId: string;
  status: 'notified' | 'dirty';
  leaseExpiresAt: string;
  lastNotifiedFingerprint: null;
  deferReason: null;
  deferAttempts: 0;
  firstDeferredAt: null;
  lastDeferredAt: null;
  pendingFingerprint: null;
  pendingNewItemCount: number;
  pendingSummary: string | null;
  pendingSubscriptionIds: string[];
  pendingSourceIds: string[];
  updatedAt: string;
}

/** What an acknowledgement or a lease end does to a target (see the top of this file). */
export type LeaseAction = 'none' | 'end' | 'notify' | 'remind' | 'extend';

export interface NotifyLeaseDeps {
  clock: Clock;
  settings: () => DeliverySettings;
  entries: InboxEntries;
  targets: TargetService;
}

export class NotifyLease {
  constructor(private readonly deps: NotifyLeaseDeps) {}

  private get ms(): number {
    return this.deps.settings().notify_lease_ms;
  }

  /** The lease applies to the target. */
  applies(row: TargetRow): boolean {
    return LEASED_KINDS.has(row.kind) && this.ms > 0;
  }

  /** New entries must wait: the target's lease is running. */
  held(row: TargetRow, now: number): boolean {
    return this.applies(row) && row.lease_expires_ms !== null && row.lease_expires_ms > now;
  }

  /** The target was just notified: its lease starts (inside the caller's transaction). */
  start(row: TargetRow): void {
    if (this.applies(row)) this.deps.targets.setLease(row.target_id, this.deps.clock.now() + this.ms);
  }

  end(row: TargetRow): void {
    if (row.lease_expires_ms !== null) this.deps.targets.setLease(row.target_id, null);
  }

  /** Entries wait after the target's cursor. */
  dirty(row: TargetRow): boolean {
    return this.waiting(row, 1).length > 0;
  }

  /** What an acknowledgement of the target's agent does to it. */
  onAck(row: TargetRow): LeaseAction {
    if (row.lease_expires_ms === null) return 'none';
    if (this.unacked(row) === 0) return 'end';
    return this.dirty(row) ? 'notify' : 'none';
  }

  /** What the end of the target's lease does to it. */
  onExpiry(row: TargetRow): LeaseAction {
    if (!this.applies(row) || this.unacked(row) === 0) return 'end';
    if (this.dirty(row)) return 'notify';
    return row.kind === 'terminal' ? 'extend' : 'remind';
  }

  /** The target's dispatch state (null: none, it has no lease). */
  stateOf(row: TargetRow): DispatchState | null {
    if (row.lease_expires_ms === null || !this.applies(row)) return null;
    const waiting = this.waiting(row, PENDING_SCAN);
    const tally = new ActivationTally();
    for (const e of waiting) tally.add(e);
    return {
      agentId: row.agent_id,
      targetId: row.target_id,
      status: waiting.length > 0 ? 'dirty' : 'notified',
      leaseExpiresAt: isoAt(row.lease_expires_ms),
      lastNotifiedFingerprint: null,
      deferReason: null,
      deferAttempts: 0,
      firstDeferredAt: null,
      lastDeferredAt: null,
      pendingFingerprint: null,
      pendingNewItemCount: waiting.length,
      pendingSummary: tally.latestSummary,
      pendingSubscriptionIds: tally.subscriptionIds,
      pendingSourceIds: tally.sourceIds,
      // When the lease started: the target's last notification.
      updatedAt: isoAt(row.lease_expires_ms - this.ms),
    };
  }

  private waiting(row: TargetRow, limit: number) {
    return this.deps.entries.unacked(row.agent_id, { ...(row.queued_through ? { afterEntryId: row.queued_through } : {}), limit });
  }

  private unacked(row: TargetRow): number {
    return this.deps.entries.counts(row.agent_id).unacked;
  }
}
