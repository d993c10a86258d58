/**
 * A turn in progress and what it keeps: its transcript entries, its progress between rounds and
 * tool calls (stored with an approval request, so a turn waiting for a decision continues after a
 * restart), and its outcome. Shared by the scheduler and the turn runner.
 */
import { lowerTrust, type TrustLevel } from '../../core/index.js';
import type { FailureArtifact } from '../channels/index.js';
import type { ChatMessage, CompletionResult, ToolCall } from '../providers/index.js';
import type { Message } from '../agents/index.js';
import type { TaintSource } from '../approvals/index.js';
import type { Tool, ToolOutcome } from '../tools/index.js';
import type { Store } from '../../store/index.js';
import type { BrakeTrip } from './types.js';

export type AbortMode = 'stop_after_abort' | 'control_stop' | 'shutdown' | 'deleted';

export interface TranscriptEntry {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  message_id: string | null;
  created_at: string;
}

/**
 * Where a turn is between model rounds and tool calls: enough to continue it, kept in the
 * approval request while the turn waits (JSON).
 */
export interface TurnProgress {
  /** This turn's part of the model input after the history: its message, rounds, tool results, interjections. */
  messages: ChatMessage[];
  /** The last round that asked for tools (0 before the first). */
  round: number;
  /** That round's calls while they run, and their results so far; null between rounds. */
  calls: ToolCall[] | null;
  results: ToolOutcome[];
  /** The approval request the current call waits for. */
  approvalId: string | null;
  /** Tools the operator approved for the rest of the turn (`remember: turn`). */
  approvedTools: string[];
  /** Tool calls the model asked for in this turn (the brake's `tool_calls_per_turn`). */
  toolCalls: number;
  /** The current round's tool execution ids (one per call) and each finished call's duration. */
  executionIds: string[];
  durations: number[];
}

/** What a turn paused on an approval keeps in the request's row (the scheduler rebuilds the turn from it). */
export interface TurnResume {
  progress: TurnProgress;
  entries: TranscriptEntry[];
  activity_seq: number;
  interjected_ids: string[];
  tainted_by: TaintSource;
}

/** A turn in progress (in memory; its durable row is `turns`). */
export interface ActiveTurn {
  turnId: string;
  agentId: string;
  displayName: string;
  /** The parent supervising this agent (a private child), else null. */
  supervisor: string | null;
  message: Message;
  modelRef: string;
  startedAt: string;
  /** The lowest trust among the messages the turn answers: its tool calls are decided at it. */
  trust: TrustLevel;
  /** The message that set `trust`. */
  taintedBy: TaintSource;
  /** The tools offered to the model in this turn (asked once, when its rounds start). */
  tools: Tool[];
  progress: TurnProgress;
  round: number;
  controller: AbortController;
  abortMode: AbortMode | null;
  /** The abort mode as the caller spelled it (pause_after_abort is kept for the event). */
  requestedMode: string | null;
  /** Set when an interject message was queued during the turn (checked at the safe point). */
  interjectPending: boolean;
  interjected: Message[];
  entries: TranscriptEntry[];
  activitySeq: number;
  /** Text streamed in the current round. */
  streamed: string;
  /** Resolves once the turn's outcome is committed. */
  done: Promise<void>;
  settle: () => void;
}

export interface FinalRound {
  round: number;
  text: string;
  stopReason: string;
  usage: CompletionResult['usage'] | null;
  /** The prompt's tokens as counted (the ledger's estimate when the provider reports none). */
  promptTokens?: number;
}

export type TurnOutcome =
  // `final` null: the last round asked for tools and is recorded already (a call ended the turn: wait_for).
  | { kind: 'completed'; rounds: number; text: string; final: FinalRound | null; brake?: BrakeTrip }
  | { kind: 'failed'; rounds: number; reason: string; artifact: FailureArtifact }
  | { kind: 'aborted'; rounds: number; mode: AbortMode };

export function currentTurnView(t: ActiveTurn) {
  return { turn_id: t.turnId, message_id: t.message.message_id, status: t.progress.approvalId ? ('waiting_approval' as const) : ('running' as const), round: t.round, trust: t.trust, started_at: t.startedAt };
}

export function taintOf(m: Message): TaintSource {
  return { message_id: m.message_id, kind: m.kind, origin: m.origin as unknown as Record<string, unknown>, trust: m.trust };
}

export function freshProgress(): TurnProgress {
  return { messages: [], round: 0, calls: null, results: [], approvalId: null, approvedTools: [], toolCalls: 0, executionIds: [], durations: [] };
}

/** Inside a turn's write: a message of lower trust joined the turn, so the turn's trust goes down. */
export function lowerTurnTrust(turn: ActiveTurn, m: Message, setTrust: (turnId: string, trust: TrustLevel, by: string) => void): void {
  const trust = lowerTrust(turn.trust, m.trust);
  if (trust === turn.trust) return;
  turn.trust = trust;
  turn.taintedBy = taintOf(m);
  setTrust(turn.turnId, trust, m.message_id);
}

/**
 * Inside a turn's write: if it rolls back (to be tried again), the turn's counters are as before
 * it, so a retried write numbers its activities as the first attempt would have.
 */
export function keepOnRollback(store: Store, turn: ActiveTurn): void {
  const { activitySeq, interjectPending, trust, taintedBy } = turn;
  store.onRollback(() => {
    turn.activitySeq = activitySeq;
    turn.interjectPending = interjectPending;
    turn.trust = trust;
    turn.taintedBy = taintedBy;
  });
}
