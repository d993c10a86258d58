/**
 * The agent run loop: scheduler (workers, claims, recovery), turns, run control and reads,
 * composed over one set of deps.
 */
import type { Ingress } from '../agents/index.js';
import { ContextRecords } from './context-records.js';
import { RunControl } from './control.js';
import { RunLoopRecords } from './records.js';
import { Scheduler } from './scheduler.js';
import { ConversationHub } from './stream.js';
import type { RunLoopDeps } from './types.js';
import { RunLoopViews } from './views.js';

export type { Compaction } from './context-records.js';
export type { HistoryEntry } from './records.js';

export interface RunLoop {
  records: RunLoopRecords;
  context: ContextRecords;
  hub: ConversationHub;
  scheduler: Scheduler;
  control: RunControl;
  views: RunLoopViews;
}

export function createRunLoop(deps: Omit<RunLoopDeps, 'records' | 'hub' | 'context'> & { ingress: Ingress }): RunLoop {
  const records = new RunLoopRecords(deps.store);
  const hub = new ConversationHub();
  const context = new ContextRecords(deps.store, (text) => deps.tokens.count(text, deps.config.values.model.default));
  const full = { ...deps, records, context, hub };
  const scheduler = new Scheduler(full);
  return { records, context, hub, scheduler, control: new RunControl(full, scheduler), views: new RunLoopViews(full, scheduler) };
}
