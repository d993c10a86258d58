/**
 * The brake on runaway loops (docs/security.md#the-brake): before an agent's next turn starts, its
 * turns in the last hour and the turns in a row started by the runtime's own messages (task
 * results, timer ticks, follow-ups: origins `task`, `timer`, `system`) are checked against the
 * agent's limits; a message from an operator or from outside ends a runtime run. The per-turn
 * limits (rounds, tool calls) are checked by the turn (turn.ts). Counts are kept in memory and
 * start again at a daemon start and when the operator resumes the agent (control start).
 */
import { LIMIT_DEFAULTS, type PolicyLimits } from '../../config/index.js';
import type { Message } from '../agents/index.js';
import type { BrakeTrip, RunLoopDeps } from './types.js';

const HOUR_MS = 3_600_000;
const RUNTIME_ORIGINS: ReadonlySet<string> = new Set(['task', 'timer', 'system']);

interface Counts {
  /** Start times (ms) of the turns of the last hour, oldest first. */
  starts: number[];
  runtimeRun: number;
}

export class Brake {
  private readonly counts = new Map<string, Counts>();

  /** The limit the turn for `next` would meet, or null to go ahead. */
  check(agentId: string, next: Message, limits: PolicyLimits, now: number): BrakeTrip | null {
    const c = this.of(agentId, now);
    if (c.starts.length >= limits.turns_per_hour) return { limit: 'turns_per_hour', value: c.starts.length, max: limits.turns_per_hour };
    if (isRuntime(next) && c.runtimeRun >= limits.runtime_turns_in_a_row) {
      return { limit: 'runtime_turns_in_a_row', value: c.runtimeRun, max: limits.runtime_turns_in_a_row };
    }
    return null;
  }

  /** A turn for `message` started. */
  started(agentId: string, message: Message, now: number): void {
    const c = this.of(agentId, now);
    c.starts.push(now);
    c.runtimeRun = isRuntime(message) ? c.runtimeRun + 1 : 0;
  }

  /** The operator resumed the agent: a fresh budget. */
  reset(agentId: string): void {
    this.counts.delete(agentId);
  }

  private of(agentId: string, now: number): Counts {
    let c = this.counts.get(agentId);
    if (!c) this.counts.set(agentId, (c = { starts: [], runtimeRun: 0 }));
    let drop = 0;
    while (drop < c.starts.length && c.starts[drop]! <= now - HOUR_MS) drop++;
    if (drop > 0) c.starts.splice(0, drop);
    return c;
  }
}

/** The agent's limits (the defaults without a policy, or for an agent gone meanwhile). */
export function limitsOf(deps: Pick<RunLoopDeps, 'policy'>, agentId: string): PolicyLimits {
  try {
    return deps.policy?.effective(agentId).limits ?? { ...LIMIT_DEFAULTS };
  } catch {
    return { ...LIMIT_DEFAULTS };
  }
}

function isRuntime(m: Message): boolean {
  return RUNTIME_ORIGINS.has(String(m.origin.kind));
}
