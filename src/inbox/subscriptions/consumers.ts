/**
 * A subscription seen as AgentInbox's stream consumer (its `consumer`, `lag` and poll records:
 * docs/agentinbox.md#agents-targets-subscriptions-and-timers). svc has no consumer rows: a
 * subscription is the one consumer of its source's stream, whose id is the source id (svc's
 * `streamId`), at `consumedOffset`. The consumer id is derived from the subscription id, so it is
 * stable and needs no storage (`sub_X` is consumed by `con_X`); the subscription's row keeps the
 * last reset's start and time, which are the consumer's (the subscription keeps its own).
 */
import type { StreamStats } from '../streams/index.js';
import { streamIdOf } from '../sources/index.js';

type StreamBounds = Pick<StreamStats, 'retainedFromOffset' | 'highWatermarkOffset'>;

export interface SubscriptionLag {
  subscriptionId: string;
  sourceId: string;
  consumedOffset: number;
  retainedFromOffset: number;
  /** Last offset of the stream; null while it is empty (AgentInbox's value; svc's bounds say 0). */
  highWatermarkOffset: number | null;
  /** highWatermarkOffset - consumedOffset (never negative). */
  lag: number;
  // AgentInbox's ConsumerLag
  consumerId: string;
  streamId: string;
  /** Events after the consumer offset (= lag). */
  pendingEvents: number;
  /** The next offset the subscription consumes (consumedOffset + 1). */
  nextOffset: number;
}

export interface CatchUpResult extends SubscriptionLag {
  /** Entries created by this call. */
  materialized: number;
}

/** `POST /subscriptions/{id}/poll`: svc's catch-up with AgentInbox's SubscriptionPollResult fields. */
export interface PollResult extends CatchUpResult {
  eventsRead: number;
  matched: number;
  inboxItemsCreated: number;
  /** The offset consumed through by this poll; null when it read nothing. */
  committedOffset: number | null;
  note: string;
}

export interface ConsumerRecord {
  consumerId: string;
  streamId: string;
  subscriptionId: string;
  consumerKey: string;
  nextOffset: number;
  startPolicy: string;
  startOffset: number | null;
  startTime: string | null;
  createdAt: string;
  /** svc keeps no consumer row: the last reset, else the subscription's creation time. */
  updatedAt: string;
}

/** What these views need of a subscription. */
export interface ConsumerOf {
  subscriptionId: string;
  sourceId: string;
  consumedOffset: number;
  /** The consumer's start: the subscription's, or the last reset's. */
  startPolicy: string;
  startOffset: number | null;
  startTime: string | null;
  createdAt: string;
  /** The last reset (default: createdAt). */
  updatedAt?: string;
}

export function consumerIdOf(subscriptionId: string): string {
  return `con_${subscriptionId.startsWith('sub_') ? subscriptionId.slice(4) : subscriptionId}`;
}

export function consumerView(sub: ConsumerOf): ConsumerRecord {
  return {
    consumerId: consumerIdOf(sub.subscriptionId),
    streamId: streamIdOf(sub.sourceId),
    subscriptionId: sub.subscriptionId,
    consumerKey: `subscription:${sub.subscriptionId}`,
    nextOffset: sub.consumedOffset + 1,
    startPolicy: sub.startPolicy,
    startOffset: sub.startOffset,
    startTime: sub.startTime,
    createdAt: sub.createdAt,
    updatedAt: sub.updatedAt ?? sub.createdAt,
  };
}

export function lagView(sub: { subscriptionId: string; sourceId: string; consumed: number }, bounds: StreamBounds): SubscriptionLag {
  const lag = Math.max(0, bounds.highWatermarkOffset - sub.consumed);
  return {
    subscriptionId: sub.subscriptionId,
    sourceId: sub.sourceId,
    consumedOffset: sub.consumed,
    retainedFromOffset: bounds.retainedFromOffset,
    highWatermarkOffset: bounds.highWatermarkOffset === 0 ? null : bounds.highWatermarkOffset,
    lag,
    consumerId: consumerIdOf(sub.subscriptionId),
    streamId: streamIdOf(sub.sourceId),
    pendingEvents: lag,
    nextOffset: sub.consumed + 1,
  };
}

/**
 * A poll's answer: matching is pushed on append, so a poll reads only what a reset (or a missed
 * push) left behind, and usually reads nothing. `matched` counts the inbox entries the poll made
 * (an event that matched but already had its entry is not counted).
 */
export function pollView(lag: SubscriptionLag, consumedBefore: number, materialized: number): PollResult {
  const eventsRead = Math.max(0, lag.consumedOffset - consumedBefore);
  return {
    ...lag,
    materialized,
    eventsRead,
    matched: materialized,
    inboxItemsCreated: materialized,
    committedOffset: eventsRead > 0 ? lag.consumedOffset : null,
    note: eventsRead > 0 ? 'subscription batch processed' : 'no new stream events',
  };
}
