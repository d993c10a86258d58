/** The shapes of approval requests (docs/security.md#approvals). */
import type { ToolClass, TrustLevel } from '../../core/index.js';

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** How long an approval holds: this call, the rest of the turn, or from now on (a rule in the agent's policy). */
export const REMEMBER_SCOPES = ['once', 'turn', 'always'] as const;
export type RememberScope = (typeof REMEMBER_SCOPES)[number];

/** The message that set the turn's trust (the lowest among those it answers). */
export interface TaintSource {
  message_id: string;
  kind: string;
  origin: Record<string, unknown>;
  trust: TrustLevel;
}

export interface ApprovalDecision {
  decision: 'approve' | 'deny';
  remember: RememberScope;
  note: string | null;
  /** Who decided: `operator`, or `timeout` / `cancelled` when nobody did. */
  by: 'operator' | 'timeout' | 'cancelled';
}

export interface ApprovalRecord {
  approval_id: string;
  agent_id: string;
  turn_id: string;
  tool_call_id: string;
  tool: string;
  /** The call's arguments with secrets redacted. */
  arguments: Record<string, unknown>;
  classes: ToolClass[];
  trust: TrustLevel;
  tainted_by: TaintSource | null;
  status: ApprovalStatus;
  decision: ApprovalDecision | null;
  requested_at: string;
  expires_at: string;
  decided_at: string | null;
}

/** What a waiting turn learns. */
export interface ApprovalOutcome {
  approved: boolean;
  status: ApprovalStatus;
  remember: RememberScope;
  note: string | null;
}

export interface ApprovalRequest {
  agentId: string;
  turnId: string;
  call: { id: string; name: string; arguments: Record<string, unknown> };
  classes: ToolClass[];
  trust: TrustLevel;
  taintedBy: TaintSource | null;
  timeoutS: number;
  /** What the turn needs to continue after a restart (stored, never shown). */
  resume: unknown;
}

/** A turn paused on an approval when the daemon stopped: what the run loop resumes. */
export interface WaitingTurn {
  approval_id: string;
  agent_id: string;
  turn_id: string;
  resume: unknown;
}
