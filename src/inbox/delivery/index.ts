/**
 * Delivery: where an agent's notifications go (targets), when (aggregation, digests, the delivery
 * pause), and how they are sent and retried (webhook, terminal, runtime).
 */
export { ACTIVATION_MODES, TARGET_KINDS, TARGET_STATUSES, type ActivationMode, type CreatedTarget, type NotificationSummary, type Target, type TargetKind, type TargetStatus } from './types.js';
export { TargetService, type CreateTargetInput } from './targets.js';
export {
  AggregationPolicies,
  DEFAULT_COALESCE_MS,
  DEFAULT_DIGEST_ENTRIES,
  MAX_DIGEST_EVERY_MS,
  MAX_POLICY_ENTRIES,
  MAX_WINDOW_MS,
  MIN_DIGEST_EVERY_MS,
  type AggregationPolicyInput,
  type PolicyView,
} from './aggregation.js';
export { Notifier } from './notifier.js';
export { NOTIFICATION_RETENTION_MS, type NotificationHistory, type NotificationRecord } from './notifications.js';
export { Digests } from './digests.js';
export { DeliveryPause, type ResumeResult, type TargetResumeResult } from './pause.js';
export { AgentRegistration, type RegisterInput, type Registered } from './registration.js';
export {
  AgentViews,
  type AgentDetails,
  type AgentRecord,
  type SubscriptionDetails,
  type TargetResumeOutcome,
} from './agent-views.js';
export type { DispatchState } from './lease.js';
export { TMUX_PANE_ID, type TerminalRegistration, type TerminalSession } from './terminal-sessions.js';
export { WebhookDelivery } from './webhook.js';
export { TerminalDelivery } from './terminal.js';
export { RuntimeDelivery } from './runtime.js';
