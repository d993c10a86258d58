/**
 * Matching, pushed on append (docs/inbox-api.md#subscriptions): the stream service calls
 * `onAppended` inside the append transaction, and every subscription on that source matches the
 * events it has not consumed yet in that same transaction, advancing its consumer offset with
 * them; the matches of one pass become inbox items together (entries/entries.ts `materialize`: one
 * item per event per agent, whatever number of its subscriptions matched, never one that was
 * materialised before). No polling loop sits between an append and its items.
 *
 * The live subscriptions are held in memory, indexed by source, so an append touches only the
 * subscriptions of its own source. Every in-memory change made inside a transaction is undone if
 * that transaction (or savepoint) rolls back, so memory always mirrors what committed.
 *
 * Each subscription's CEL filter gets one CostBudget per pass (an append, or a catch-up): an event
 * whose evaluation goes over its limit is not matched, and the subscription's `filterError` says
 * so (in memory, since the daemon started; the log warns at most once a minute per subscription).
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock, LogLimiter } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { EventMatch, InboxEntries } from '../entries/index.js';
import type { SourceLookup } from './agentinbox-expr.js';
import { CostBudget, EVAL_COST_BASE, PASS_COST_BASE, type CompiledFilter } from './filters.js';
import type { StoredEvent, StreamService } from '../streams/index.js';

export type CleanupMode = 'manual' | 'at' | 'on_terminal' | 'on_terminal_or_at';

/** A subscription as matching needs it. */
export interface LiveSubscription {
  subscriptionId: string;
  agentId: string;
  sourceId: string;
  filter: CompiledFilter;
  trackedResourceRef: string | null;
  cleanupMode: CleanupMode;
  /** Last stream offset this subscription has consumed (matched or not). */
  consumed: number;
  /** A terminal signal for trackedResourceRef has been seen (removal is scheduled). */
  terminal: boolean;
  /** Events its filter went over the cost limit on (not matched), since the daemon started. */
  filterError: FilterError | null;
}

export interface FilterError {
  code: 'filter_too_costly';
  message: string;
  /** When the last one was seen, and its offset. */
  at: string;
  offset: number;
  /** How many events since the daemon started. */
  events: number;
}

export interface MatcherDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  streams: StreamService;
  entries: InboxEntries;
  /** An event's source, for AgentInbox's `sourceType` and `sourceKey` in filters. */
  sourceFacts?: SourceLookup;
}

/** Events read per step when a subscription catches up from the stream. */
const CATCH_UP_CHUNK = 1000;

export class Matcher {
  private readonly bySource = new Map<string, LiveSubscription[]>();
  private readonly byId = new Map<string, LiveSubscription>();
  private readonly setConsumed: Database.Statement;
  private readonly filterOf: Database.Statement;
  /** AgentInbox's matchReason per subscription (its filter never changes). */
  private readonly reasons = new Map<string, string>();
  private readonly costWarnings: LogLimiter;
  private terminalListener: (sub: LiveSubscription) => void = () => {};

  constructor(private readonly deps: MatcherDeps) {
    this.setConsumed = deps.store.db.prepare('UPDATE inbox_subscriptions SET consumed_offset = ? WHERE subscription_id = ?');
    this.filterOf = deps.store.db.prepare('SELECT filter FROM inbox_subscriptions WHERE subscription_id = ?').pluck();
    this.costWarnings = new LogLimiter(deps.clock);
    deps.streams.onAppended((sourceId, events) => this.onAppended(sourceId, events));
    deps.streams.setConsumerCounter((sourceId) => this.count(sourceId));
  }

  /** Called (inside the matching transaction) when a subscription sees its terminal signal. */
  onTerminal(listener: (sub: LiveSubscription) => void): void {
    this.terminalListener = listener;
  }

  count(sourceId: string): number {
    return this.bySource.get(sourceId)?.length ?? 0;
  }

  get(subscriptionId: string): LiveSubscription | undefined {
    return this.byId.get(subscriptionId);
  }

  /** Load a committed subscription at start-up (outside any transaction). */
  load(sub: LiveSubscription): void {
    this.index(sub);
  }

  /** Add inside the creating transaction; undone if it rolls back. */
  add(sub: LiveSubscription): void {
    this.index(sub);
    this.deps.store.onRollback(() => this.unindex(sub));
  }

  /** Remove inside the deleting transaction; restored if it rolls back. */
  remove(subscriptionId: string): LiveSubscription | undefined {
    const sub = this.byId.get(subscriptionId);
    if (!sub) return undefined;
    this.unindex(sub);
    this.reasons.delete(subscriptionId);
    this.deps.store.onRollback(() => this.index(sub));
    return sub;
  }

  /**
   * Reposition (inside a transaction): the next offset consumed is `consumed + 1`. Events that
   * were ever an item of the agent are not materialised again (entries/entries.ts).
   */
  reposition(sub: LiveSubscription, consumed: number): void {
    this.advance([[sub, consumed]]);
  }

  /**
   * Consume the stream up to `throughOffset` (inside a transaction): start policies, reset and
   * poll. Returns the items created.
   */
  catchUp(sub: LiveSubscription, throughOffset: number): number {
    const matches: EventMatch[] = [];
    const budget = new CostBudget();
    let consumed = sub.consumed;
    while (consumed < throughOffset) {
      const events = this.deps.streams.read(sub.sourceId, consumed, Math.min(CATCH_UP_CHUNK, throughOffset - consumed));
      const inRange = events.filter((e) => e.offset <= throughOffset);
      if (inRange.length === 0) break;
      for (const event of inRange) this.consider(sub, event, JSON.stringify(event), matches, budget);
      consumed = inRange[inRange.length - 1]!.offset;
    }
    this.recordOverruns(sub, budget);
    this.advance([[sub, Math.max(consumed, sub.consumed)]]);
    return this.deps.entries.materialize(matches);
  }

