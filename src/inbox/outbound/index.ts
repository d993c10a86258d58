/**
 * Outbound: delivery handles on GitHub items, the operations a handle offers, and running them
 * against GitHub's REST API with the source's credential (POST /deliveries/…, reply_to_entry).
 */
export { deliveryHandleOf, withDeliveryHandle, type DeliveryHandle } from './handles.js';
export { GITHUB_OPERATIONS, MAX_BODY_CHARS, type OperationDescriptor } from './operations.js';
export { Outbound, type DeliveryActions, type DeliveryAttempt, type DeliveryTargetRequest, type InvokeRequest, type SendRequest } from './outbound.js';
export { EntryReplies, type EntryReply } from './replies.js';
export type { GithubResult } from './github.js';
