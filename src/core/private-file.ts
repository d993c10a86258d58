/**
 * Files svc keeps or reads by name. Writing: one way to replace a file that holds something
 * private (secrets, credentials, lock files): a temporary file created 0600 beside it, written and
 * fsynced, renamed over the target, then the directory fsynced, so a crash leaves either the old
 * file or the new one, never a torn or world-readable one. Reading: one way to read a file that
 * must be a regular file (the home's JSON files, config and token files, skill and template
 * files), never blocking on a FIFO or a device put in its place.
 */
import fs from 'node:fs';
import path from 'node:path';

const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** A path that should name a regular file names something else (a FIFO, a socket, a device, a directory). */
export class SpecialFileError extends Error {
  readonly code = 'ESPECIAL';
  constructor(
    readonly file: string,
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
    this.name = 'SpecialFileError';
  }
}

/** What a non-regular file is, for messages: "a fifo", "a directory", ... */
export function fileKind(st: fs.Stats): string {
  if (st.isFIFO()) return 'a fifo';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * Open `file` for reading only if it is a regular file; the caller closes the descriptor. It is
 * opened non-blocking and checked with fstat before anything reads it: opening a FIFO for reading
 * waits for a writer, and reading one waits for data, both for good and, in the daemon, with the
 * event loop stopped. `nofollow` refuses a symlink at the last component (ELOOP). Errors of the
 * open itself (ENOENT, EACCES) are thrown as they are.
 */
export function openRegularFile(file: string, opts: { nofollow?: boolean } = {}): { fd: number; stat: fs.Stats } {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | O_NONBLOCK | (opts.nofollow ? O_NOFOLLOW : 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new SpecialFileError(file, fileKind(stat));
    return { fd, stat };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/**
 * The text of the regular file `file` (see openRegularFile), whole or its first `maxBytes`; a
 * special file is refused with SpecialFileError.
 */
export function readRegularFile(file: string, opts: { nofollow?: boolean; maxBytes?: number } = {}): { text: string; stat: fs.Stats } {
  const { fd, stat } = openRegularFile(file, opts);
  try {
    if (opts.maxBytes === undefined) return { text: fs.readFileSync(fd, 'utf8'), stat };
    const buf = Buffer.alloc(Math.min(stat.size, opts.maxBytes));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return { text: buf.subarray(0, n).toString('utf8'), stat };
  } finally {
    fs.closeSync(fd);
  }
}

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
