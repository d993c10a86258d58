/**
 * Activation targets of an inbox agent (spec/inbox.md Targets; docs/inbox-api.md#delivery):
 * where its notifications go. Three kinds, each delivered by one module (webhook.ts,
 * terminal.ts, runtime.ts):
 * - `webhook` {url, secret?}: a signed POST (Standard Webhooks); the secret `whsec_…` is generated
 *   when absent and returned once, in the creation answer only;
 * - `terminal` {tmuxTarget, tmuxSocket?}: a line typed into a tmux pane; one bound by a terminal
 *   registration also carries its session (terminal-sessions.ts);
 * - `runtime` {runtimeAgentId}: a `webhook_event` in a control-plane agent's queue.
 *
 * A target is `active` or `offline`. It goes offline on a 410 answer or after
 * `delivery.max_failures` consecutive failed attempts and gets no more attempts until a resume
 * (target-level, or the agent's full resume) recovers it.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors, type IdGenerator } from '../../core/index.js';
import type { SecretStore, Store } from '../../store/index.js';
import type { AggregationPolicy } from '../types.js';
import { readPolicy, writePolicy, type InboxAgents } from '../entries/index.js';
import { isTmuxPaneId, type TerminalRegistration, type TerminalSession } from './terminal-sessions.js';
import { type ActivationMode, type CreatedTarget, type Target, type TargetRow, type TargetWithSecret } from './types.js';

export type CreateTargetInput = (
  | { kind: 'webhook'; url: string; secret?: string | undefined; activationMode?: ActivationMode | undefined }
  | { kind: 'terminal'; tmuxTarget: string; tmuxSocket?: string | undefined; session?: TerminalSession }
  | { kind: 'runtime'; runtimeAgentId: string }
) & {
  /** The target's own aggregation policy, normalized (aggregation.ts); absent or null: the agent's. */
  aggregation?: AggregationPolicy | null | undefined;
};

interface TargetConfig {
  url?: string;
  /** A webhook's activation mode when one was asked for (absent: activation_only). */
  activationMode?: ActivationMode;
  tmuxTarget?: string;
  tmuxSocket?: string;
  runtimeAgentId?: string;
  session?: TerminalSession;
}

export interface TargetsDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  agents: InboxAgents;
  /** Whether a control-plane agent exists (runtime targets are checked at creation). */
  /** Whether a control-plane agent can take runtime-target notifications (private child agents cannot). */
  runtimeAgentStatus: (agentId: string) => 'ok' | 'missing' | 'private';
  /** Webhook signing secrets live here, out of the database. */
  secrets: SecretStore;
  /** `delivery.notify_lease_ms`, as targets report it. */
  notifyLeaseMs: () => number;
}

const secretRef = (targetId: string) => `inbox-target/${targetId}/secret`;

