/**
 * Sources: hosts of each host type, the sources on them and their lifecycle, the modules that poll
 * managed sources (in worker threads) with the credentials they name, GitHub's webhooks, and
 * AgentInbox's source kinds, schemas and follow templates over them.
 */
export { HOST_TYPES, type HostType } from '../types.js';
export { HostService, type Host, type HostSchema } from './hosts.js';
export { SourceService } from './sources.js';
export type { IdleState, PollResult, Source, SourceRemoved, SourceSchema, SourceState } from './records.js';
export { streamIdOf, streamRecord, type AgentInboxIdleState, type HostDetail, type SourceDetail, type SourceRuntime, type StreamRecord } from './source-views.js';
export type { PreviewInput, SchemaPreview } from './source-schemas.js';
export { SOURCE_KINDS, STREAM_KINDS, type ResolvedSchema, type SchemaField, type SourceKind } from './source-kinds.js';
export { expandFollow, GITHUB_FOLLOW_TEMPLATES, type FollowPlan, type FollowRequest, type PlannedSubscription } from './follow-templates.js';
export { IDLE_AUTO_PAUSE_MS, RemoteModules } from './remote-sources.js';
export { credentialReference, inboxCredentialUses, SourceCredentials } from './credentials.js';
export { githubRepoOf, moduleSpecFor } from './host-types.js';
export { GithubWebhooks, WEBHOOK_BODY_LIMIT, type WebhookRequest, type WebhookResult } from './github-webhook.js';
