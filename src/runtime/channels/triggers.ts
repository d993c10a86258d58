/**
 * External triggers and callback capability tokens (docs/control-plane-api.md#external-triggers;
 * spec "Callbacks").
 *
 * A trigger is a capability: whoever holds its token may post to
 * `/api/callbacks/<delivery_mode>/<token>`. The token (32 random bytes, base64url) is returned
 * once, at creation; only its sha256 is stored (ARCHITECTURE.md principle 7), so a lookup hashes
 * the presented token and finds the row by hash. No event, error or log line carries a token.
 *
 * `enqueue` triggers admit the body as a `callback_event` (integration signal); `wake` triggers
 * enqueue a runtime-owned inspection tick whose payload is untrusted evidence. The caller never
 * chooses priority: the surface rules in core/provenance.ts decide it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { isoAt, errors, parseJsonBody, deriveProvenance } from '../../core/index.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';
import type { MessageBody } from '../agents/index.js';

export const DELIVERY_MODES = ['enqueue', 'wake'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export type TriggerStatus = 'active' | 'revoked';

/** Bytes of randomness in a callback token (spec: capability token in the path). */
export const TOKEN_BYTES = 32;
/** Body limit of the callback routes (spec Limits: 256 KB). */
export const CALLBACK_BODY_LIMIT = 256 * 1024;

export interface TriggerRecord {
  trigger_id: string;
  agent_id: string;
  delivery_mode: DeliveryMode;
  summary: string | null;
  status: TriggerStatus;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** The creation answer: the only time the token is ever shown. */
export interface CreatedTrigger extends TriggerRecord {
  token: string;
  callback_path: string;
}

export interface CallbackRequest {
  contentType: string | undefined;
  body: Buffer | undefined;
}

export interface CallbackAdmitted {
  ok: true;
  agent_id: string;
  message_id: string;
}

/** A callback body as the runtime reads it. */
export type DecodedBody =
  | { kind: 'empty'; content_type: string | null }
  | { kind: 'json'; content_type: string; value: unknown }
  | { kind: 'text'; content_type: string; text: string }
  | { kind: 'binary'; content_type: string; body_base64: string };

interface TriggerRow extends TriggerRecord {
  token_hash: string;
  use_count: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function callbackPath(mode: DeliveryMode, token: string): string {
  return `/api/callbacks/${mode}/${token}`;
}

export class TriggerService implements ResourceService {
  private readonly stmt;

