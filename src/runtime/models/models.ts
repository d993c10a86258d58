/**
 * The models catalog (spec Discovery `GET /api/models`, `POST /api/models/refresh`) and per-agent
 * model overrides (`POST /api/control/agents/:id/model`, `/model/clear`;
 * docs/configuration.md#models-and-discovery, docs/control-plane-api.md#agents).
 *
 * The catalog is `builtin/echo`, each configured provider's static `models`, and the models its
 * last successful discovery listed. Discovery results live in SQLite (`model_discovery`), so the
 * cache survives restarts and listing never contacts a provider. `refresh` runs discovery, in
 * parallel, for each provider whose cache is missing, failed, or older than DISCOVERY_TTL_MS;
 * each discovery is one attempt with its own timeout, and a failing provider only marks its own
 * models unavailable.
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../config/index.js';
import { isoAt, type Clock, errors } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from '../agents/index.js';
import { ECHO_MODELS, ProviderError } from '../providers/index.js';
import { BUILTIN_PROVIDER, splitModelRef, type ProviderRegistry } from './registry.js';

/** A successful discovery is reused this long before `refresh` asks the provider again. */
export const DISCOVERY_TTL_MS = 10 * 60_000;
/** One provider's discovery (GET {base_url}/models) gives up after this long. */
export const DISCOVERY_TIMEOUT_MS = 10_000;

export type ModelSource = 'builtin' | 'config' | 'discovered';

export interface CatalogModel {
  id: string;
  /** The same id under the real system's name (docs/holon-gui.md). */
  model: string;
  display_name: string;
  provider: string;
  kind: string;
  source: ModelSource;
}

export interface DiscoveryError {
  provider: string;
  kind: string;
  message: string;
  status: number | null;
}

export interface CatalogProvider {
  name: string;
  kind: string;
  base_url: string;
  /** Whether models of this provider are offered: false when its last discovery failed. */
  available: boolean;
  discovered_at: string | null;
  last_attempt_at: string | null;
  last_error: { kind: string; message: string } | null;
  api_key: 'not_required' | 'set' | 'missing';
}

export interface Catalog {
  available_models: CatalogModel[];
  model_availability: Record<string, boolean>;
  default_model: string;
  providers: CatalogProvider[];
}

export interface RefreshResult extends Catalog {
  /** Providers asked this time (the others had a fresh cache). */
  refreshed: string[];
  errors: DiscoveryError[];
}

export interface OverrideResult {
  agent_id: string;
  model: string;
  model_override: string | null;
}

export interface ModelCatalogDeps {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  store: Store;
  events: EventLog;
  agents: AgentService;
  providers: ProviderRegistry;
  ttlMs?: number;
  discoveryTimeoutMs?: number;
}

interface DiscoveryRow {
  provider: string;
  kind: string;
  base_url: string;
  models: string;
  discovered_at: number | null;
  attempted_at: number;
  error_kind: string | null;
  error_message: string | null;
}

/** The stored row was written for the endpoint being upserted (else its models are another server's). */
const SAME_ENDPOINT = 'model_discovery.base_url = excluded.base_url AND model_discovery.kind = excluded.kind';

