import { randomBytes } from 'node:crypto';
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

/**
 * A PRNG for the random part of ULIDs, drawing from a pool of crypto-random bytes refilled 4 KiB
 * at a time. ulidx's default asks the platform for randomness once per character (16 calls per
 * id), which costs tens of microseconds per id on a hot path such as enqueue.
 */
function pooledRandom(): () => number {
  let pool = randomBytes(4096);
  let at = 0;
  return () => {
    if (at + 2 > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    const v = pool.readUInt16BE(at);
    at += 2;
    return v / 65536;
  };
}

/** Makes `<prefix>_<ULID>` ids whose time part comes from the injected clock. */
export class IdGenerator {
  private readonly next = monotonicFactory(pooledRandom());
  constructor(private readonly clock: Clock) {}

  make(kind: IdKind): string {
    return `${ID_PREFIX[kind]}_${this.next(this.clock.now())}`;
  }
}

/** Control-plane agent ids (CONTRACT.md section 6). */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
