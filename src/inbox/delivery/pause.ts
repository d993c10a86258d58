/**
 * The agent delivery pause and the resumes (spec/inbox.md "States and transitions", rows
 * "agent delivery", "agent delivery paused", "agent", "target"):
 *
 * - pause: persists `deliveryPaused`; every proactive notification (new entries, retries, timer
 *   reminders, catch-up) is held back; collection, matching, entries and reads continue; an
 *   attempt already started may finish.
 * - resume `{deliveryOnly: true}`: in ONE transaction, queues one catch-up notification per
 *   effective active target (not offline) listing the unacknowledged entries it was never
 *   notified of (split only past MAX_COVERED entries) (after its `queued_through` cursor: never a backlog already notified or already
 *   queued), then clears the flag; the catch-up is thus persisted before the pause is cleared.
 *   Offline targets stay offline; pending rows keep their backoff (the catch-up queues behind
 *   them). No entries are created. Repeated calls queue nothing new and wake due pending rows.
 * - resume `{}` (deliveryOnly false): recovers every offline target (their pending rows due at
 *   once), then catches up like above for every target, and clears the flag, whether or not the
 *   agent was paused.
 * - target resume: recovers that one target (backoff reset); it catches up only while the agent
 *   is not paused, and never clears the agent's pause.
 *
 * Resumes of one agent (any scope) run one after another on a per-agent promise chain, so a
 * concurrent deliveryOnly resume can never lose a full resume's target recovery.
 *
 * A target under a `digest` policy catches up in digest form (digests.ts): one digest, reason
 * `catch_up`, if a period ended while it was held back, else nothing (its next digest covers the
 * entries), so a resume never adds a second notification to a period.
 */
import { KeyedSerial } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { InboxAgent, InboxAgents } from '../entries/index.js';
import type { Digests } from './digests.js';
import type { Notifier } from './notifier.js';
import type { TargetService } from './targets.js';
import type { NotificationSummary, Target, TargetRow } from './types.js';

export interface ResumeResult extends InboxAgent {
  /** Targets taken from offline back to active by this call. */
  recoveredTargets: string[];
  /** Catch-up notifications queued by this call (at most one per target). */
  catchUp: NotificationSummary[];
}

export interface TargetResumeResult extends Target {
  recovered: boolean;
  /** Catch-up notifications queued (none while the agent is paused). */
  catchUp: NotificationSummary[];
}

export interface DeliveryPauseDeps {
  store: Store;
  agents: InboxAgents;
  targets: TargetService;
  notifier: Notifier;
  digests: Digests;
}

export class DeliveryPause {
  /** Pause and resumes of one agent run one after another. */
  private readonly serial = new KeyedSerial();

  constructor(private readonly deps: DeliveryPauseDeps) {}

  pause(agentId: string): Promise<InboxAgent> {
    return this.serial.run(agentId, () =>
      this.deps.store.tx(() => {
        this.deps.agents.get(agentId);
        this.deps.agents.setDeliveryPaused(agentId, true);
        return this.deps.agents.get(agentId);
      }),
    );
  }

  resume(agentId: string, opts: { deliveryOnly?: boolean | undefined } = {}): Promise<ResumeResult> {
    const { store, agents, targets, notifier } = this.deps;
    return this.serial.run(agentId, () => {
      const woken: string[] = [];
      const result = store.tx(() => {
        agents.get(agentId);
        const recoveredTargets: string[] = [];
        if (!opts.deliveryOnly) {
          for (const row of targets.rowsOf(agentId)) {
            if (row.status !== 'offline') continue;
            targets.recover(row);
            notifier.resetBackoff(row.target_id);
            recoveredTargets.push(row.target_id);
          }
        }
        const catchUp: NotificationSummary[] = [];
        for (const row of targets.rowsOf(agentId)) {
          if (row.status !== 'active') continue;
          woken.push(row.target_id);
          catchUp.push(...this.catchUp(row));
        }
        agents.setDeliveryPaused(agentId, false);
        return { ...agents.get(agentId), recoveredTargets, catchUp };
      });
      notifier.wake(woken);
      return result;
    });
  }

  resumeTarget(agentId: string, targetId: string): Promise<TargetResumeResult> {
    const { store, agents, targets, notifier } = this.deps;
    return this.serial.run(agentId, () => {
      const result = store.tx(() => {
        const row = targets.rowOf(agentId, targetId);
        const recovered = targets.recover(row);
        notifier.resetBackoff(targetId);
        const catchUp = agents.get(agentId).deliveryPaused ? [] : this.catchUp(targets.rowOf(agentId, targetId));
        return { ...targets.get(agentId, targetId), recovered, catchUp };
      });
      notifier.wake([targetId]);
      return result;
    });
  }

  /** One active target's catch-up, inside the resume's transaction: a held digest, or the entries never notified. */
  private catchUp(row: TargetRow): NotificationSummary[] {
    const { digests, notifier } = this.deps;
    return digests.isDigest(row) ? digests.catchUp(row) : notifier.queueAllUnnotified(row.target_id, 'catch_up');
  }
}
