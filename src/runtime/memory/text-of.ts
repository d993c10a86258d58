/**
 * What the memory index holds of an event: the text a person reads in it, in one table (TEXT_OF),
 * the ids it carries and the trust of its source. Every other kind of event holds no such text
 * (a turn's start, a status change, a companion event mirroring one of these) and is not indexed.
 */
import { bodyText, type MessageBody } from '../agents/index.js';

type Payload = Record<string, unknown>;

/** The kinds whose payload holds text worth finding, and where it is. */
const TEXT_OF: Readonly<Record<string, (p: Payload) => string>> = {
  message_enqueued: (p) => (isBody(p.body) ? bodyText(p.body) : ''),
  // The final reply of every turn is a result brief; failures and acknowledgements are briefs too.
  brief_created: (p) => str(p.text),
  tool_result: (p) => str(p.content),
  task_create_requested: (p) => [str(p.summary), str(p.cmd)].filter(Boolean).join('\n'),
  task_status_changed: (p) => str(p.result_summary),
  work_item_created: (p) => str(p.objective),
  work_item_completed: (p) => str(p.result_summary ?? p.report_text),
  // The summary that stands in the prompt for the turns a compaction folded away.
  context_compacted: (p) => str(p.summary),
};

/** The event kinds the index holds, in the order TEXT_OF lists them. */
export const MEMORY_KINDS: readonly string[] = Object.keys(TEXT_OF);

export function isMemoryKind(kind: string): boolean {
  return Object.prototype.hasOwnProperty.call(TEXT_OF, kind);
}

/** The text of an event of an indexed kind ('' for any other kind, or an event without text). */
export function textOf(kind: string, payload: Payload): string {
  return isMemoryKind(kind) ? TEXT_OF[kind]!(payload) : '';
}

/** The ids an event carries (null where it carries none). */
export function idsOf(payload: Payload) {
  return { message_id: id(payload.message_id), turn_id: id(payload.turn_id), task_id: id(payload.task_id), work_item_id: id(payload.work_item_id) };
}

/** A message's provenance as its event carries it: its trust and authority (null for other kinds). */
export function provenanceOf(payload: Payload): { trust: string | null; authority: string | null } {
  const p = payload.provenance;
  if (!p || typeof p !== 'object') return { trust: null, authority: null };
  const { trust, authority_class } = p as Payload;
  return { trust: id(trust), authority: id(authority_class) };
}

function isBody(v: unknown): v is MessageBody {
  if (!v || typeof v !== 'object') return false;
  const type = (v as Payload).type;
  return type === 'text' || type === 'json' || type === 'brief';
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function id(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
