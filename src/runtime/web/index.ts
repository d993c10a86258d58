/**
 * web_fetch's engine: URL and address checks against `[tools.web]`, a GET with redirects, time and
 * size caps, and HTML made readable (docs/tools.md#web-fetch).
 */
export { classifyAddress, type AddressClass, type AddressKind } from './address-guard.js';
export { AddressRefusedError, guardedConnector, systemResolver, type ResolvedAddress, type Resolver } from './connector.js';
export { WebFetcher, type FetchOptions, type WebFetcherDeps, type WebFormat, type WebPage } from './fetch.js';
export { checkUrl, hostMatches, normaliseHost, type CheckedTarget, type HostPolicy } from './host-policy.js';
