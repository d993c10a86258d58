/**
 * Operator transport bindings and operator ingress (spec "Control plane": operator binding
 * fields, "Operator ingress rules"; docs/control-plane-api.md#ingress-and-provenance).
 *
 * A binding ties a remote operator (an actor on a transport such as `remote_operator`, optionally
 * through a provider) to an agent. Operator ingress admits a message only through an active
 * binding of the target agent, from the binding's actor, and from its provider when one is named;
 * the message is a `trusted_operator` `operator_prompt` at `interject` priority.
 *
 * The delivery credential (`delivery_auth`) is needed in clear to deliver replies, so it cannot
 * be hashed: it is kept out of the database, in the secret store (src/store/secrets.ts), and the
 * row holds only its reference. No response, event or log line carries it (ARCHITECTURE.md
 * principle 7): every view goes through `redact`.
 */
import type Database from 'better-sqlite3';
import { isoAt, errors, deriveProvenance } from '../../core/index.js';
import type { SecretStore } from '../../store/index.js';
import { maskUrl } from '../../telemetry/index.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';

export const REDACTED = '[redacted]';

export type BindingStatus = 'active' | 'inactive';

/** The one stored credential shape; both documented spellings normalise to it. */
export interface DeliveryAuth {
  kind: 'bearer';
  bearer_token: string;
}

export interface Binding {
  binding_id: string;
  agent_id: string;
  transport: string;
  operator_actor_id: string;
  default_route_id: string | null;
  delivery_callback_url: string | null;
  delivery_auth: DeliveryAuth | null;
  capabilities: Record<string, unknown>;
  provider: string | null;
  provider_identity_ref: string | null;
  metadata: Record<string, unknown>;
  status: BindingStatus;
  created_at: string;
  updated_at: string;
}

/** What responses and events show: the credential replaced, its presence flagged. */
export interface BindingView extends Omit<Binding, 'delivery_auth'> {
  delivery_auth: { kind: 'bearer'; bearer_token: typeof REDACTED } | null;
  has_credential: boolean;
}

/** Upsert input, already normalised by the route schema (transport underscores, delivery_auth). */
export interface BindingInput {
  binding_id?: string | undefined;
  transport?: string | undefined;
  operator_actor_id?: string | undefined;
  default_route_id?: string | null | undefined;
  delivery_callback_url?: string | null | undefined;
  delivery_auth?: DeliveryAuth | null | undefined;
  capabilities?: Record<string, unknown> | undefined;
  provider?: string | null | undefined;
  provider_identity_ref?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
  status?: BindingStatus | undefined;
}

export interface OperatorIngressInput {
  text: string;
  actor_id: string;
  binding_id: string;
  reply_route_id?: string | null | undefined;
  provider?: string | null | undefined;
  correlation_id?: string | undefined;
}

/** What the row's `delivery_auth` column holds: the credential's kind and its secret-store reference. */
interface StoredAuth {
  kind: 'bearer';
  secret_ref: string;
  /** Rows written before the secret store existed; moved out at start. */
  bearer_token?: string;
}

interface BindingRow extends Omit<Binding, 'delivery_auth' | 'capabilities' | 'metadata'> {
  delivery_auth: string | null;
  capabilities: string;
  metadata: string;
}

/** `remote-operator` and `remote_operator` are one transport; the underscore form is stored. */
export function normaliseTransport(transport: string): string {
  return transport.trim().replaceAll('-', '_');
}

const secretRef = (bindingId: string) => `binding/${bindingId}/delivery_auth`;

export class BindingService implements ResourceService {
  private readonly stmt;

