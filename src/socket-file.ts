/**
 * The inbox socket's file. Its mode (0600) is the inbox API's only authentication, but bind(2)
 * creates the file with mode 0777 & ~umask: under umask 000, another user could connect between
 * the bind and a chmod after it, and keep that connection (and full inbox access) for good.
 *
 * So the socket is bound in a fresh 0700 directory beside its path, made 0600 there, and only
 * then hard-linked to its path, and the temporary name removed: at its path the socket appears
 * once, already 0600, and `link` fails if anything is there (as a bind would). The path clients
 * use stays `<home>/inbox.sock`. Setting process.umask() around the bind would also do, but the
 * umask is process-wide, Fastify binds a tick or more after `listen()` is called, and other
 * threads (libuv's pool, source workers) may create files meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';

/** `<dir>/.sXXXXXX/s`: the temporary directory's name and the socket's name in it. */
const TEMP_PREFIX = '.s';
const TEMP_EXTRA = `/${TEMP_PREFIX}XXXXXX/s`.length;

/** The longest path the socket is bound at: its own, or the temporary one beside it. */
export function bindPathLength(socketPath: string): number {
  return Math.max(socketPath.length, path.dirname(socketPath).length + TEMP_EXTRA);
}

/** The socket at its path, as `listenPrivately` placed it: removed at shutdown only if it is still this one. */
export interface PlacedSocket {
  path: string;
  dev: number;
  ino: number;
}

/**
 * Bind through `listen(tempPath)` (which resolves once listening), chmod 0600, link to
 * `socketPath`. On failure the temporary directory is gone and the caller closes the server.
 */
export async function listenPrivately(listen: (bindPath: string) => Promise<unknown>, socketPath: string): Promise<PlacedSocket> {
  const dir = fs.mkdtempSync(path.join(path.dirname(socketPath), TEMP_PREFIX));
  try {
    fs.chmodSync(dir, 0o700);
    const bound = path.join(dir, 's');
    await listen(bound);
    fs.chmodSync(bound, 0o600);
    fs.linkSync(bound, socketPath);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const st = fs.lstatSync(socketPath);
  return { path: socketPath, dev: st.dev, ino: st.ino };
}

/**
 * Remove the socket's file, unless something else has taken its path. Needed because the server
 * unlinks only the name it was bound at (the temporary one) when it closes.
 */
export function removeSocketFile(placed: PlacedSocket): void {
  const st = fs.lstatSync(placed.path, { throwIfNoEntry: false });
  if (st && st.dev === placed.dev && st.ino === placed.ino) fs.rmSync(placed.path, { force: true });
}