/** Webhook secrets: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export class TargetService {
  private readonly stmt;
  /** A row as its record. */
  private readonly view = (row: TargetRow): Target => toTarget(row, this.deps.notifyLeaseMs());
  private readonly deletedListeners: Array<(targetId: string) => void> = [];
  private readonly createdListeners: Array<(targetId: string) => void> = [];

  constructor(private readonly deps: TargetsDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO inbox_targets (target_id, agent_id, kind, config, status, queued_through, aggregation, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM inbox_targets WHERE target_id = ?'),
      ofAgent: db.prepare('SELECT * FROM inbox_targets WHERE agent_id = ? ORDER BY seq'),
      all: db.prepare('SELECT * FROM inbox_targets ORDER BY seq'),
      remove: db.prepare('DELETE FROM inbox_targets WHERE target_id = ?'),
      removeAgent: db.prepare('DELETE FROM inbox_targets WHERE agent_id = ?'),
      recover: db.prepare(
        "UPDATE inbox_targets SET status = 'active', offline_reason = NULL, consecutive_failures = 0, updated_ms = ? WHERE target_id = ?",
      ),
      attempted: db.prepare('UPDATE inbox_targets SET last_attempt_ms = ?, updated_ms = ? WHERE target_id = ?'),
      succeeded: db.prepare(
        `UPDATE inbox_targets SET consecutive_failures = 0, last_error = NULL, last_success_ms = ?, updated_ms = ?,
           notified_through = CASE WHEN notified_through IS NULL OR notified_through < ? THEN ? ELSE notified_through END
         WHERE target_id = ?`,
      ),
      failed: db.prepare(
        'UPDATE inbox_targets SET consecutive_failures = consecutive_failures + 1, last_error = ?, updated_ms = ? WHERE target_id = ? RETURNING consecutive_failures',
      ),
      offline: db.prepare("UPDATE inbox_targets SET status = 'offline', offline_reason = ?, updated_ms = ? WHERE target_id = ?"),
      queuedThrough: db.prepare('UPDATE inbox_targets SET queued_through = ?, updated_ms = ? WHERE target_id = ?'),
      lease: db.prepare('UPDATE inbox_targets SET lease_expires_ms = ? WHERE target_id = ?'),
      setConfig: db.prepare('UPDATE inbox_targets SET config = ?, updated_ms = ? WHERE target_id = ?'),
      aggregation: db.prepare('UPDATE inbox_targets SET aggregation = ?, updated_ms = ? WHERE target_id = ?'),
    };
    deps.agents.onDeleted((agentId) => {
      for (const row of this.rowsOf(agentId)) {
        for (const l of this.deletedListeners) l(row.target_id);
        deps.secrets.delete(secretRef(row.target_id));
      }
      this.stmt.removeAgent.run(agentId);
    });
  }

  /** What delivery modules get: the record and, for a webhook, its signing secret. */
  withSecret(row: TargetRow): TargetWithSecret {
    return { ...this.view(row), secret: this.deps.secrets.get(secretRef(row.target_id)) };
  }

  // --- reads -----------------------------------------------------------------------------------

  list(agentId: string): Target[] {
    this.deps.agents.get(agentId);
    return this.rowsOf(agentId).map(this.view);
  }

  get(agentId: string, targetId: string): Target {
    return this.view(this.rowOf(agentId, targetId));
  }

  /** The row or undefined; for the notifier. */
  find(targetId: string): TargetRow | undefined {
    return this.stmt.get.get(targetId) as TargetRow | undefined;
  }

  rowsOf(agentId: string): TargetRow[] {
    return this.stmt.ofAgent.all(agentId) as TargetRow[];
  }

  /** Every target of every agent (GET /status). */
  all(): Target[] {
    return this.allRows().map(this.view);
  }

  allRows(): TargetRow[] {
    return this.stmt.all.all() as TargetRow[];
  }

  // --- mutations -------------------------------------------------------------------------------

  /**
   * A new target. It starts after the agent's existing entries: its `queued_through` cursor is an
   * entry-id-shaped value made from its own id (ids share one monotonic ULID generator, so every
   * earlier entry sorts below it). Backlog from before its creation reaches it only by catch-up
   * of later entries, never as a replay.
   */
  create(agentId: string, input: CreateTargetInput): CreatedTarget {
    return this.deps.store.tx(() => {
      this.deps.agents.get(agentId);
      const config: TargetConfig = {};
      let secret: string | null = null;
      if (input.kind === 'webhook') {
        config.url = input.url;
        if (input.activationMode) config.activationMode = input.activationMode;
        secret = input.secret ?? generateSecret();
      } else if (input.kind === 'terminal') {
        config.tmuxTarget = input.tmuxTarget;
        if (input.tmuxSocket) config.tmuxSocket = input.tmuxSocket;
        if (input.session) {
          // A registration's target types into a pane of the daemon's own tmux server, named by its id only.
          if (!isTmuxPaneId(input.tmuxTarget) || input.tmuxSocket) throw new Error(`a terminal session is bound to a pane id, not ${JSON.stringify(input.tmuxTarget)}`);
          config.session = input.session;
        }
      } else {
        const status = this.deps.runtimeAgentStatus(input.runtimeAgentId);
        if (status === 'missing') throw errors.runtimeAgentNotFound(input.runtimeAgentId);
        if (status === 'private') throw errors.agentPrivate(input.runtimeAgentId);
        config.runtimeAgentId = input.runtimeAgentId;
      }
      const now = this.deps.clock.now();
      const targetId = this.deps.ids.make('target');
      const startCursor = `ent_${targetId.slice(targetId.indexOf('_') + 1)}`;
      this.stmt.insert.run(targetId, agentId, input.kind, JSON.stringify(config), startCursor, writePolicy(input.aggregation ?? null), now, now);
      if (secret !== null) this.deps.secrets.put(secretRef(targetId), secret);
      for (const l of this.createdListeners) l(targetId);
      const target = this.view(this.find(targetId)!);
      return secret === null ? target : { ...target, secret };
    });
  }

  /**
   * The agent's webhook target for exactly this URL, created (with a generated secret, shown in
   * this answer only) when it has none; other targets are never changed.
   */
  ensureWebhook(agentId: string, url: string, activationMode?: ActivationMode): { target: CreatedTarget; created: boolean } {
    return this.deps.store.tx(() => {
      const existing = this.list(agentId).find((t) => t.kind === 'webhook' && t.url === url);
      if (existing) return { target: existing, created: false };
      return { target: this.create(agentId, { kind: 'webhook', url, activationMode }), created: true };
    });
  }

  /**
   * Every terminal target of every agent, for terminal registrations (the same terminal may be
   * bound to another agent).
   */
  terminals(): Target[] {
    return this.allRows()
      .filter((r) => r.kind === 'terminal')
      .map(this.view);
  }

  /**
   * A terminal registration again: the target moves to the registration's pane with its session
   * fields (its delivery state is kept; recovering an offline one is a target resume).
   */
  rebindTerminal(targetId: string, reg: TerminalRegistration): Target {
    return this.deps.store.tx(() => {
      const row = this.find(targetId);
      if (!row || row.kind !== 'terminal') throw new Error(`${targetId} is not a terminal target`);
      if (!isTmuxPaneId(reg.tmuxPaneId)) throw new Error(`a terminal session is bound to a pane id, not ${JSON.stringify(reg.tmuxPaneId)}`);
      const config: TargetConfig = { tmuxTarget: reg.tmuxPaneId, session: reg.session };
      this.stmt.setConfig.run(JSON.stringify(config), this.deps.clock.now(), targetId);
      return this.view(this.find(targetId)!);
    });
  }

  delete(agentId: string, targetId: string): void {
    this.deps.store.tx(() => {
      this.rowOf(agentId, targetId);
      for (const l of this.deletedListeners) l(targetId);
      this.stmt.remove.run(targetId);
      this.deps.secrets.delete(secretRef(targetId));
      // The agent's offline time starts now (inbox/lifecycle.ts), not at its last target's last change.
      this.deps.agents.seen(agentId, { force: true });
    });
  }

  /** Listeners run inside the create transaction (digest schedules). */
  onCreated(listener: (targetId: string) => void): void {
    this.createdListeners.push(listener);
  }

  /** Listeners run inside the delete transaction (the notifier drops the target's rows). */
  onDeleted(listener: (targetId: string) => void): void {
    this.deletedListeners.push(listener);
  }

  /** offline -> active with the failure count reset, inside the caller's transaction. Returns whether it was offline. */
  recover(row: TargetRow): boolean {
    this.stmt.recover.run(this.deps.clock.now(), row.target_id);
    return row.status === 'offline';
  }

  markAttempted(targetId: string): void {
    const now = this.deps.clock.now();
    this.stmt.attempted.run(now, now, targetId);
  }

  markSucceeded(targetId: string, throughEntryId: string): void {
    const now = this.deps.clock.now();
    this.stmt.succeeded.run(now, now, throughEntryId, throughEntryId, targetId);
  }

  /** One more consecutive failure; returns the new count. */
  markFailed(targetId: string, error: string): number {
    const row = this.stmt.failed.get(error, this.deps.clock.now(), targetId) as { consecutive_failures: number } | undefined;
    return row?.consecutive_failures ?? 0;
  }

  markOffline(targetId: string, reason: string): void {
    this.stmt.offline.run(reason, this.deps.clock.now(), targetId);
  }

  setQueuedThrough(targetId: string, entryId: string): void {
    this.stmt.queuedThrough.run(entryId, this.deps.clock.now(), targetId);
  }

  /** Start (a time) or end (null) the target's notify lease (notifier.ts). */
  setLease(targetId: string, expiresMs: number | null): void {
    this.stmt.lease.run(expiresMs, targetId);
  }

  /** Set or clear (null) the target's own aggregation policy, stored as given (aggregation.ts normalizes it). */
  setAggregation(targetId: string, policyJson: string | null): void {
    this.stmt.aggregation.run(policyJson, this.deps.clock.now(), targetId);
  }

  rowOf(agentId: string, targetId: string): TargetRow {
    this.deps.agents.get(agentId);
    const row = this.find(targetId);
    if (!row || row.agent_id !== agentId) throw errors.targetNotFound(targetId, agentId);
    return row;
  }
}

