/** Follow: a template's host, sources and subscriptions, ensured in one call. */
export { FollowService, type FollowInput, type FollowResult } from './follow.js';
