import type { Services } from '../../services.js';
import type { AnyRoute } from '../route.js';

export function timerRoutes(s: Services): AnyRoute[] {
  void s;
  return [];
}
