import type { Services } from '../../services.js';
import type { AnyRoute } from '../route.js';

export function taskRoutes(s: Services): AnyRoute[] {
  void s;
  return [];
}
