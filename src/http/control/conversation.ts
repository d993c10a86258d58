/**
 * Run loop reads (spec "Agent reads": briefs, conversation, conversation/stream,
 * turns/:turn_id/activities, transcript) and tool executions with their artifacts (the routes
 * Holon's GUI reads). Auth `read`.
 */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  BriefList,
  BriefsQuery,
  Conversation,
  ConversationQuery,
  ToolArtifactContent,
  ToolArtifactParams,
  ToolArtifactQuery,
  ToolExecutionList,
  ToolExecutionParams,
  ToolExecutionRecord,
  ToolExecutionsQuery,
  Transcript,
  TurnActivities,
  TurnParams,
} from '../schemas/index.js';
import { openStream } from '../sse-stream.js';

const tags = ['conversation'];

const STREAM_DESCRIPTION = [
  'Live SSE of turn progress (nothing is replayed; durable history is GET conversation and the event log).',
  'Every frame: `id` = a per-process frame counter, `event` = frame type, `data` = JSON object with `type` and `agent_id` plus:',
  '`snapshot` (first frame) {status, current_turn: CurrentTurn|null, streaming_text, pending};',
  '`turn_started` {turn: CurrentTurn, kind, priority, model_ref};',
  '`text_delta` / `thought_delta` {turn_id, round, text} (streamed model answer text / model thoughts, never stored);',
  '`tool_call` {turn_id, round, tool_call_id, tool_execution_id, name, arguments};',
  '`tool_result` {turn_id, round, tool_call_id, tool_execution_id, name, ok, content} (the record: GET tool-executions/:tool_execution_id);',
  '`turn_interjected` {turn_id, round, message_id, kind, priority} (an interject message admitted at the safe point between rounds);',
  '`turn_completed` {turn_id, message_id, rounds, text, brief_id};',
  '`turn_failed` {turn_id, message_id, reason, failure_artifact, brief_id};',
  '`turn_aborted` {turn_id, message_id, mode}.',
  'Comment heartbeats every events.heartbeat_ms. A client that falls too far behind is disconnected.',
].join(' ');

export function conversationRoutes(s: Services): AnyRoute[] {
  const { views, hub } = s.runLoop;
  const { executions, agents } = s;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/briefs',
      auth: 'read',
      tags,
      summary: 'Recent briefs (acknowledgements, progress, results, failures with failure_artifact), newest first',
      description: 'A turn ends with a `result` brief (the reply text) or a `failure` brief carrying failure_artifact {category, kind, summary, provider, model_ref, status}. Page with `before` = the last brief_id seen.',
      params: AgentIdParams,
      query: BriefsQuery,
      responses: { 200: { description: 'Briefs', schema: BriefList } },
      handler: ({ params, query }) => views.briefs(params.id, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/conversation',
      auth: 'read',
      tags,
      summary: 'Conversation overview: status, effective model, current turn, pending count, visible history',
      description: 'History holds user messages (as rendered for the model), tool results and final replies, oldest first. current_turn is null when no turn runs.',
      params: AgentIdParams,
      query: ConversationQuery,
      responses: { 200: { description: 'Conversation', schema: Conversation } },
      handler: ({ params, query }) => views.conversation(params.id, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/conversation/stream',
      auth: 'read',
      tags,
      summary: 'SSE of turn progress: snapshot, then live turn frames, streamed model text and thoughts',
      description: STREAM_DESCRIPTION,
      params: AgentIdParams,
      sse: true,
      responses: { 200: { description: 'text/event-stream of conversation frames', contentType: 'text/event-stream' } },
      handler: ({ params, reply }) => {
        const snapshot = views.snapshot(params.id);
        hub.follow(openStream(s, reply), params.id, snapshot);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/turns/:turn_id/activities',
      auth: 'read',
      tags,
      summary: 'Model rounds, tool calls and results, interjections of one turn (404 turn_not_found)',
      params: TurnParams,
      responses: { 200: { description: 'Activities in order', schema: TurnActivities } },
      handler: ({ params }) => views.activities(params.id, params.turn_id),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/transcript',
      auth: 'read',
      tags,
      summary: 'Transcript entries of the current turn (live), else of the last turn; turn null when there was none',
      params: AgentIdParams,
      responses: { 200: { description: 'Transcript', schema: Transcript } },
      handler: ({ params }) => views.transcript(params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/tool-executions',
      auth: 'read',
      tags,
      summary: "The agent's tool executions, newest first (or one turn's, in call order)",
      params: AgentIdParams,
      query: ToolExecutionsQuery,
      responses: { 200: { description: 'Tool executions', schema: ToolExecutionList } },
      handler: ({ params, query }) => {
        agents.get(params.id);
        return { ok: true as const, agent_id: params.id, tool_executions: executions.list(params.id, { turnId: query.turn_id, before: query.before, limit: query.limit ?? 50 }) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/tool-executions/:tool_execution_id',
      auth: 'read',
      tags,
      summary: 'One tool execution: arguments (redacted), status, duration, result excerpt, artifacts (404 tool_execution_not_found)',
      params: ToolExecutionParams,
      responses: { 200: { description: 'The record (Holon ToolExecutionRecord, with svc fields beside)', schema: ToolExecutionRecord } },
      handler: ({ params }) => {
        agents.get(params.id);
        return executions.get(params.id, params.tool_execution_id);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/tool-executions/:tool_execution_id/artifacts/:artifact_index',
      auth: 'read',
      tags,
      summary: "An artifact's UTF-8 content, whole or a slice (404 tool_artifact_not_found)",
      params: ToolArtifactParams,
      query: ToolArtifactQuery,
      responses: { 200: { description: 'The artifact', schema: ToolArtifactContent } },
      handler: ({ params, query }) => {
        agents.get(params.id);
        return executions.artifact(params.id, params.tool_execution_id, params.artifact_index, { offset: query.offset, maxChars: query.max_chars });
      },
    }),
  ];
}
