/** Subscriptions: which agent gets which events of a source, with filters, matched on append. */
export {
  SubscriptionService,
  type CreateSubscriptionInput,
  type ResetInput,
  type ResetResult,
  type Subscription,
  type SubscriptionListQuery,
} from './subscriptions.js';
export { consumerIdOf, type CatchUpResult, type ConsumerRecord, type PollResult, type SubscriptionLag } from './consumers.js';
export { Matcher } from './matcher.js';
export { compileFilter, type FilterSpec } from './filters.js';