  constructor(private readonly deps: RuntimeDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO external_triggers (trigger_id, agent_id, delivery_mode, summary, token_hash, status, created_at)
         VALUES (?, ?, ?, ?, ?, 'active', ?)`,
      ),
      byId: db.prepare('SELECT * FROM external_triggers WHERE trigger_id = ?'),
      byHash: db.prepare('SELECT * FROM external_triggers WHERE token_hash = ?'),
      list: db.prepare('SELECT * FROM external_triggers WHERE agent_id = ? ORDER BY created_at, trigger_id'),
      revoke: db.prepare("UPDATE external_triggers SET status = 'revoked', revoked_at = ? WHERE trigger_id = ?"),
      touch: db.prepare('UPDATE external_triggers SET last_used_at = ?, use_count = use_count + 1 WHERE trigger_id = ?'),
      purge: db.prepare('DELETE FROM external_triggers WHERE agent_id = ?'),
    };
  }

  /** Issue a trigger; the answer carries the token, which is never shown again. */
  create(agentId: string, input: { delivery_mode: DeliveryMode; summary?: string | null | undefined }): CreatedTrigger {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const summary = input.summary?.trim() || null;
    const record = this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const triggerId = this.deps.ids.make('trigger');
      const now = isoAt(this.deps.clock.now());
      this.stmt.insert.run(triggerId, agentId, input.delivery_mode, summary, hashToken(token), now);
      const created = this.get(triggerId)!;
      this.deps.events.append(agentId, 'external_trigger_created', eventPayload(created));
      return created;
    });
    return { ...record, token, callback_path: callbackPath(record.delivery_mode, token) };
  }

  list(agentId: string): TriggerRecord[] {
    this.deps.agents.get(agentId);
    return this.rows(agentId);
  }

  /** Revoke (idempotent: a revoked trigger answers unchanged, without a second event). */
  revoke(agentId: string, triggerId: string): TriggerRecord {
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const trigger = this.get(triggerId);
      if (!trigger || trigger.agent_id !== agentId) throw errors.triggerIdNotFound(triggerId, { agent_id: agentId });
      if (trigger.status === 'revoked') return trigger;
      this.stmt.revoke.run(isoAt(this.deps.clock.now()), triggerId);
      const revoked = this.get(triggerId)!;
      this.deps.events.append(agentId, 'external_trigger_revoked', eventPayload(revoked));
      return revoked;
    });
  }

  /** POST /api/callbacks/enqueue/:token: the body becomes a callback_event. */
  async callbackEnqueue(token: string, req: CallbackRequest): Promise<CallbackAdmitted> {
    const trigger = this.resolve(token, 'enqueue');
    const decoded = decodeCallbackBody(req.contentType, req.body);
    const provenance = deriveProvenance('callback_enqueue', { kind: 'callback', descriptor_id: trigger.trigger_id }, { kind: 'callback_event' });
    const message = await this.deps.store.write(() => {
      // Checked again inside the transaction, where the answer is final (a revoke may have won).
      const current = this.resolve(token, 'enqueue');
      this.stmt.touch.run(isoAt(this.deps.clock.now()), current.trigger_id);
      return this.deps.ingress.enqueueNow(current.agent_id, provenance, enqueueBody(decoded), {
        metadata: { trigger_id: current.trigger_id, delivery_mode: 'enqueue', content_type: decoded.content_type },
      });
    });
    return { ok: true, agent_id: message.agent_id, message_id: message.message_id };
  }

  /** POST /api/callbacks/wake/:token: a runtime-owned inspection tick; the payload is evidence only. */
  async callbackWake(token: string, req: CallbackRequest): Promise<CallbackAdmitted & { disposition: 'woken' }> {
    const trigger = this.resolve(token, 'wake');
    const decoded = decodeCallbackBody(req.contentType, req.body);
    const provenance = deriveProvenance('callback_wake', { kind: 'callback', descriptor_id: trigger.trigger_id }, { kind: 'system_tick' });
    const message = await this.deps.store.write(() => {
      const current = this.resolve(token, 'wake');
      this.stmt.touch.run(isoAt(this.deps.clock.now()), current.trigger_id);
      const body: MessageBody = {
        type: 'json',
        value: { reason: 'callback_wake', trigger_id: current.trigger_id, evidence: wakeEvidence(decoded) },
      };
      return this.deps.ingress.enqueueNow(current.agent_id, provenance, body, {
        metadata: { trigger_id: current.trigger_id, delivery_mode: 'wake', content_type: decoded.content_type },
      });
    });
    return { ok: true, agent_id: message.agent_id, message_id: message.message_id, disposition: 'woken' };
  }

  /** The agent's triggers for GET /api/agents/:id/state (never a token). */
  stateFor(agentId: string): unknown[] {
    return this.rows(agentId);
  }

  /** The agent is being deleted: its tokens stop working, and a new incarnation inherits none. */
  stopAgent(agentId: string): void {
    this.deps.store.tx(() => this.stmt.purge.run(agentId));
  }

  /** The active trigger a token names, for a route of `mode`; 404 / 403 otherwise. */
  private resolve(token: string, mode: DeliveryMode): TriggerRecord {
    const row = this.stmt.byHash.get(hashToken(token)) as TriggerRow | undefined;
    if (!row || row.status !== 'active') throw errors.triggerNotFound();
    if (row.delivery_mode !== mode) throw errors.deliveryModeMismatch(mode, row.delivery_mode);
    return view(row);
  }

  private get(triggerId: string): TriggerRecord | null {
    const row = this.stmt.byId.get(triggerId) as TriggerRow | undefined;
    return row ? view(row) : null;
  }

  private rows(agentId: string): TriggerRecord[] {
    return (this.stmt.list.all(agentId) as TriggerRow[]).map(view);
  }
}

function view(row: TriggerRow): TriggerRecord {
  return {
    trigger_id: row.trigger_id,
    agent_id: row.agent_id,
    delivery_mode: row.delivery_mode,
    summary: row.summary,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}

function eventPayload(t: TriggerRecord): Record<string, unknown> {
  return { trigger_id: t.trigger_id, agent_id: t.agent_id, delivery_mode: t.delivery_mode, summary: t.summary, status: t.status };
}

/**
 * Read a callback body by its content type: JSON (`application/json`, `*+json`) is parsed
 * (400 invalid_json when it is not JSON), `text/*` is decoded in its charset (UTF-8 by default),
 * anything else is kept as base64. A body without a content type is `application/octet-stream`
 * (RFC 9110 8.3); an empty body is `empty` whatever its type.
 */
export function decodeCallbackBody(contentType: string | undefined, body: Buffer | undefined): DecodedBody {
  const media = contentType?.split(';')[0]!.trim().toLowerCase() || null;
  if (!body || body.length === 0) return { kind: 'empty', content_type: media };
  const type = media ?? 'application/octet-stream';
  if (type === 'application/json' || type.endsWith('+json')) {
    return { kind: 'json', content_type: type, value: parseJsonBody(body.toString('utf8')) };
  }
  if (type.startsWith('text/')) return { kind: 'text', content_type: type, text: decodeText(body, charsetOf(contentType!)) };
  return { kind: 'binary', content_type: type, body_base64: body.toString('base64') };
}

function charsetOf(contentType: string): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m ? m[1]!.toLowerCase() : 'utf-8';
}

function decodeText(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The queued body of a callback_event (docs/control-plane-api.md#external-triggers). */
export function enqueueBody(d: DecodedBody): MessageBody {
  switch (d.kind) {
    case 'empty':
      return { type: 'json', value: {} };
    case 'json':
      return { type: 'json', value: isObject(d.value) ? d.value : { payload: d.value } };
    case 'text':
      return { type: 'text', text: d.text };
    case 'binary':
      return { type: 'json', value: { content_type: d.content_type, body_base64: d.body_base64 } };
  }
}

/** What a wake tick carries of the caller's payload: evidence, marked untrusted. */
export function wakeEvidence(d: DecodedBody): Record<string, unknown> {
  const base = { trust: 'untrusted_external', content_type: d.content_type };
  switch (d.kind) {
    case 'empty':
      return { ...base, value: null };
    case 'json':
      return { ...base, value: d.value };
    case 'text':
      return { ...base, text: d.text };
    case 'binary':
      return { ...base, value: { body_base64: d.body_base64 } };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
