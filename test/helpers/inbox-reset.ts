/** What `POST /subscriptions/{id}/reset` answers (docs/inbox-api.md#subscriptions), for checks with toEqual. */

interface SubscriptionSeen {
  subscriptionId: string;
  sourceId: string;
  createdAt: string;
}

/**
 * A reset to `earliest` of a subscription whose stream holds `highWatermarkOffset` events retained
 * from offset 1, before its catch-up: AgentInbox's {subscription, consumer, lag}, svc's lag fields
 * beside. `updatedAt` is the consumer's (the reset's time, or a matcher).
 */
export function earliestResetAnswer<S extends SubscriptionSeen>(sub: S, highWatermarkOffset: number, updatedAt: unknown) {
  const consumerId = `con_${sub.subscriptionId.slice(4)}`;
  const streamId = `str_${sub.sourceId.slice(4)}`;
  const lag = {
    subscriptionId: sub.subscriptionId,
    sourceId: sub.sourceId,
    consumedOffset: 0,
    retainedFromOffset: 1,
    highWatermarkOffset,
    lag: highWatermarkOffset,
    consumerId,
    streamId,
    pendingEvents: highWatermarkOffset,
    nextOffset: 1,
  };
  const { lag: _behind, ...lagFields } = lag;
  return {
    // The subscription keeps the start it was created with; its consumer takes the reset's.
    subscription: { ...sub, consumedOffset: 0 },
    consumer: {
      consumerId,
      streamId,
      subscriptionId: sub.subscriptionId,
      consumerKey: `subscription:${sub.subscriptionId}`,
      nextOffset: 1,
      startPolicy: 'earliest',
      startOffset: null,
      startTime: null,
      createdAt: sub.createdAt,
      updatedAt,
    },
    lag,
    ...lagFields,
  };
}
