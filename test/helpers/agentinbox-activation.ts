/**
 * A webhook receiver's check written for AgentInbox's activation payload (v1.0.3: `Activation` and
 * `ActivationItem` in its src/model.ts, as its daemon POSTs them), independent of svc's code: what a
 * receiver built against AgentInbox relies on, field by field and type by type. Returns the
 * problems found (none: accepted).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Bodies recorded from AgentInbox's own daemon (test/integration/fixtures/agentinbox-activation.json). */
export const RECORDED: { activationOnly: Json; withItemsEvents: Json; withItemsDirect: Json } = JSON.parse(
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'integration', 'fixtures', 'agentinbox-activation.json'), 'utf8'),
);

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

const isStringArray = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0);
const sortedDistinct = (v: string[]) => v.every((x, i) => i === 0 || v[i - 1]! < x);
const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isObject = (v: unknown) => jsonType(v) === 'object';

/** The problems an AgentInbox receiver would have with `body`; [] when it accepts it. */
export function activationProblems(body: Json): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  if (!isObject(body)) return ['the body is not a JSON object'];
  need(body.kind === 'agentinbox.activation', 'kind is "agentinbox.activation"');
  for (const f of ['activationId', 'agentId', 'inboxId', 'targetId', 'summary']) need(typeof body[f] === 'string' && body[f].length > 0, `${f} is a non-empty string`);
  need(/^act_/.test(body.activationId ?? ''), 'activationId starts with act_');
  need(/^inb_[23456789abcdefghjkmnpqrstvwxyz]{12}$/.test(body.inboxId ?? ''), 'inboxId is inb_ + 12 characters of the canonical alphabet');
  need(body.targetKind === 'webhook' || body.targetKind === 'terminal', 'targetKind is webhook or terminal');
  for (const f of ['subscriptionIds', 'sourceIds']) need(isStringArray(body[f]) && sortedDistinct(body[f]), `${f} is a sorted array of distinct strings`);
  need(body.latestEntryId === null || (typeof body.latestEntryId === 'string' && body.latestEntryId.length > 0), 'latestEntryId is a string or null');
  need(count(body.newEntryCount), 'newEntryCount is a count');
  need(count(body.newItemCount), 'newItemCount is a count');
  need(
    new RegExp(`^${body.newItemCount} new items? for agent ${String(body.agentId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( from .+)?$`).test(body.summary ?? ''),
    'summary reads "<newItemCount> new item(s) for agent <agentId>[ from …]"',
  );
  need(typeof body.createdAt === 'string' && ISO.test(body.createdAt), 'createdAt is an ISO time');
  need(body.deliveredAt === undefined || body.deliveredAt === null || typeof body.deliveredAt === 'string', 'deliveredAt is absent, null or a string');
  if (body.items !== undefined) {
    need(Array.isArray(body.items), 'items is an array');
    for (const [i, item] of (Array.isArray(body.items) ? body.items : []).entries()) {
      for (const f of ['itemId', 'sourceId', 'sourceNativeId', 'eventVariant', 'inboxId', 'occurredAt']) need(typeof item?.[f] === 'string' && item[f].length > 0, `items[${i}].${f} is a non-empty string`);
      need(item?.inboxId === body.inboxId, `items[${i}].inboxId is the activation's`);
      need(ISO.test(item?.occurredAt ?? ''), `items[${i}].occurredAt is an ISO time`);
      need(isObject(item?.metadata), `items[${i}].metadata is an object`);
      need(isObject(item?.rawPayload), `items[${i}].rawPayload is an object`);
      need(item?.deliveryHandle === undefined || item.deliveryHandle === null || isObject(item.deliveryHandle), `items[${i}].deliveryHandle is absent, null or an object`);
    }
  }
  if (body.entries !== undefined) need(Array.isArray(body.entries) && body.entries.every((e: Json) => typeof e?.entryId === 'string'), 'entries is an array of objects with an entryId');
  return problems;
}

/** Fields of a recorded AgentInbox body that `body` lacks or carries with another JSON type (nulls match strings). */
export function shapeDifferences(recorded: Json, body: Json): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(recorded)) {
    if (key === 'entries') continue; // svc's own entries sit here (docs/agentinbox.md#notifications)
    const [want, got] = [jsonType(value), jsonType(body[key])];
    const nullable = (want === 'null' && got === 'string') || (want === 'string' && got === 'null');
    if (want !== got && !nullable) out.push(`${key}: AgentInbox sends ${want}, svc ${got}`);
  }
  if (Array.isArray(recorded.items) && Array.isArray(body.items) && body.items.length > 0) {
    for (const d of shapeDifferences(recorded.items[0], body.items[0])) out.push(`items[0].${d}`);
  }
  return out;
}
