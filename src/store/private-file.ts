/**
 * One way to replace a file that holds something private (secrets, credentials, lock files): a
 * temporary file created 0600 beside it, written and fsynced, renamed over the target, then the
 * directory fsynced, so a crash leaves either the old file or the new one, never a torn or
 * world-readable one.
 */
import fs from 'node:fs';
import path from 'node:path';

export function writePrivateFile(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  // Never through something already there (a link planted at the temporary name, a stale file).
  fs.rmSync(tmp, { force: true });
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  const dfd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(dfd);
  } finally {
    fs.closeSync(dfd);
  }
}
