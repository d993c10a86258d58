/** Run loop schemas: briefs, conversation, activities, transcript and run control bodies. */
import { z } from 'zod';
import { TRUST_LEVELS } from '../../core/index.js';
import { AuthorityClass, FailureArtifact, QueryInt } from './common.js';

export const TurnParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  turn_id: z.string().min(1).openapi({ example: 'turn_01J0000000000000000000000' }),
});

export const BriefsQuery = z.object({
  limit: QueryInt.optional().openapi({ description: 'max briefs, default 50, clamped to 200' }),
  before: z.string().min(1).optional().openapi({ description: 'a brief_id: only briefs older than it (exclusive)' }),
});

export const Brief = z
  .object({
    brief_id: z.string(),
    agent_id: z.string(),
    kind: z.enum(['acknowledgement', 'progress', 'result', 'failure']),
    title: z.string(),
    text: z.string(),
    turn_id: z.string().nullable(),
    message_id: z.string().nullable(),
    work_item_id: z.string().nullable(),
    failure_artifact: FailureArtifact.nullable(),
    created_at: z.string(),
  })
  .openapi('Brief');

export const BriefList = z.object({ ok: z.literal(true), agent_id: z.string(), briefs: z.array(Brief) }).openapi('BriefList');

export const CurrentTurn = z
  .object({
    turn_id: z.string(),
    message_id: z.string(),
    status: z.enum(['running', 'waiting_approval']).openapi({ description: 'waiting_approval: a tool call waits for the operator (GET /api/agents/:id/approvals)' }),
    round: z.number().int().openapi({ description: 'model round in progress (1-based; 0 before the first call)' }),
    trust: z.enum(TRUST_LEVELS).openapi({ description: 'the lowest trust among the messages the turn answers; its tool calls are decided at it' }),
    started_at: z.string(),
  })
  .openapi('CurrentTurn');

const HistoryEntry = z.object({
  seq: z.number().int(),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  turn_id: z.string().nullable(),
  message_id: z.string().nullable(),
  created_at: z.string(),
});

export const ConversationQuery = z.object({
  limit: QueryInt.optional().openapi({ description: 'history entries, default 50, clamped to 500' }),
});

export const Conversation = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    status: z.enum(['idle', 'running', 'stopped', 'deleting']),
    model: z.string(),
    current_turn: CurrentTurn.nullable(),
    pending: z.number().int(),
    history: z.array(HistoryEntry).openapi({ description: 'the last `limit` visible entries, oldest first' }),
  })
  .openapi('Conversation');

const TurnRecord = z.object({
  turn_id: z.string(),
  agent_id: z.string(),
  message_id: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'aborted', 'interrupted']),
  model_ref: z.string(),
  rounds: z.number().int(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  error: z.record(z.string(), z.unknown()).nullable(),
});

export const TurnActivities = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    turn: TurnRecord,
    activities: z.array(
      z.object({
        seq: z.number().int(),
        kind: z.string().openapi({ description: 'model_round, tool_call, tool_result, interjected, failed, aborted' }),
        payload: z.record(z.string(), z.unknown()),
        created_at: z.string(),
      }),
    ),
  })
  .openapi('TurnActivities');

export const Transcript = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    turn: z
      .object({
        turn_id: z.string(),
        message_id: z.string(),
        status: z.string(),
        round: z.number().int(),
        started_at: z.string(),
        ended_at: z.string().nullable(),
      })
      .nullable(),
    entries: z.array(
      z.object({ role: z.enum(['user', 'assistant', 'tool']), content: z.string(), message_id: z.string().nullable(), turn_id: z.string().nullable(), created_at: z.string() }),
    ),
    streaming_text: z.string().openapi({ description: 'text streamed so far in the running round (empty when no turn runs)' }),
  })
  .openapi('Transcript');

export const WakeBody = z
  .looseObject({
    reason: z.string().openapi({ description: 'non-empty after trimming, else 400 empty_reason' }),
    source: z.string().optional().openapi({ description: 'who asks (default "control")' }),
  })
  .openapi('WakeRequest');

export const WakeResponse = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    disposition: z.enum(['woken', 'coalesced', 'ignored']),
    message_id: z.string().optional().openapi({ description: 'the queued system_tick (woken only)' }),
  })
  .openapi('WakeResponse');

export const ControlBody = z
  .looseObject({ action: z.string().openapi({ description: '`stop` or `start`; another value: 400 unknown_action' }), authority_class: AuthorityClass })
  .openapi('ControlRequest');

export const ControlResponse = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    action: z.enum(['stop', 'start']),
    previous_status: z.string(),
    status: z.string(),
    aborted_turn_id: z.string().nullable(),
  })
  .openapi('ControlResponse');

export const AbortBody = z
  .looseObject({
    mode: z.string().optional().openapi({ description: '`stop_after_abort` (default) or its alias `pause_after_abort`; other values: 400 unknown_abort_mode' }),
  })
  .openapi('AbortRequest');

