import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulidx';
import type { Clock } from './clock.js';

/** Id prefixes, one per resource kind (spec + docs/inbox-api.md#routes). */
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
  approval: 'apr',
  toolExecution: 'tex',
  compaction: 'cmp',
  brief: 'brf',
  childAgent: 'child',
  delegation: 'dlg',
  // inbox service
  host: 'hst',
  source: 'src',
  subscription: 'sub',
  inboxAgent: 'agt',
  entry: 'ent',
  /** An inbox item (its id is its entry's with this prefix). */
  item: 'itm',
  /** A digest thread of an inbox. */
  thread: 'thr',
  target: 'tgt',
  schedule: 'sch',
  /** An outbound delivery (a comment posted, an issue closed) through a delivery handle. */
  delivery: 'dlv',
  /** A daemon in a shared stream catalogue. */
  daemon: 'dmn',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/**
 * Crypto-random bytes drawn from a pool refilled 4 KiB at a time. Asking the platform for a few
 * bytes per call (ulidx's default does it once per ULID character; span ids once per span) costs
 * tens of microseconds per id on hot paths such as enqueue and every traced HTTP request.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolAt = 0;
/** The pool in hex, made at the first `randomHex` after a refill: an id is then a substring. */
let poolHex: string | null = null;

/** The offset of `n` unused random bytes in `pool` (read them before the next call). */
function takeRandom(n: number): number {
  if (poolAt + n > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
    poolHex = null;
  }
  const at = poolAt;
  poolAt += n;
  return at;
}

/** `bytes` random bytes as lowercase hex (trace and span ids). */
export function randomHex(bytes: number): string {
  const at = takeRandom(bytes); // first: it may replace the pool
  poolHex ??= pool.toString('hex');
  return poolHex.slice(at * 2, (at + bytes) * 2);
}

/** A PRNG in [0, 1) for the random part of ULIDs. */
function pooledRandom(): () => number {
  return () => {
    const at = takeRandom(2); // first: it may replace the pool
    return pool.readUInt16BE(at) / 65536;
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

/** A credential profile's name (`svc credentials set NAME`; config and source settings name one). */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** Control-plane agent ids (docs/control-plane-api.md#agents). */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
