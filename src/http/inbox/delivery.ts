/** Targets, agent delivery pause/resume, timers and gc (spec/inbox.md Targets, Agents pause/resume, Timers, Meta gc). */
import type { Services } from '../../services.js';
import type { AnyRoute } from '../route.js';

export function inboxDeliveryRoutes(_s: Services): AnyRoute[] {
  return [];
}
