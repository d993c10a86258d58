/** A write the disk refused is recognised in one place (src/store/faults.ts) and answered 507, not 500. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { toAppError } from '../../src/http/error-handler.js';
import { storageFaultOf } from '../../src/store/faults.js';

const sqlite = (code: string) => new Database.SqliteError('refused', code);
const errno = (code: string) => Object.assign(new Error(`${code}: refused`), { code });

describe('storage faults', () => {
  it('a full disk (SQLITE_FULL, ENOSPC, EDQUOT), an I/O error (SQLITE_IOERR*, EIO), and anything else', () => {
    expect([sqlite('SQLITE_FULL'), errno('ENOSPC'), errno('EDQUOT')].map(storageFaultOf)).toEqual(['full', 'full', 'full']);
    expect([sqlite('SQLITE_IOERR'), sqlite('SQLITE_IOERR_WRITE'), errno('EIO')].map(storageFaultOf)).toEqual(['io', 'io', 'io']);
    expect([sqlite('SQLITE_CONSTRAINT_UNIQUE'), sqlite('SQLITE_BUSY'), errno('ENOENT'), new Error('x'), null, 'SQLITE_FULL'].map(storageFaultOf)).toEqual([null, null, null, null, null, null]);
  });

  it('over HTTP a full disk is 507 insufficient_storage with Retry-After; an I/O error stays a logged 500', () => {
    for (const err of [sqlite('SQLITE_FULL'), errno('ENOSPC')]) {
      const e = toAppError(err)!;
      expect({ status: e.status, code: e.code, headers: e.headers }).toEqual({ status: 507, code: 'insufficient_storage', headers: { 'retry-after': '5' } });
    }
    expect(toAppError(sqlite('SQLITE_IOERR_WRITE'))).toBeNull();
  });
});
