/**
 * Hosts: provider/runtime configuration that sources live on (spec/inbox.md Hosts). A host's
 * `hostType` is the type of every source on it: `local_event` (events appended through the API),
 * `remote_source` (events polled from an ES module) or `github` (svc's GitHub module); see
 * host-types.ts. The config is checked against the type's JSON Schema (400 invalid_request naming
 * the field). Creation is idempotent by `hostType`+`hostKey`: the existing record comes back (its
 * config unchanged). A host's `configRef` is the default `configRef` of the sources created on it
 * (AgentInbox's rule). Records carry AgentInbox's fields: `status` is always `active` and
 * `updatedAt` is `createdAt` (svc's hosts never change after creation).
 */
import { isoAt, type Clock, errors, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { HostType } from '../types.js';
import { checkHostConfig, hostConfigSchema, sourceConfigSchema } from './host-types.js';
import { fieldsOf, STREAM_KINDS, type SchemaField } from './source-kinds.js';

export interface Host {
  hostId: string;
  hostType: HostType;
  hostKey: string;
  configRef: string | null;
  config: Record<string, unknown>;
  status: 'active';
  createdAt: string;
  updatedAt: string;
}

/** AgentInbox's host schema ({hostType, configFields, streamKinds}) with svc's JSON Schemas beside. */
export interface HostSchema {
  hostType: HostType;
  configFields: SchemaField[];
  /** The stream kinds this host type names (svc takes any other name too). */
  streamKinds: string[];
  hostId: string;
  /** JSON Schema of the host's `config`. */
  hostConfigSchema: Record<string, unknown>;
  /** JSON Schema of the `config` of sources on this host. */
  sourceConfigSchema: Record<string, unknown>;
}

interface HostRow {
  host_id: string;
  host_type: HostType;
  host_key: string;
  config_json: string;
  config_ref: string | null;
  created_ms: number;
}

export class HostService {
  private readonly stmts;

  constructor(private readonly deps: { store: Store; clock: Clock; ids: IdGenerator }) {
    const db = deps.store.db;
    this.stmts = {
      byId: db.prepare<[string], HostRow>('SELECT * FROM inbox_hosts WHERE host_id = ?'),
      byKey: db.prepare<[string, string], HostRow>('SELECT * FROM inbox_hosts WHERE host_type = ? AND host_key = ?'),
      all: db.prepare<[], HostRow>('SELECT * FROM inbox_hosts ORDER BY seq'),
      insert: db.prepare(
        'INSERT INTO inbox_hosts (host_id, host_type, host_key, config_json, config_ref, created_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (host_type, host_key) DO NOTHING',
      ),
    };
  }

  /** New → created true; the same hostType+hostKey → the existing host, created false. */
  create(input: { hostType: HostType; hostKey: string; config?: Record<string, unknown>; configRef?: string | null }): { host: Host; created: boolean } {
    checkHostConfig(input.hostType, input.config ?? {});
    return this.deps.store.tx(() => {
      const id = this.deps.ids.make('host');
      const info = this.stmts.insert.run(id, input.hostType, input.hostKey, JSON.stringify(input.config ?? {}), input.configRef ?? null, this.deps.clock.now());
      return { host: toHost(this.stmts.byKey.get(input.hostType, input.hostKey)!), created: info.changes === 1 };
    });
  }

  /**
   * A host another daemon registered (the shared stream catalogue): stored under its id unless a
   * host of the same type and key exists here, which is then the one used. Returns the local id.
   */
  importShared(input: { hostId: string; hostType: HostType; hostKey: string; config: Record<string, unknown>; createdMs: number }): string {
    return this.deps.store.tx(() => {
      this.stmts.insert.run(input.hostId, input.hostType, input.hostKey, JSON.stringify(input.config), null, input.createdMs);
      return this.stmts.byKey.get(input.hostType, input.hostKey)!.host_id;
    });
  }

  /** Throws 404 host_not_found. */
  get(hostId: string): Host {
    const row = this.stmts.byId.get(hostId);
    if (!row) throw errors.hostNotFound(hostId, { hostId });
    return toHost(row);
  }

  list(): Host[] {
    return this.stmts.all.all().map(toHost);
  }

  schema(hostId: string): HostSchema {
    const { hostType } = this.get(hostId);
    const hostSchema = hostConfigSchema(hostType);
    return { hostType, configFields: fieldsOf(hostSchema), streamKinds: STREAM_KINDS[hostType], hostId, hostConfigSchema: hostSchema, sourceConfigSchema: sourceConfigSchema(hostType) };
  }
}

function toHost(r: HostRow): Host {
  const at = isoAt(r.created_ms);
  return {
    hostId: r.host_id,
    hostType: r.host_type,
    hostKey: r.host_key,
    configRef: r.config_ref,
    config: JSON.parse(r.config_json) as Record<string, unknown>,
    status: 'active',
    createdAt: at,
    updatedAt: at,
  };
}
