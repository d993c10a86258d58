/** svc's own source modules (GitHub), and the GitHub objects as events that its webhook receiver shares. */
export { GITHUB_HOST_CONFIG_SCHEMA, GITHUB_SOURCE_CONFIG_SCHEMA, type GithubSourceConfig } from './github.js';
export { asObj, BODY_KINDS, bodyKind, webhookEvent, type RepoRef } from './github-events.js';
