/**
 * Sources: hosts of each host type, the sources on them and their lifecycle, the modules that poll
 * managed sources (in worker threads) with the credentials they name, and GitHub's webhooks.
 */
export { HOST_TYPES, type HostType } from '../types.js';
export { HostService, type Host, type HostSchema } from './hosts.js';
export { SourceService } from './sources.js';
export type { IdleState, PollResult, Source, SourceDetail, SourceRemoved, SourceSchema, SourceState, StreamDetail } from './records.js';
export { IDLE_AUTO_PAUSE_MS, RemoteModules } from './remote-sources.js';
export { credentialReference, inboxCredentialUses, SourceCredentials } from './credentials.js';
export { moduleSpecFor } from './host-types.js';
export { GithubWebhooks, WEBHOOK_BODY_LIMIT, type WebhookRequest, type WebhookResult } from './github-webhook.js';
