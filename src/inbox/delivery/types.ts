/**
 * What the files of delivery/ share: the target records (targets.ts keeps them, the deliverers
 * get them) and the notifications (the notifier queues and attempts them, digests.ts builds
 * digests, webhook.ts, terminal.ts and runtime.ts send them).
 */
import type { AggregationPolicy } from '../types.js';
import type { EntryDigest, InboxEntry, InboxItem } from '../entries/index.js';

// --- targets -------------------------------------------------------------------------------------

export const TARGET_KINDS = ['webhook', 'terminal', 'runtime'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
export const TARGET_STATUSES = ['active', 'offline'] as const;
/** A webhook target's activation mode as AgentInbox names it (its default: activation_only). */
export const ACTIVATION_MODES = ['activation_only', 'activation_with_items'] as const;
export type ActivationMode = (typeof ACTIVATION_MODES)[number];
export type TargetStatus = (typeof TARGET_STATUSES)[number];

export interface Target {
  targetId: string;
  agentId: string;
  kind: TargetKind;
  url: string | null;
  tmuxTarget: string | null;
  tmuxSocket: string | null;
  runtimeAgentId: string | null;
  /**
   * AgentInbox's terminal target fields, which its client matches to find the current agent:
   * `backend` is `tmux` for every terminal target; `tmuxPaneId` is the pane when `tmuxTarget` is
   * a pane id of the daemon's tmux server (no `tmuxSocket`); the rest come from a terminal
   * registration (null otherwise).
   */
  backend: 'tmux' | null;
  tmuxPaneId: string | null;
  runtimeKind: string | null;
  runtimeSessionId: string | null;
  runtimePid: number | null;
  tty: string | null;
  termProgram: string | null;
  itermSessionId: string | null;
  status: TargetStatus;
  /** `gone` (410), `max_failures`; null while active. */
  offlineReason: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  /** Highest entry id in a delivered notification (never replayed by catch-up). */
  notifiedThroughEntryId: string | null;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  /** The target's own aggregation policy; null: it follows its agent's. */
  aggregation: AggregationPolicy | null;
  createdAt: string;
  updatedAt: string;
  // AgentInbox's activation-target fields (its ActivationTarget record), beside svc's.
  /** When it went offline (its last change while offline); null while active. */
  offlineSince: string | null;
  /** = lastSuccessAt. */
  lastDeliveredAt: string | null;
  /**
   * AgentInbox's mode: a webhook target's activation mode as it was created (default
   * activation_only), activation_with_items for a runtime target, agent_prompt for a terminal.
   */
  mode: ActivationMode | 'agent_prompt';
  /** The notify lease (`delivery.notify_lease_ms`, AgentInbox's 600000 by default; 0: none): see notifier.ts. */
  notifyLeaseMs: number;
  minUnackedItems: null;
  notificationPolicy: { notifyLeaseMs: number; minUnackedItems: null };
  /** = updatedAt. */
  lastSeenAt: string;
}

/** Kinds held by the notify lease (AgentInbox's own kinds); a runtime target gets every batch. */
export const LEASED_KINDS: ReadonlySet<TargetKind> = new Set(['webhook', 'terminal']);

/** The creation answer: the only place a webhook secret is ever shown. */
export type CreatedTarget = Target & { secret?: string };

/** What delivery modules get: the record plus the signing secret. */
export interface TargetWithSecret extends Target {
  secret: string | null;
}

export interface TargetRow {
  target_id: string;
  agent_id: string;
  kind: TargetKind;
  config: string;
  status: TargetStatus;
  offline_reason: string | null;
  consecutive_failures: number;
  last_error: string | null;
  queued_through: string | null;
  notified_through: string | null;
  last_attempt_ms: number | null;
  last_success_ms: number | null;
  /** Own aggregation policy as canonical JSON; null: the agent's. */
  aggregation: string | null;
  /** When the target's notify lease ends; null: no dispatch state (notifier.ts). */
  lease_expires_ms: number | null;
  created_ms: number;
  updated_ms: number;
}

// --- notifications -------------------------------------------------------------------------------

export const NOTIFICATION_REASONS = ['entries', 'catch_up', 'digest', 'reminder'] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/** What every notification carries, whatever its type. */
export interface NotificationHeader {
  notificationId: string;
  agentId: string;
  targetId: string;
  /**
   * `entries`: new entries arrived; `digest`: a digest period ended; `catch_up`: sent by a resume for
   * what was held back; `reminder`: a notify lease ended with every entry still unacknowledged (lease.ts).
   */
  reason: NotificationReason;
  createdAt: string;
}

/**
 * AgentInbox's activation fields, on every notification body beside svc's own (activation.ts builds
 * them and says what each means; docs/agentinbox.md#notifications).
 */
/** AgentInbox's `ActivationItem`: one item as a webhook in activation_with_items mode lists it. */
export type ActivationItem = InboxItem;

/** AgentInbox's `Activation`, field for field (`entries` is svc's, on the payload types). */
export interface Activation {
  kind: 'agentinbox.activation';
  activationId: string;
  agentId: string;
  inboxId: string;
  targetId: string;
  targetKind: TargetKind;
  subscriptionIds: string[];
  sourceIds: string[];
  latestEntryId: string | null;
  newEntryCount: number;
  newItemCount: number;
  summary: string;
  /** Webhook targets only: the listed entries as AgentInbox items. */
  items?: ActivationItem[];
  createdAt: string;
  deliveredAt: null;
  /** svc's: the summary of the newest covered entry (the `from …` part of `summary`; the terminal text's Summary). */
  latestSummary: string | null;
}


/** The JSON body of a notification of new entries (webhook body, runtime message `json`): AgentInbox's activation plus svc's fields. */
export interface EntriesPayload extends NotificationHeader, Activation {
  type: 'inbox.entries';
  entryCount: number;
  firstEntryId: string;
  lastEntryId: string;
  /** More than MAX_LISTED entries: `entries` lists the first ones; read the inbox for the rest. */
  truncated: boolean;
  entries: InboxEntry[];
}

/** The JSON body of a digest (digests.ts): the unacknowledged entries since the last digest, summarised; AgentInbox's activation beside. */
export interface DigestPayload extends NotificationHeader, Activation {
  type: 'inbox.digest';
  entryCount: number;
  firstEntryId: string;
  lastEntryId: string;
  /** Counts per kind and source (null for direct items and timer reminders), most first. */
  sources: EntryDigest['sources'];
  /** More entries than the policy's maxEntries: `entries` lists the first ones. */
  truncated: boolean;
  entries: InboxEntry[];
  /** The previous digest (or when the digest schedule began). */
  since: string;
  /** The period boundary this digest is for. */
  scheduledFor: string;
}

export type NotificationPayload = EntriesPayload | DigestPayload;

export interface PendingNotification {
  notificationId: string;
  targetId: string;
  agentId: string;
  attempts: number;
  payload: NotificationPayload;
  /** The exact bytes sent (and signed). */
  body: string;
}

/**
 * `gone`: take the target offline now. `deferred`: not a failure (a terminal whose agent is busy,
 * terminal-gate.ts): the notification is attempted again after `retryAfterMs` and the target's
 * failure count is left alone.
 */
export type AttemptOutcome = { ok: true } | { ok: false; error: string; gone?: boolean; retryAfterMs?: number; deferred?: boolean };

export interface Deliverer {
  /** Transactional deliverers run inside the transaction that records the outcome (runtime). */
  readonly transactional?: boolean;
  /** `signal` aborts the attempt at shutdown (it then counts as failed, and is retried after the restart). */
  deliver(target: TargetWithSecret, n: PendingNotification, signal: AbortSignal): Promise<AttemptOutcome> | AttemptOutcome;
}

export interface NotificationSummary {
  notificationId: string;
  targetId: string;
  reason: NotificationReason;
  entryCount: number;
}

export interface DeliverySettings {
  timeout_ms: number;
  retry_initial_ms: number;
  retry_max_ms: number;
  max_failures: number;
  /** AgentInbox's notify lease of webhook and terminal targets; 0: none. */
  notify_lease_ms: number;
}
