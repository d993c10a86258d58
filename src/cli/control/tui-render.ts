/**
 * How `svc tui` shows an agent's events: one line per event a person follows (messages in,
 * replies, tool calls, tasks, briefs, errors, run control), `HH:MM:SS TAG text`, cut to the
 * terminal width; bookkeeping events (turn_entry, model_round, message_completed, …) print nothing.
 */
import type { EventEnvelope } from '../../events/index.js';
import { oneLine, type Row } from '../output.js';

/** Width of the tag column. */
const TAG = 8;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** The text of a message body: its text, a brief's title and text, or compact JSON. */
function bodyText(body: unknown): string {
  if (!body || typeof body !== 'object') return str(body);
  const b = body as Row;
  if (b.type === 'text') return str(b.text);
  if (b.type === 'brief') return `${str(b.title)}: ${str(b.text)}`;
  return str(b.value ?? b);
}

/** Where a message came from, for messages that are not operator prompts. */
function originLabel(payload: Row): string {
  const origin = ((payload.provenance as Row | undefined)?.origin ?? {}) as Row;
  const detail = origin.subsystem ?? origin.channel_id ?? origin.source ?? origin.task_id ?? origin.timer_id;
  return `${str(payload.kind)}${origin.kind ? ` from ${str(origin.kind)}${detail ? `/${str(detail)}` : ''}` : ''}`;
}

/** [tag, text] for an event, or null when it is not shown. */
export function describe(e: EventEnvelope): [string, string] | null {
  const p = e.payload ?? {};
  switch (e.type) {
    case 'message_enqueued':
      if (p.kind === 'operator_prompt') return ['you', bodyText(p.body)];
      return ['msg', `${originLabel(p)}: ${bodyText(p.body)}`];
    case 'brief_created':
      // The result brief is the turn's reply; a failure brief is shown as the turn_failed error.
      if (p.brief_kind === 'result') return ['reply', str(p.text)];
      if (p.brief_kind === 'failure') return null;
      return ['brief', `${str(p.brief_kind)}: ${str(p.text)}`];
    case 'tool_called':
      return ['tool', `${str(p.name)} ${str(p.arguments)}`];
    case 'tool_result':
      return p.ok === false ? ['tool', `${str(p.name)} failed: ${str(p.content)}`] : null;
    case 'task_create_requested':
      return ['task', `${str(p.task_id)} ${str(p.status)} ${str(p.summary) || str(p.cmd)}`];
    case 'task_status_changed': {
      const exit = p.exit_status !== null && p.exit_status !== undefined ? ` (exit ${str(p.exit_status)})` : '';
      return ['task', `${str(p.task_id)} ${str(p.from)} -> ${str(p.to)}${exit}${p.result_summary ? ` ${str(p.result_summary)}` : ''}`];
    }
    case 'turn_failed': {
      const f = (p.failure_artifact ?? {}) as Row;
      return ['error', `turn failed: ${f.summary ? `${str(f.category)}/${str(f.kind)}: ${str(f.summary)}` : str(p.reason)}`];
    }
    case 'message_failed':
      return p.turn_id ? null : ['error', `message ${str(p.message_id)} failed: ${str(p.reason)}`];
    case 'run_aborted':
      return ['error', `run aborted (${str(p.mode)})`];
    case 'brief_delivery_failed':
      return ['error', `brief delivery failed: ${str(p.reason ?? p.error)}`];
    case 'control_applied':
      return ['status', `${str(p.action)}: ${str(p.previous_status)} -> ${str(p.status)}`];
    case 'wake_requested':
      return ['status', `wake (${str(p.source)}: ${str(p.reason)}): ${str(p.disposition)}`];
    default:
      return null;
  }
}

/** `HH:MM:SS` in local time. */
function clock(ts: string): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return '--:--:--';
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * Control characters (C0, DEL, C1) and bidirectional overrides, which would let a message steer
 * the terminal (escape sequences) or disguise what it says. Whitespace is collapsed before this.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text as one safe line of at most `max` characters. */
function safe(text: string, max: number): string {
  return oneLine(text.replace(/\s+/g, ' ').replace(UNSAFE, '?'), max);
}

/** `HH:MM:SS TAG text` in at most `width` characters (the text gets at least 20). */
function format(ts: string, tag: string, text: string, width: number): string {
  const prefix = `${clock(ts)} ${safe(tag, TAG).padEnd(TAG)} `;
  return prefix + safe(text, Math.max(20, width - prefix.length));
}

/** An event as one JSON line (`--raw`), with the characters JSON leaves raw but a terminal obeys escaped. */
export function rawLine(e: EventEnvelope): string {
  return JSON.stringify(e).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A printable line for an event, or null for an event that is not shown. */
export function render(e: EventEnvelope, width: number): string | null {
  const d = describe(e);
  return d ? format(e.ts, d[0], d[1], width) : null;
}

/** A line for what the client itself reports (command results, notes), in the same columns. */
export function note(tag: string, text: string, width: number): string {
  return format(new Date().toISOString(), tag, text, width);
}
