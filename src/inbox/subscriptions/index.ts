/** Subscriptions: which agent gets which events of a source, with filters, matched on append. */
export {
  SubscriptionService,
  type CatchUpResult,
  type CreateSubscriptionInput,
  type ResetInput,
  type Subscription,
  type SubscriptionLag,
  type SubscriptionListQuery,
} from './subscriptions.js';
export { Matcher } from './matcher.js';
export { compileFilter, type FilterSpec } from './filters.js';
