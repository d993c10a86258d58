/**
 * Versioned schema migrations. The schema version is SQLite's `user_version`. Each migration
 * runs in its own transaction, in order; a database written by a newer svc (a version above the
 * last one known here) refuses to open, so an older binary never corrupts newer data.
 */
import type Database from 'better-sqlite3';
import { v1 } from './001-initial.js';
import { workItems } from './002-work-items.js';
import { timers } from './003-timers.js';
import { tasks } from './004-tasks.js';
import { triggers } from './005-triggers.js';
import { bindings } from './006-bindings.js';
import { workspaces } from './007-workspaces.js';
import { diagnostics } from './008-diagnostics.js';
import { skills } from './009-skills.js';
import { runLoop } from './010-run-loop.js';
import { briefDeliveries } from './011-brief-deliveries.js';
import { models } from './012-models.js';
import { inboxStreams } from './013-inbox-streams.js';
import { inboxSubscriptions } from './014-inbox-subscriptions.js';
import { inboxDelivery } from './015-inbox-delivery.js';
import { taskBoot } from './016-task-boot.js';
import { authSessions } from './017-auth-sessions.js';
import { childAgents } from './018-child-agents.js';
import { workItemPlans } from './019-work-item-plans.js';
import { taskTty } from './020-task-tty.js';
import { inboxAggregation } from './021-inbox-aggregation.js';
import { eventLogHeads } from './022-event-log-heads.js';
import { texts } from './023-texts.js';
import { sharedSources } from './024-shared-sources.js';
import { toolPolicy } from './025-tool-policy.js';
import { taskSandbox } from './026-task-sandbox.js';
import { inboxItemMetadata } from './027-inbox-item-metadata.js';
import { toolExecutions } from './028-tool-executions.js';
import { memoryIndex } from './029-memory-index.js';
import { usage } from './030-usage.js';
import { context } from './031-context.js';
import { inboxItems } from './032-inbox-items.js';
import { inboxHostConfigRef } from './033-inbox-host-config-ref.js';
import { inboxNotifyLease } from './034-inbox-notify-lease.js';
import { inboxConsumerStart } from './035-inbox-consumer-start.js';
import { inboxLifecycle } from './036-inbox-lifecycle.js';
import type { Migration } from './types.js';

export type { Migration } from './types.js';

export const MIGRATIONS: readonly Migration[] = [v1, workItems, timers, tasks, triggers, bindings, workspaces, diagnostics, skills,
  runLoop, briefDeliveries, models, inboxStreams, inboxSubscriptions, inboxDelivery, taskBoot, authSessions, childAgents, workItemPlans, taskTty, inboxAggregation, eventLogHeads, texts, sharedSources, toolPolicy, taskSandbox,
  inboxItemMetadata, toolExecutions, memoryIndex, usage, context, inboxItems, inboxHostConfigRef, inboxNotifyLease, inboxConsumerStart, inboxLifecycle];
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export class SchemaTooNewError extends Error {
  constructor(readonly found: number, readonly supported: number) {
    super(`database schema version ${found} is newer than this svc supports (${supported}); upgrade svc or use another --home`);
    this.name = 'SchemaTooNewError';
  }
}

export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current, SCHEMA_VERSION);
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return SCHEMA_VERSION;
}
