/** Hosts, sources and streams (spec/inbox.md Hosts, Sources, Streams). */
import type { Services } from '../../services.js';
import type { AnyRoute } from '../route.js';

export function inboxStreamRoutes(_s: Services): AnyRoute[] {
  return [];
}
