/**
 * Opening, sniffing and writing files for the file tools, after confine.ts resolved the path.
 * Only regular files are read or replaced: the type is checked with lstat before anything is
 * opened (so a device or a terminal is never opened), the open itself does not follow a final
 * symlink and does not block on a fifo (O_NOFOLLOW | O_NONBLOCK | O_NOCTTY), and fstat checks the
 * opened file is still a regular file. On Linux the opened descriptor's real path is checked once
 * more (/proc/self/fd), so a directory swapped for a symlink between the check and the open is
 * caught. A write goes to a temporary file in the same directory (checked the same way), is
 * synced, and is renamed over the target: readers see the old or the new content, never a part.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { errors, fileKind } from '../../core/index.js';
import { isWithin } from '../workspaces/index.js';
import type { Target } from './types.js';

const C = fs.constants;
const READ_FLAGS = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);
const CREATE_FLAGS = C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0);

/** How much of a file's start decides whether it is text. */
export const SNIFF_BYTES = 8192;
/** Bytes read before the event loop gets a turn. */
const YIELD_BYTES = 1024 * 1024;

/** lstat of the target, or null when nothing is there. */
export function statOf(t: Target): fs.Stats | null {
  try {
    return fs.lstatSync(t.abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw ioRefusal(t, err);
  }
}

export interface OpenFile {
  reader: Reader;
  size: number;
  /** Permission bits (kept when the file is replaced). */
  mode: number;
  close(): void;
}

/**
 * Reads of one open file. They are synchronous: from the page cache a read takes microseconds,
 * where a promise round trip through the thread pool costs tens of them per call (a small
 * read_file spent most of its time there); after every YIELD_BYTES the event loop gets a turn, so
 * reading a large file never holds it for long.
 */
export class Reader {
  private sinceYield = 0;
  constructor(readonly fd: number) {}

  async read(buf: Buffer, offset: number, length: number, position: number): Promise<number> {
    if (this.sinceYield >= YIELD_BYTES) {
      this.sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const n = fs.readSync(this.fd, buf, offset, length, position);
    this.sinceYield += n;
    return n;
  }
}

/** Open an existing regular file for reading (see the header for the checks). */
export function openRegular(t: Target): OpenFile {
  const st = statOf(t);
  if (!st) throw errors.fileNotFound(t.input);
  if (!st.isFile()) throw errors.notARegularFile(t.input, fileKind(st));
  let fd: number;
  try {
    fd = fs.openSync(t.abs, READ_FLAGS);
  } catch (err) {
    throw ioRefusal(t, err);
  }
  try {
    const now = fs.fstatSync(fd);
    if (!now.isFile()) throw errors.notARegularFile(t.input, `${fileKind(now)} (it changed while being opened)`);
    openedInside(fd, t);
    return { reader: new Reader(fd), size: now.size, mode: now.mode & 0o7777, close: () => fs.closeSync(fd) };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** The whole content of a regular file of at most `limit` bytes. */
export async function readWhole(t: Target, limit: number, limitKey: string): Promise<{ bytes: Buffer; mode: number }> {
  const f = openRegular(t);
  try {
    if (f.size > limit) throw errors.fileTooLarge(t.input, f.size, limit, limitKey);
    // Read at most limit + 1 bytes: a file growing meanwhile is caught, not read without end.
    const buf = Buffer.alloc(Math.min(f.size, limit) + 1);
    let got = 0;
    for (;;) {
      const n = await f.reader.read(buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
      if (got === buf.length) break;
    }
    if (got > limit) throw errors.fileTooLarge(t.input, got, limit, limitKey);
    return { bytes: buf.subarray(0, got), mode: f.mode };
  } finally {
    f.close();
  }
}

/**
 * Whether the start of a file is binary: a NUL byte, or bytes that are not UTF-8 (an incomplete
 * character at the end of `head` counts as text when more of the file follows).
 */
export function looksBinary(head: Buffer, more: boolean): boolean {
  const part = head.subarray(0, SNIFF_BYTES);
  if (part.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(part, { stream: more || head.length > SNIFF_BYTES });
    return false;
  } catch {
    return true;
  }
}

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0x1f, 0x8b], 'application/gzip'],
  [[0x7f, 0x45, 0x4c, 0x46], 'application/x-executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'application/wasm'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'application/vnd.sqlite3'],
];

/** A media type guessed from the first bytes. */
export function mimeOf(head: Buffer): string {
  for (const [magic, mime] of MAGIC) if (magic.every((b, i) => head[i] === b)) return mime;
  return 'application/octet-stream';
}

/**
 * Replace (or create) `abs` with `data`: a temporary file beside it, synced, renamed over it.
 * `mode` null: a new file (0666 less the umask).
 */
export async function writeAtomic(t: Target, abs: string, data: Buffer, mode: number | null): Promise<void> {
  const tmp = path.join(path.dirname(abs), `.svc-${randomBytes(6).toString('hex')}.tmp`);
  const fh = await fsp.open(tmp, CREATE_FLAGS, mode ?? 0o666);
  try {
    openedInside(fh.fd, t);
    await fh.writeFile(data);
    if (mode !== null) await fh.chmod(mode);
    await fh.datasync();
  } catch (err) {
    await fh.close();
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  await fh.close();
  try {
    await fsp.rename(tmp, abs);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Create the missing directories above `abs` (inside the checked ancestor); returns those it
 * created, outermost first, so a rollback can remove them again.
 */
export async function makeParents(abs: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    try {
      const st = await fsp.lstat(dir);
      if (!st.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.unshift(dir);
    }
  }
  for (const dir of missing) await fsp.mkdir(dir);
  return missing;
}

/** The descriptor's real path must still be inside the target's root (Linux; elsewhere a no-op). */
function openedInside(fd: number, t: Target): void {
  if (process.platform !== 'linux') return;
  let real: string;
  try {
    real = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return;
  }
  if (!isWithin(t.root.root, real)) throw errors.pathOutsideWorkspace(t.input, 'it was moved out of the workspace while being opened');
}

/** An I/O error on a target as the refusal the model reads. */
export function ioRefusal(t: Target, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  if (code === 'ENOENT') return errors.fileNotFound(t.input);
  if (code === 'ELOOP') return errors.notARegularFile(t.input, 'a symlink');
  if (code === 'EISDIR') return errors.notARegularFile(t.input, 'a directory');
  if (code === 'ENXIO') return errors.notARegularFile(t.input, 'a socket');
  return errors.fileUnreadable(t.input, code);
}
