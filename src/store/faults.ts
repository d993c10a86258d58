/**
 * Storage faults: a write refused because the disk holding the database is full (SQLite's
 * SQLITE_FULL, a file system's ENOSPC or EDQUOT) or failed by the file system (SQLITE_IOERR and its
 * extended codes, EIO). Such a write changed nothing (SQLite rolled its transaction back) and the
 * same write can succeed once space is freed or the device recovers, so the run loop retries it
 * (runtime/run-loop/write-retry.ts) and HTTP answers a full disk with 507 insufficient_storage
 * (http/error-handler.ts) instead of a 500.
 */
export type StorageFault = 'full' | 'io';

const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

export function storageFaultOf(err: unknown): StorageFault | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return null;
  if (FULL.has(code)) return 'full';
  if (code === 'EIO' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) return 'io';
  return null;
}