export const AbortResponse = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    turn_id: z.string(),
    mode: z.literal('stop_after_abort'),
    requested_mode: z.string(),
    status: z.string(),
  })
  .openapi('AbortResponse');

export const Compaction = z
  .object({
    compaction_id: z.string(),
    agent_id: z.string(),
    method: z.enum(['summary', 'dropped']).openapi({ description: '`dropped`: the summary failed (`reason`); the entries were dropped, the previous summary kept' }),
    from_seq: z.number().int(),
    through_seq: z.number().int().openapi({ description: 'history entries up to this seq are replaced in the prompt by `summary`' }),
    entries: z.number().int(),
    summary: z.string(),
    tokens_before: z.number().int(),
    tokens_after: z.number().int(),
    model_ref: z.string().nullable(),
    turn_id: z.string().nullable(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('Compaction');

export const CompactResponse = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    compacted: z.boolean().openapi({ description: 'false: nothing older than the last two entries since the previous compaction' }),
    compaction: Compaction.nullable(),
  })
  .openapi('CompactResponse');

export const DebugPromptBody = z
  .looseObject({ text: z.string().openapi({ description: 'non-empty after trimming, else 400 empty_prompt' }), authority_class: AuthorityClass })
  .openapi('DebugPromptRequest');

// --- tool executions (docs/tools.md#tool-executions) ----------------------------------------------

export const ToolExecutionParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  tool_execution_id: z.string().min(1).max(64).openapi({ example: 'tex_01J0000000000000000000000' }),
});

export const ToolArtifactParams = ToolExecutionParams.extend({
  artifact_index: QueryInt.pipe(z.number().int().min(0).max(1000)).openapi({ example: '0' }),
});

export const ToolExecutionsQuery = z.object({
  turn_id: z.string().min(1).max(64).optional().openapi({ description: "only this turn's executions, in call order" }),
  before: z.string().min(1).max(64).optional().openapi({ description: 'page: executions older than this tool_execution_id' }),
  limit: QueryInt.pipe(z.number().int().min(1).max(200)).optional().openapi({ description: 'at most this many, default 50' }),
});

export const ToolArtifactQuery = z.object({
  offset: QueryInt.pipe(z.number().int().min(0)).optional().openapi({ description: 'first character of the slice (default 0)' }),
  max_chars: QueryInt.pipe(z.number().int().min(1)).optional().openapi({ description: 'at most this many characters (default: the whole artifact)' }),
});

const ArtifactRef = z
  .object({
    index: z.number().int(),
    kind: z.string().openapi({ description: '`result` (a result too long for the prompt), `diff`, `page`, …' }),
    name: z.string(),
    media_type: z.string(),
    size: z.number().int().openapi({ description: 'bytes the tool produced' }),
    truncated: z.boolean().openapi({ description: 'only the first 8 MiB are kept' }),
  })
  .openapi('ToolArtifactRef');

export const ToolExecutionRecord = z
  .object({
    id: z.string().openapi({ description: 'the tool execution id (tex_…), also `tool_execution_id`' }),
    tool_execution_id: z.string(),
    agent_id: z.string(),
    turn_id: z.string(),
    round: z.number().int(),
    tool_call_id: z.string().openapi({ description: "the model's id for the call" }),
    tool_name: z.string(),
    authority_class: z.enum(TRUST_LEVELS).openapi({ description: 'the trust of the turn the call ran in (Holon reads it as authority_class)' }),
    trust: z.enum(TRUST_LEVELS),
    classes: z.array(z.string()).openapi({ description: 'the policy classes of the call (read, write, exec, network, agents)' }),
    work_item_id: z.string().nullable(),
    status: z.enum(['running', 'success', 'error', 'interrupted']),
    input: z.unknown().openapi({ description: 'the arguments, secrets redacted' }),
    output: z.unknown().openapi({ description: 'the result as the model read it (parsed when JSON; `{text}` otherwise), secrets redacted, the first 16 KiB' }),
    output_bytes: z.number().int().nullable(),
    output_truncated: z.boolean(),
    error_code: z.string().nullable(),
    summary: z.string(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    duration_ms: z.number().int(),
    invocation_surface: z.literal('model'),
    artifacts: z.array(ArtifactRef),
  })
  .openapi('ToolExecutionRecord');

export const ToolExecutionList = z
  .object({ ok: z.literal(true), agent_id: z.string(), tool_executions: z.array(ToolExecutionRecord) })
  .openapi('ToolExecutionList');

export const ToolArtifactContent = ArtifactRef.extend({
  artifact_index: z.number().int().openapi({ description: 'Holon: the artifact index' }),
  content: z.string(),
  offset: z.number().int(),
  next_offset: z.number().int().nullable().openapi({ description: 'where the next slice starts; null at the end' }),
}).openapi('ToolExecutionArtifactContent');