export function toTarget(row: TargetRow, notifyLeaseMs: number): Target {
  const config = JSON.parse(row.config) as TargetConfig;
  const session = config.session;
  const updatedAt = isoAt(row.updated_ms);
  const lastSuccessAt = row.last_success_ms === null ? null : isoAt(row.last_success_ms);
  return {
    targetId: row.target_id,
    agentId: row.agent_id,
    kind: row.kind,
    url: config.url ?? null,
    tmuxTarget: config.tmuxTarget ?? null,
    tmuxSocket: config.tmuxSocket ?? null,
    runtimeAgentId: config.runtimeAgentId ?? null,
    backend: row.kind === 'terminal' ? 'tmux' : null,
    tmuxPaneId: row.kind === 'terminal' && !config.tmuxSocket && isTmuxPaneId(config.tmuxTarget) ? config.tmuxTarget : null,
    runtimeKind: session?.runtimeKind ?? null,
    runtimeSessionId: session?.runtimeSessionId ?? null,
    runtimePid: session?.runtimePid ?? null,
    tty: session?.tty ?? null,
    termProgram: session?.termProgram ?? null,
    itermSessionId: session?.itermSessionId ?? null,
    status: row.status,
    offlineReason: row.offline_reason,
    consecutiveFailures: row.consecutive_failures,
    lastError: row.last_error,
    notifiedThroughEntryId: row.notified_through,
    lastAttemptAt: row.last_attempt_ms === null ? null : isoAt(row.last_attempt_ms),
    lastSuccessAt,
    aggregation: readPolicy(row.aggregation),
    createdAt: isoAt(row.created_ms),
    updatedAt,
    offlineSince: row.status === 'offline' ? updatedAt : null,
    lastDeliveredAt: lastSuccessAt,
    mode: row.kind === 'terminal' ? 'agent_prompt' : row.kind === 'runtime' ? 'activation_with_items' : (config.activationMode ?? 'activation_only'),
    notifyLeaseMs,
    minUnackedItems: null,
    notificationPolicy: { notifyLeaseMs, minUnackedItems: null },
    lastSeenAt: updatedAt,
  };
}

