/** Inbox agents, subscriptions and the inbox (spec/inbox.md Agents, Subscriptions, Inbox). */
import type { Services } from '../../services.js';
import type { AnyRoute } from '../route.js';

export function inboxSubscriptionRoutes(_s: Services): AnyRoute[] {
  return [];
}
