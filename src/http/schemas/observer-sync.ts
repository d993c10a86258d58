/** Observer-sync batch reads and snapshots (the real system's routes; runtime/views/observer-reads.ts). */
import { z } from 'zod';
import { BATCH_GET_MAX_IDS } from '../../runtime/views/index.js';
import { AgentListEntry } from './agents.js';
import '../openapi.js';

const ids = (what: string) =>
  z
    .array(z.string().min(1))
    .max(BATCH_GET_MAX_IDS, `at most ${BATCH_GET_MAX_IDS} ids per request`)
    .default([])
    .openapi({ description: `${what} ids (at most ${BATCH_GET_MAX_IDS}; repeats are read once)` });

export const MessagesBatchBody = z.looseObject({ message_ids: ids('message') }).openapi('BatchGetMessagesRequest');
export const TranscriptBatchBody = z.looseObject({ entry_ids: ids('transcript entry (`hst_<seq>`)') }).openapi('BatchGetTranscriptEntriesRequest');
export const BriefsBatchBody = z.looseObject({ brief_ids: ids('brief') }).openapi('BatchGetBriefsRequest');

const Record_ = z.record(z.string(), z.unknown());

export const MessagesBatchResponse = z
  .object({
    messages: z.array(Record_).openapi({ description: 'the message records (as the queue keeps them) with `id` = message_id' }),
    missing_message_ids: z.array(z.string()).openapi({ description: 'unknown ids and ids of another agent\'s messages' }),
  })
  .openapi('BatchGetMessagesResponse');

export const TranscriptBatchResponse = z
  .object({
    entries: z.array(
      z.object({
        id: z.string(),
        agent_id: z.string(),
        seq: z.number().int(),
        role: z.enum(['user', 'assistant', 'tool']),
        turn_id: z.string().nullable(),
        message_id: z.string().nullable(),
        created_at: z.string(),
        content: z.string(),
        data: z.object({ text: z.string() }),
      }),
    ),
    missing_entry_ids: z.array(z.string()),
  })
  .openapi('BatchGetTranscriptEntriesResponse');

export const BriefsBatchResponse = z
  .object({
    briefs: z.array(Record_).openapi({ description: 'the brief records with `id` = brief_id' }),
    missing_brief_ids: z.array(z.string()),
  })
  .openapi('BatchGetBriefsResponse');

const EventWindow = z.object({ event_head_seq: z.number().int(), oldest_retained_seq: z.number().int().nullable() });
const LatestBrief = z
  .object({
    brief_id: z.string(),
    created_at: z.string(),
    created_event_seq: z.number().int().nullable().openapi({ description: 'the brief_created event, null when no retained event links it' }),
    preview: z.string().openapi({ description: 'at most 512 bytes of the brief text' }),
  })
  .nullable();
const identityFields = {
  contract_version: z.literal(1),
  runtime_id: z.string().openapi({ description: 'stable public identity of this installation (its home directory)' }),
  visibility_scope_id: z.string(),
  event_log_epoch: z.string().openapi({ description: 'fixed for the home directory: svc never resets its event logs as a whole' }),
};

export const ProjectionSnapshot = z
  .object({
    ...identityFields,
    agent_id: z.string(),
    snapshot_through_seq: z.number().int(),
    event_head_seq: z.number().int(),
    oldest_retained_seq: z.number().int().nullable(),
    projection: z.object({
      agent: AgentListEntry,
      conversation: z.object({ latest_message_id: z.string().nullable(), latest_transcript_entry_id: z.string().nullable() }),
      current_work_item: z
        .object({ work_item_id: z.string(), state: z.string(), plan_status: z.string(), revision: z.number().int(), updated_at: z.string() })
        .nullable(),
      hydration_references: z.array(z.object({ record_kind: z.string(), record_id: z.string() })),
      hydration_tombstones: z.array(z.object({ record_kind: z.string(), record_id: z.string() })),
      latest_brief: LatestBrief,
    }),
  })
  .openapi('AgentProjectionSnapshot');

export const RosterSnapshot = z
  .object({
    ...identityFields,
    agents: z.array(z.object({ agent: AgentListEntry, event_window: EventWindow, latest_brief: LatestBrief })),
  })
  .openapi('AgentRosterSnapshot');