export class ModelCatalog {
  private readonly stmt;
  private readonly inflight = new Map<string, Promise<DiscoveryError | null>>();
  private readonly shutdown = new AbortController();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly deps: ModelCatalogDeps) {
    this.ttlMs = deps.ttlMs ?? DISCOVERY_TTL_MS;
    this.timeoutMs = deps.discoveryTimeoutMs ?? DISCOVERY_TIMEOUT_MS;
    const db = deps.store.db;
    this.stmt = {
      all: db.prepare('SELECT * FROM model_discovery'),
      success: db.prepare(
        `INSERT INTO model_discovery (provider, kind, base_url, models, discovered_at, attempted_at, error_kind, error_message)
         VALUES (@provider, @kind, @base_url, @models, @at, @at, NULL, NULL)
         ON CONFLICT(provider) DO UPDATE SET kind = excluded.kind, base_url = excluded.base_url, models = excluded.models,
           discovered_at = excluded.discovered_at, attempted_at = excluded.attempted_at, error_kind = NULL, error_message = NULL`,
      ),
      // A failure keeps the models of the last success (shown, but marked unavailable).
      failure: db.prepare(
        `INSERT INTO model_discovery (provider, kind, base_url, models, discovered_at, attempted_at, error_kind, error_message)
         VALUES (@provider, @kind, @base_url, '[]', NULL, @at, @error_kind, @error_message)
         ON CONFLICT(provider) DO UPDATE SET
           models = CASE WHEN ${SAME_ENDPOINT} THEN model_discovery.models ELSE '[]' END,
           discovered_at = CASE WHEN ${SAME_ENDPOINT} THEN model_discovery.discovered_at ELSE NULL END,
           kind = excluded.kind, base_url = excluded.base_url,
           attempted_at = excluded.attempted_at, error_kind = excluded.error_kind, error_message = excluded.error_message`,
      ),
    };
  }

  /** The cached catalog; never contacts a provider. */
  list(): Catalog {
    const rows = this.cache();
    const available_models: CatalogModel[] = ECHO_MODELS.map((m) => ({
      id: `${BUILTIN_PROVIDER}/${m}`,
      model: `${BUILTIN_PROVIDER}/${m}`,
      display_name: `${m} (built-in, offline)`,
      provider: BUILTIN_PROVIDER,
      kind: 'builtin',
      source: 'builtin' as const,
    }));
    const model_availability: Record<string, boolean> = Object.fromEntries(available_models.map((m) => [m.id, true]));
    const providers: CatalogProvider[] = [];
    for (const p of this.deps.providers.configured()) {
      const row = rows.get(p.name);
      const available = !row?.error_kind;
      const seen = new Set<string>();
      const add = (model: string, source: ModelSource) => {
        if (seen.has(model)) return;
        seen.add(model);
        const id = `${p.name}/${model}`;
        available_models.push({ id, model: id, display_name: model, provider: p.name, kind: p.kind, source });
        model_availability[id] = available;
      };
      for (const m of p.models) add(m, 'config');
      for (const m of row ? (JSON.parse(row.models) as string[]) : []) add(m, 'discovered');
      providers.push({
        name: p.name,
        kind: p.kind,
        base_url: p.base_url,
        available,
        discovered_at: row?.discovered_at != null ? isoAt(row.discovered_at) : null,
        last_attempt_at: row ? isoAt(row.attempted_at) : null,
        last_error: row?.error_kind ? { kind: row.error_kind, message: row.error_message ?? '' } : null,
        api_key: p.api_key,
      });
    }
    return { available_models, model_availability, default_model: this.deps.config.values.model.default, providers };
  }

  /** Discover the providers whose cache is missing, failed or expired (all of them with `force`). */
  async refresh(opts: { force?: boolean } = {}): Promise<RefreshResult> {
    const rows = this.cache();
    const now = this.deps.clock.now();
    const due = this.deps.providers
      .configured()
      .map((p) => p.name)
      .filter((name) => {
        const row = rows.get(name);
        return opts.force || !row || row.error_kind !== null || row.discovered_at === null || now - row.discovered_at >= this.ttlMs;
      });
    const outcomes = await Promise.all(due.map((name) => this.discover(name)));
    return { ...this.list(), refreshed: due, errors: outcomes.filter((e): e is DiscoveryError => e !== null) };
  }

  effectiveModel(agentId: string): string {
    return this.deps.agents.effectiveModel(this.deps.agents.get(agentId));
  }

  /** Set the agent's override to a known model (400 unknown_model otherwise). */
  async setOverride(agentId: string, model: string, authorityClass: string | null = null): Promise<OverrideResult> {
    this.deps.agents.assertWritable(agentId);
    await this.assertKnown(model);
    return this.apply(agentId, model, authorityClass);
  }

  /** Back to `model.default`. */
  clearOverride(agentId: string, authorityClass: string | null = null): OverrideResult {
    return this.apply(agentId, null, authorityClass);
  }

  /** Shutdown: abandon discoveries in flight. */
  stop(): void {
    this.shutdown.abort();
  }

  /**
   * A model ref is known when the catalog lists it; a ref of a configured provider that is not
   * listed gets one discovery of that provider (a model pulled a minute ago) before the answer.
   */
  private async assertKnown(model: string): Promise<void> {
    if (this.isListed(model)) return;
    const ref = splitModelRef(model);
    let discovery: DiscoveryError | null = null;
    if (ref && ref.provider !== BUILTIN_PROVIDER && this.deps.providers.get(ref.provider)) {
      discovery = await this.discover(ref.provider);
      if (this.isListed(model)) return;
    }
    throw errors.unknownModel(model, discovery ? `discovery of provider ${ref!.provider} failed: ${discovery.message}` : null);
  }

  private isListed(model: string): boolean {
    return this.list().available_models.some((m) => m.id === model);
  }

  private apply(agentId: string, model: string | null, authorityClass: string | null): OverrideResult {
    const { store, agents, events } = this.deps;
    return store.tx(() => {
      const agent = agents.getWritable(agentId);
      agents.setModelOverride(agentId, model);
      const effective = agents.effectiveModel({ ...agent, model_override: model });
      // Every accepted set or clear is recorded, also when the value does not change: the log
      // shows each operator action.
      events.append(agentId, 'model_changed', {
        model_override: model,
        previous_override: agent.model_override,
        effective_model: effective,
        authority_class: authorityClass,
      });
      return { agent_id: agentId, model: effective, model_override: model };
    });
  }

  /** One discovery of `name` (concurrent callers share it); the outcome is persisted. */
  private discover(name: string): Promise<DiscoveryError | null> {
    let pending = this.inflight.get(name);
    if (!pending) {
      pending = this.runDiscovery(name).finally(() => this.inflight.delete(name));
      this.inflight.set(name, pending);
    }
    return pending;
  }

  private async runDiscovery(name: string): Promise<DiscoveryError | null> {
    const info = this.deps.providers.configured().find((p) => p.name === name);
    const provider = this.deps.providers.get(name);
    if (!info || !provider) return null;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = AbortSignal.any([timeout, this.shutdown.signal]);
    const base = { provider: name, kind: info.kind, base_url: info.base_url };
    try {
      const models = await provider.listModels(signal);
      if (this.shutdown.signal.aborted) return null; // the store may be closed by now
      this.deps.store.tx(() => this.stmt.success.run({ ...base, models: JSON.stringify(models), at: this.deps.clock.now() }));
      return null;
    } catch (err) {
      const error: DiscoveryError = timeout.aborted
        ? { provider: name, kind: 'timeout', message: `provider ${name}: discovery did not finish within ${this.timeoutMs} ms`, status: null }
        : err instanceof ProviderError
          ? { provider: name, kind: err.kind, message: err.message, status: err.status }
          : { provider: name, kind: 'provider_error', message: `provider ${name}: ${(err as Error).message}`, status: null };
      if (this.shutdown.signal.aborted) return error;
      this.deps.logger.warn({ provider: name, kind: error.kind, status: error.status, err: error.message }, 'model discovery failed');
      this.deps.store.tx(() => this.stmt.failure.run({ ...base, at: this.deps.clock.now(), error_kind: error.kind, error_message: error.message }));
      return error;
    }
  }

  /** Discovery rows that belong to the configured endpoint (a changed base_url or kind starts over). */
  private cache(): Map<string, DiscoveryRow> {
    const configured = new Map(this.deps.providers.configured().map((p) => [p.name, p]));
    const out = new Map<string, DiscoveryRow>();
    for (const row of this.stmt.all.all() as DiscoveryRow[]) {
      const p = configured.get(row.provider);
      if (p && p.kind === row.kind && p.base_url === row.base_url) out.set(row.provider, row);
    }
    return out;
  }
}
