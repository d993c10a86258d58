/**
 * Reading an HTTP answer's body from a peer svc does not trust (a model server, GitHub or the
 * server it is configured as, a webhook receiver) without letting it hold the event loop or the
 * daemon's memory: at most a given number of bytes, and a turn of the event loop between chunks.
 */
/**
 * A body read as it arrives, at most `maxBytes` of it: past that the rest is not read and the
 * connection is dropped, and the answer is null (or, with `truncate`, the first `maxBytes`). Each
 * chunk is content (restarts the idle timer).
 */
export async function readBody(res: Response, maxBytes: number, alive: () => void = () => {}, truncate = false): Promise<string | null> {
  if (!res.body) return '';
  if (!truncate && Number(res.headers.get('content-length') ?? NaN) > maxBytes) {
    await res.body.cancel().catch(() => {});
    return null;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  // Leaving the loop early cancels the body, which closes the connection.
  for await (const chunk of chunksOf(res.body)) {
    const room = maxBytes - total;
    if (chunk.byteLength > room) {
      if (!truncate) return null;
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, room));
      total = maxBytes;
      break;
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    total += chunk.byteLength;
    alive();
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Bytes handled between two turns of the event loop at most. */
const YIELD_BYTES = 256 * 1024;

/**
 * A body's chunks, with a turn of the event loop after every YIELD_BYTES: a fast server's bytes
 * queue up faster than they are read, and without the pause they are all read in one go while
 * every other request (the owner's handshake included) waits.
 */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  let since = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    yield chunk;
    since += chunk.byteLength;
    if (since >= YIELD_BYTES) {
      since = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