  constructor(private readonly deps: RuntimeDeps & { secrets: SecretStore }) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      get: db.prepare('SELECT * FROM operator_bindings WHERE binding_id = ?'),
      list: db.prepare('SELECT * FROM operator_bindings WHERE agent_id = ? ORDER BY created_at, binding_id'),
      upsert: db.prepare(
        `INSERT INTO operator_bindings (binding_id, agent_id, transport, operator_actor_id, default_route_id, delivery_callback_url,
           delivery_auth, capabilities, provider, provider_identity_ref, metadata, status, created_at, updated_at)
         VALUES (@binding_id, @agent_id, @transport, @operator_actor_id, @default_route_id, @delivery_callback_url,
           @delivery_auth, @capabilities, @provider, @provider_identity_ref, @metadata, @status, @created_at, @updated_at)
         ON CONFLICT(binding_id) DO UPDATE SET transport = excluded.transport, operator_actor_id = excluded.operator_actor_id,
           default_route_id = excluded.default_route_id, delivery_callback_url = excluded.delivery_callback_url,
           delivery_auth = excluded.delivery_auth, capabilities = excluded.capabilities, provider = excluded.provider,
           provider_identity_ref = excluded.provider_identity_ref, metadata = excluded.metadata, status = excluded.status,
           updated_at = excluded.updated_at`,
      ),
      purge: db.prepare('DELETE FROM operator_bindings WHERE agent_id = ?'),
      withAuth: db.prepare('SELECT binding_id, delivery_auth FROM operator_bindings WHERE delivery_auth IS NOT NULL'),
      setAuth: db.prepare('UPDATE operator_bindings SET delivery_auth = ? WHERE binding_id = ?'),
    };
  }

  /** Credentials stored in rows by an older svc move to the secret store. */
  start(): void {
    this.deps.store.tx(() => {
      for (const row of this.stmt.withAuth.all() as Array<{ binding_id: string; delivery_auth: string }>) {
        const stored = JSON.parse(row.delivery_auth) as StoredAuth;
        if (stored.bearer_token === undefined) continue;
        this.deps.secrets.put(secretRef(row.binding_id), stored.bearer_token);
        this.stmt.setAuth.run(JSON.stringify({ kind: 'bearer', secret_ref: secretRef(row.binding_id) }), row.binding_id);
      }
    });
  }

  /**
   * Create or update a binding (by `binding_id`; a `bnd_` id is generated when absent). An update
   * merges: fields the body names replace the stored ones, the others stay. A new binding needs
   * `transport` and `operator_actor_id`. A binding id of another agent answers 409 binding_conflict.
   */
  upsert(agentId: string, input: BindingInput): { created: boolean; binding: BindingView } {
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const existing = input.binding_id ? this.find(input.binding_id) : null;
      if (existing && existing.agent_id !== agentId) throw errors.bindingConflict(existing.binding_id);
      const now = isoAt(this.deps.clock.now());
      const transport = input.transport !== undefined ? normaliseTransport(input.transport) : existing?.transport;
      const actor = input.operator_actor_id ?? existing?.operator_actor_id;
      const missing = [!transport && 'transport', !actor && 'operator_actor_id'].filter(Boolean) as string[];
      if (missing.length > 0) {
        throw errors.invalidRequest(missing.map((f) => ({ path: `body.${f}`, message: `${f} is required for a new binding` })));
      }
      const pick = <K extends keyof BindingInput & keyof Binding>(k: K, dflt: Binding[K]): Binding[K] =>
        (input[k] !== undefined ? input[k] : existing ? existing[k] : dflt) as Binding[K];
      const binding: Binding = {
        binding_id: existing?.binding_id ?? input.binding_id ?? this.deps.ids.make('binding'),
        agent_id: agentId,
        transport: transport!,
        operator_actor_id: actor!,
        default_route_id: pick('default_route_id', null),
        delivery_callback_url: pick('delivery_callback_url', null),
        delivery_auth: pick('delivery_auth', null),
        capabilities: pick('capabilities', {}),
        provider: pick('provider', null),
        provider_identity_ref: pick('provider_identity_ref', null),
        metadata: pick('metadata', {}),
        status: pick('status', 'active'),
        created_at: existing?.created_at ?? now,
        updated_at: now,
      };
      const ref = secretRef(binding.binding_id);
      if (binding.delivery_auth) this.deps.secrets.put(ref, binding.delivery_auth.bearer_token);
      else this.deps.secrets.delete(ref);
      this.stmt.upsert.run({
        ...binding,
        delivery_auth: binding.delivery_auth ? JSON.stringify({ kind: binding.delivery_auth.kind, secret_ref: ref } satisfies StoredAuth) : null,
        capabilities: JSON.stringify(binding.capabilities),
        metadata: JSON.stringify(binding.metadata),
      });
      const view = redact(binding);
      this.deps.events.append(agentId, 'operator_binding_upserted', { created: !existing, binding: view });
      return { created: !existing, binding: view };
    });
  }

  list(agentId: string): BindingView[] {
    this.deps.agents.get(agentId);
    return this.rows(agentId).map(redact);
  }

  /** One binding of the agent (redacted); 404 binding_not_found for a missing one or another agent's. */
  get(agentId: string, bindingId: string): BindingView {
    this.deps.agents.get(agentId);
    const binding = this.find(bindingId);
    if (!binding || binding.agent_id !== agentId) throw errors.bindingNotFound(bindingId, { agent_id: agentId });
    return redact(binding);
  }

  /**
   * POST /api/control/agents/:id/operator-ingress. Checked inside the group-committed write, in
   * this order: the agent (404 / 409), the binding exists (404 binding_not_found), then it belongs
   * to the agent, is active, names this actor and, when the caller names a provider, that provider
   * (each 403 binding_mismatch).
   */
  async ingress(agentId: string, input: OperatorIngressInput): Promise<{ ok: true; agent_id: string; message_id: string }> {
    if (!input.text.trim()) throw errors.invalidRequest([{ path: 'body.text', message: 'text must not be empty' }]);
    const message = await this.deps.store.write(() => {
      this.deps.agents.assertWritable(agentId);
      const b = this.find(input.binding_id);
      if (!b) throw errors.bindingNotFound(input.binding_id, { agent_id: agentId });
      if (b.agent_id !== agentId) throw errors.bindingMismatch(b.binding_id, 'it is bound to another agent');
      if (b.status !== 'active') throw errors.bindingMismatch(b.binding_id, 'the binding is inactive');
      if (input.actor_id !== b.operator_actor_id) throw errors.bindingMismatch(b.binding_id, 'actor_id is not the binding\'s operator actor');
      const provider = input.provider ?? null;
      if (provider !== null && provider !== b.provider) throw errors.bindingMismatch(b.binding_id, 'provider is not the binding\'s provider');
      const provenance = deriveProvenance('operator_ingress', {
        kind: 'operator',
        actor_id: b.operator_actor_id,
        binding_id: b.binding_id,
        transport: b.transport,
        provider: b.provider,
      });
      return this.deps.ingress.enqueueNow(agentId, provenance, { type: 'text', text: input.text }, {
        correlation_id: input.correlation_id,
        // Remote-operator transport metadata: where and how a reply goes back (never the credential).
        metadata: {
          transport: b.transport,
          binding_id: b.binding_id,
          operator_actor_id: b.operator_actor_id,
          reply_route_id: input.reply_route_id ?? b.default_route_id,
          provider: b.provider,
          provider_identity_ref: b.provider_identity_ref,
        },
      });
    });
    return { ok: true, agent_id: agentId, message_id: message.message_id };
  }

  /**
   * Where and how replies of a binding are delivered, credential in clear: for the brief delivery
   * worker only (it never leaves the process except in the Authorization header). Null when the
   * binding does not exist.
   */
  deliveryTarget(bindingId: string): Pick<Binding, 'binding_id' | 'agent_id' | 'status' | 'delivery_callback_url' | 'delivery_auth'> | null {
    const b = this.find(bindingId);
    return b && { binding_id: b.binding_id, agent_id: b.agent_id, status: b.status, delivery_callback_url: b.delivery_callback_url, delivery_auth: b.delivery_auth };
  }

  /** The agent's bindings (redacted). Not on the state page today; kept for the interface. */
  stateFor(agentId: string): unknown[] {
    return this.rows(agentId).map(redact);
  }

  /** The agent is being deleted: its bindings go with it (a new incarnation inherits none). */
  stopAgent(agentId: string): void {
    this.deps.store.tx(() => {
      for (const b of this.rows(agentId)) this.deps.secrets.delete(secretRef(b.binding_id));
      this.stmt.purge.run(agentId);
    });
  }

  private find(bindingId: string): Binding | null {
    const row = this.stmt.get.get(bindingId) as BindingRow | undefined;
    return row ? this.fromRow(row) : null;
  }

  private rows(agentId: string): Binding[] {
    return (this.stmt.list.all(agentId) as BindingRow[]).map((r) => this.fromRow(r));
  }

  private fromRow(row: BindingRow): Binding {
    return {
      ...row,
      delivery_auth: row.delivery_auth ? this.credential(JSON.parse(row.delivery_auth) as StoredAuth) : null,
      capabilities: JSON.parse(row.capabilities),
      metadata: JSON.parse(row.metadata),
    };
  }

  private credential(stored: StoredAuth): DeliveryAuth | null {
    const token = stored.bearer_token ?? this.deps.secrets.get(stored.secret_ref);
    return token === null ? null : { kind: stored.kind, bearer_token: token };
  }
}

/**
 * The only way a binding leaves this service. The credential becomes `[redacted]`; a callback
 * URL of this very daemon kind (`/api/callbacks/...`) has its capability token masked too.
 */
export function redact(b: Binding): BindingView {
  return {
    ...b,
    delivery_callback_url: b.delivery_callback_url === null ? null : maskUrl(b.delivery_callback_url),
    delivery_auth: b.delivery_auth ? { kind: b.delivery_auth.kind, bearer_token: REDACTED } : null,
    has_credential: b.delivery_auth !== null,
  };
}
