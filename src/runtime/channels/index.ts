/**
 * The runtime's edges besides the API: external triggers that enqueue messages, operator
 * bindings, briefs and their delivery to bindings.
 */
export { BindingService, normaliseTransport } from './bindings.js';
export { BriefDelivery } from './brief-delivery.js';
export { BriefService, type Brief, type FailureArtifact } from './briefs.js';
export { CALLBACK_BODY_LIMIT, DELIVERY_MODES, TriggerService } from './triggers.js';