  /** streams.onAppended: inside the append transaction, with the newly stored events in offset order. */
  private onAppended(sourceId: string, events: StoredEvent[]): void {
    const subs = this.bySource.get(sourceId);
    if (!subs || subs.length === 0 || events.length === 0) return;
    const first = events[0]!.offset;
    const last = events[events.length - 1]!.offset;
    const json = new Array<string | undefined>(events.length);
    const matches: EventMatch[] = [];
    const moves: Array<[LiveSubscription, number]> = [];
    for (const sub of [...subs]) {
      if (sub.consumed >= last) continue;
      // Behind the stream (a reset whose catch-up has not run yet): consume the gap from the stream first.
      if (sub.consumed < first - 1) this.catchUp(sub, first - 1);
      const budget = new CostBudget();
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!;
        if (event.offset <= sub.consumed) continue;
        this.consider(sub, event, (json[i] ??= JSON.stringify(event)), matches, budget);
      }
      this.recordOverruns(sub, budget);
      moves.push([sub, last]);
    }
    this.advance(moves);
    this.deps.entries.materialize(matches);
  }

  private consider(sub: LiveSubscription, event: StoredEvent, eventJson: string, out: EventMatch[], budget: CostBudget): void {
    budget.admit(eventJson.length);
    if (!event.pruned && sub.filter.test(event, budget, this.deps.sourceFacts)) {
      out.push({ agentId: sub.agentId, subscriptionId: sub.subscriptionId, event, eventJson, matchReason: this.reasonOf(sub) });
    }
    if (!sub.terminal && isTerminalSignal(sub, event)) {
      sub.terminal = true;
      this.deps.store.onRollback(() => (sub.terminal = false));
      this.terminalListener(sub);
    }
  }

  /** AgentInbox's `matchReason` of an item a subscription matched (its filter.ts): whether the filter has an expr. */
  private reasonOf(sub: LiveSubscription): string {
    let reason = this.reasons.get(sub.subscriptionId);
    if (reason === undefined) {
      const json = this.filterOf.get(sub.subscriptionId) as string | undefined;
      const expr = json === undefined ? undefined : (JSON.parse(json) as { expr?: unknown }).expr;
      reason = typeof expr === 'string' && expr.trim() !== '' ? 'filter shortcuts and expr matched' : 'filter shortcuts matched';
      this.reasons.set(sub.subscriptionId, reason);
    }
    return reason;
  }

  /** Inside the pass's transaction: the filter's overruns on the subscription (undone on rollback), and a warning. */
  private recordOverruns(sub: LiveSubscription, budget: CostBudget): void {
    if (budget.overruns === 0) return;
    const before = sub.filterError;
    const events = (before?.events ?? 0) + budget.overruns;
    sub.filterError = {
      code: 'filter_too_costly',
      message: `the filter's expr went over its cost limit (${EVAL_COST_BASE} units per event and ${PASS_COST_BASE} per append, each plus one per byte of the events) on ${events} event(s), which were not matched`,
      at: isoAt(this.deps.clock.now()),
      offset: budget.lastOverrun!,
      events,
    };
    this.deps.store.onRollback(() => (sub.filterError = before));
    this.costWarnings.limit(sub.subscriptionId, (suppressed) =>
      this.deps.logger.warn({ subscriptionId: sub.subscriptionId, offset: budget.lastOverrun, events: budget.overruns, suppressed }, 'subscription filter over its cost limit; events not matched'),
    );
  }

  /** Persist new consumer offsets; the in-memory ones follow, and go back on rollback. */
  private advance(moves: Array<[LiveSubscription, number]>): void {
    if (moves.length === 0) return;
    const before = moves.map(([sub]) => sub.consumed);
    for (const [sub, consumed] of moves) {
      this.setConsumed.run(consumed, sub.subscriptionId);
      sub.consumed = consumed;
    }
    this.deps.store.onRollback(() => moves.forEach(([sub], i) => (sub.consumed = before[i]!)));
  }

  private index(sub: LiveSubscription): void {
    this.byId.set(sub.subscriptionId, sub);
    const list = this.bySource.get(sub.sourceId);
    if (list) list.push(sub);
    else this.bySource.set(sub.sourceId, [sub]);
  }

  private unindex(sub: LiveSubscription): void {
    if (this.byId.get(sub.subscriptionId) === sub) this.byId.delete(sub.subscriptionId);
    const list = this.bySource.get(sub.sourceId);
    if (!list) return;
    const i = list.indexOf(sub);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.bySource.delete(sub.sourceId);
  }
}

/**
 * docs/inbox-api.md#subscriptions: subject equals trackedResourceRef and metadata.lifecycle is
 * "terminal".
 */
export function isTerminalSignal(sub: LiveSubscription, event: StoredEvent): boolean {
  if (sub.trackedResourceRef === null || (sub.cleanupMode !== 'on_terminal' && sub.cleanupMode !== 'on_terminal_or_at')) return false;
  return event.subject === sub.trackedResourceRef && event.metadata?.lifecycle === 'terminal';
}
