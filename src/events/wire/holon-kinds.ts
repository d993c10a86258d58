/**
 * The real system's (Holon's) event vocabulary beside svc's, in one place
 * (docs/holon-gui.md#event-kinds). Holon's web GUI routes every timeline row on the event `type`
 * alone (turn rows, task cards and tool cards come from Holon's kind names) and reads a few payload
 * fields that svc names differently. So:
 *
 * - where svc's kind already is Holon's (message_enqueued, brief_created, work_item_*), the payload
 *   gets Holon's field names beside svc's (`payloadFields`);
 * - where svc's kind differs (turn_entry, task_create_requested, task_status_changed,
 *   tool_result), the spec's kind stays and Holon's kind follows it as a companion event in the
 *   same transaction (`companions`), with `companion_of` naming the event it mirrors. Companions
 *   are ordinary durable events: they get the next event_seq and appear on pages and streams.
 *
 * Nothing here is read back by svc itself.
 */

export interface Companion {
  type: string;
  payload: Record<string, unknown>;
}

/** Holon's kinds and the svc kind each one mirrors. */
export const COMPANION_KINDS = {
  turn_started: 'turn_entry',
  task_created: 'task_create_requested',
  task_status_updated: 'task_status_changed',
  task_result_received: 'task_status_changed',
  tool_executed: 'tool_result',
  tool_execution_failed: 'tool_result',
} as const;

const TERMINAL_TASK = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

/** Holon's message kinds are CamelCase (`operator_prompt` -> `OperatorPrompt`). */
function camel(kind: unknown): string | undefined {
  if (typeof kind !== 'string' || kind === '') return undefined;
  return kind
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function origin(payload: Record<string, unknown>): unknown {
  const provenance = payload.provenance as Record<string, unknown> | undefined;
  return provenance?.origin;
}

/** Holon's payload field names for a kind both systems share (added, never replacing svc's). */
export function payloadFields(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'message_enqueued':
      return { origin: origin(payload) ?? null };
    case 'brief_created': {
      const brief = payload.brief as Record<string, unknown> | undefined;
      return { kind: payload.brief_kind, created_at: brief?.created_at ?? null };
    }
    default:
      return {};
  }
}

/** Holon's companion events of an svc event (none for most kinds). */
export function companions(type: string, payload: Record<string, unknown>, eventSeq: number): Companion[] {
  const of = { companion_of: { type, event_seq: eventSeq } };
  switch (type) {
    case 'turn_entry':
      return [
        {
          type: 'turn_started',
          payload: {
            turn_id: payload.turn_id,
            run_id: payload.turn_id,
            message_id: payload.message_id,
            message_kind: camel(payload.kind) ?? null,
            priority: payload.priority,
            model_ref: payload.model_ref,
            ...of,
          },
        },
      ];
    case 'task_create_requested':
      return [
        {
          type: 'task_created',
          payload: { task_id: payload.task_id, kind: payload.kind, task_status: payload.status, status: payload.status, summary: payload.summary ?? null, ...of },
        },
      ];
    case 'task_status_changed': {
      const status = payload.status as string;
      return [
        {
          type: TERMINAL_TASK.has(status) ? 'task_result_received' : 'task_status_updated',
          payload: {
            task_id: payload.task_id,
            kind: payload.kind,
            task_status: status,
            status,
            exit_status: payload.exit_status ?? null,
            summary: payload.summary ?? null,
            output_summary_preview: payload.result_summary ?? null,
            ...of,
          },
        },
      ];
    }
    case 'tool_result':
      return [
        {
          // Holon's GUI marks a failed call by its kind, and opens the record by tool_execution_id.
          type: payload.ok === false ? 'tool_execution_failed' : 'tool_executed',
          payload: {
            tool_execution_id: payload.tool_execution_id ?? payload.tool_call_id,
            tool_call_id: payload.tool_call_id,
            tool_name: payload.name,
            turn_id: payload.turn_id,
            round: payload.round,
            arguments: payload.arguments ?? null,
            output: payload.content,
            ...(payload.ok === false ? { error: payload.content } : {}),
            ...of,
          },
        },
      ];
    default:
      return [];
  }
}
