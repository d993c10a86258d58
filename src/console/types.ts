/** The parts of the control plane's answers the console reads (the full shapes: /api/openapi.json). */
import type { EventEnvelope } from '../events/wire/index.js';

export type { EventEnvelope };
export interface Handshake {
  auth: { mode: 'bearer' | 'local'; required: boolean; session?: 'oidc' };
  runtime: { default_agent: string; home_dir: string; listen: string };
}

export interface SessionInfo {
  kind: 'oidc' | 'token';
  subject: string;
  expires_at: string;
}

export interface AgentRow {
  agent_id: string;
  display_name: string;
  status: string;
  visibility: string;
  is_default: boolean;
  pending: number;
  current_run_id: string | null;
  waiting_reason: string | null;
  identity: { incarnation: number; created_at: string };
  model: { effective_model: string };
  scheduling_posture?: { posture: string; reason: string };
}

/** GET /api/agents/:id/status */
export interface AgentStatus {
  agent_id: string;
  status: string;
  incarnation: number;
  model: string;
  pending_messages: number;
  active_task_count: number;
  scheduling_posture?: { posture: string; reason: string };
  /** `waiting_approval` while a tool call waits for the operator. */
  current_run: { turn_id: string; status: 'running' | 'waiting_approval'; trust: string } | null;
}

/** GET /api/agents/:id/approvals (docs/security.md#approvals). */
export interface Approval {
  approval_id: string;
  turn_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  classes: string[];
  trust: string;
  tainted_by: { message_id: string; kind: string; origin: Record<string, unknown>; trust: string } | null;
  status: string;
  requested_at: string;
  expires_at: string;
}

export interface PolicyRule {
  tool: string;
  arguments?: Record<string, string>;
  trust?: string[];
  decision: string;
  source: 'config' | 'template' | 'agent';
}

type Layer = { classes?: Record<string, Record<string, string>>; limits?: Record<string, number> } | null;

/** GET /api/agents/:id/policy */
export interface PolicyView {
  effective: { classes: Record<string, Record<string, string>>; rules: PolicyRule[]; limits: Record<string, number>; approval_timeout_s: number };
  layers: { config: Layer; template: { name: string; layer: Layer } | null; agent: Layer };
}


export interface EventsPage {
  events: EventEnvelope[];
  has_older: boolean;
}

export interface HistoryEntry {
  seq: number;
  role: string;
  content: string;
  turn_id: string | null;
  created_at: string;
}

export interface Conversation {
  status: string;
  current_turn: unknown;
  pending: number;
  history: HistoryEntry[];
}

export interface Brief {
  brief_id: string;
  kind: string;
  title: string;
  text: string;
  created_at: string;
}

export interface Task {
  task_id: string;
  kind: string;
  status: string;
  summary: string;
  created_at: string;
  command?: { cmd: string; exit_status: number | null } | null;
}

export interface TaskOutput {
  task: { status: string; output_preview: string; output_truncated: boolean; exit_status: number | null };
}

export interface Timer {
  timer_id: string;
  status: string;
  summary: string | null;
  duration_ms: number | null;
  interval_ms: number | null;
  next_fire_at: string | null;
  fire_count: number;
}

export interface WorkItem {
  id: string;
  objective: string;
  state: string;
  plan_status: string;
  revision: number;
  updated_at: string;
}

export interface InboxAgent {
  agentId: string;
  name: string | null;
  /** AgentInbox's status: offline while the agent has no active target. */
  status: 'active' | 'offline';
  deliveryPaused: boolean;
  createdAt: string;
}

export interface InboxTimer {
  scheduleId: string;
  agentId: string;
  mode: 'at' | 'every' | 'cron';
  at: string | null;
  intervalMs: number | null;
  cronExpr: string | null;
  timezone: string;
  message: string;
  /** svc's state (AgentInbox's status shows a completed timer as paused). */
  state: 'active' | 'paused' | 'completed';
  nextFireAt: string | null;
}

/** A source as GET /sources lists it: AgentInbox's record (sourceType is its kind, e.g. github_repo) with svc's fields. */
export interface InboxSource {
  sourceId: string;
  hostId: string;
  hostType: string;
  sourceType: string;
  streamKind: string;
  streamKey: string;
  state: string;
  error: string | null;
  createdAt: string;
}

export interface InboxSubscription {
  subscriptionId: string;
  agentId: string;
  sourceId: string;
  filter: unknown;
  startPolicy: string;
  consumedOffset: number;
  createdAt: string;
}

/** An inbox entry as AgentInbox answers it (an item, or a digest snapshot of a thread), with svc's fields beside. */
export interface InboxEntry {
  entryId: string;
  kind: 'item' | 'digest_snapshot';
  summary: string;
  count: number;
  subscriptionIds: string[];
  rawPayload?: unknown;
  eventVariant?: string;
  itemKind?: 'event' | 'direct' | 'timer';
  message?: string | null;
  sender?: string | null;
  event?: { type: string; subject: string | null; data: unknown } | null;
  createdAt: string;
  ackedAt: string | null;
}

/** GET /api/agents/:id/tool-executions[/:id] */
export interface ToolExecution {
  id: string;
  turn_id: string;
  round: number;
  tool_name: string;
  status: string;
  trust: string;
  classes: string[];
  input: unknown;
  output: unknown;
  output_bytes: number | null;
  output_truncated: boolean;
  error_code: string | null;
  created_at: string;
  duration_ms: number;
  artifacts: Array<{ index: number; kind: string; name: string; media_type: string; size: number; truncated: boolean }>;
}

/** GET /api/agents/:id/tool-executions/:id/artifacts/:index */
export interface ToolArtifact {
  index: number;
  kind: string;
  name: string;
  size: number;
  content: string;
  next_offset: number | null;
}

/** Sums of model rounds (GET /api/agents/:id/usage, the state page's `usage`). */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  tokens: number;
  cost_usd: number | null;
  rounds: number;
  turns: number;
  unpriced_rounds: number;
  estimated_rounds: number;
}

export interface UsageRow extends UsageTotals {
  key: string | null;
}

/** GET /api/agents/:id/usage */
export interface Usage {
  by: 'day' | 'work_item' | 'model';
  rows: UsageRow[];
  total: UsageTotals;
}

/** GET /api/agents/:id/state: its `usage` section. */
export interface UsageSection {
  today: UsageRow;
  total: UsageTotals;
  budgets: { max_tokens_per_turn: number; max_tokens_per_day: number; max_cost_per_day: number; today_tokens: number; today_cost_usd: number; counted_since: string | null };
  warnings: string[];
}
