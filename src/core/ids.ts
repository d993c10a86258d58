import { monotonicFactory } from 'ulidx';
import type { Clock } from './clock.js';

/** Id prefixes, one per resource kind (spec + CONTRACT.md section 9). */
export const ID_PREFIX = {
  message: 'msg',
  event: 'evt',
  job: 'job',
  task: 'task',
  timer: 'tmr',
  workItem: 'wi',
  trigger: 'trg',
  binding: 'bnd',
  workspace: 'ws',
  turn: 'turn',
  // inbox service
  host: 'hst',
  source: 'src',
  subscription: 'sub',
  inboxAgent: 'agt',
  entry: 'ent',
  target: 'tgt',
  schedule: 'sch',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/** Makes `<prefix>_<ULID>` ids whose time part comes from the injected clock. */
export class IdGenerator {
  private readonly next = monotonicFactory();
  constructor(private readonly clock: Clock) {}

  make(kind: IdKind): string {
    return `${ID_PREFIX[kind]}_${this.next(this.clock.now())}`;
  }
}

/** Control-plane agent ids (CONTRACT.md section 6). */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
