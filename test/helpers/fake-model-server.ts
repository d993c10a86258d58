/**
 * The scriptable core of the fake model servers (fake-openai.ts, fake-anthropic.ts): a real HTTP
 * server on 127.0.0.1:0 that records every request and answers from a queue of scripted replies.
 *
 * API (both fakes):
 * - `url`: the base_url to configure, including `/v1` (`[providers.x] base_url = fake.url`).
 * - `enqueue(...replies)`: answers for the next completion requests, in order; when the queue is
 *   empty, `defaultReply` answers (a streamed "ok").
 * - A `Reply` is one of:
 *   - `{ text?: string[], thoughts?: string[], toolCalls?: [{id?, name, args: string[]}], finish?, usage?, json?, hangAfter? }`:
 *     a normal answer, streamed as SSE in the provider's real wire format (thoughts, then text chunks,
 *     then each tool call with its argument fragments, then finish and usage); `json: true` answers
 *     one plain application/json document instead; `hangAfter: true` streams the pieces and then
 *     keeps the connection open until the client aborts; `after: promise` answers once it settles.
 *   - `{ type: 'error', status, message?, retryAfter? }`: that HTTP status with the provider's error
 *     body and an optional Retry-After header.
 *   - `{ type: 'hang' }`: never answers (not even headers) until the client goes away.
 *   - `{ type: 'raw', status?, contentType, body }`: exactly these bytes (malformed answers).
 *   - `{ type: 'flood', status?, contentType, prefix, bytes, suffix? }` (hostile): `prefix`, then `bytes` of
 *     "x" written as fast as the client reads them, then `suffix`; a huge SSE line or JSON body.
 *     `floods` records each one: bytes written and whether the client hung up before the end.
 *   - `{ type: 'drip', everyMs, frame? }` (hostile): an event stream that sends `frame` (default an
 *     SSE comment, a keep-alive) every `everyMs` and never ends, until the client goes away.
 * - `models` (mutable): the ids `GET /v1/models` lists; `enqueueModels(reply)` scripts the next
 *   listing answers (`error`, `hang`, `raw`), after which it lists `models` again.
 * - `requests`: every request received `{method, path, headers, body}` (body parsed as JSON when it
 *   is JSON); `completions()` only the completion POSTs.
 * - `close()`: stops the server and drops open connections (hanging replies included).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** Argument fragments, sent one per chunk; joined they are the arguments' JSON text. */
  args: string[];
}

export interface AnswerReply {
  type?: 'answer';
  text?: string[];
  thoughts?: string[];
  toolCalls?: ScriptedToolCall[];
  /** The provider's own finish word; default: tool calls → tool_calls / tool_use, else stop / end_turn. */
  finish?: string;
  /**
   * Token counts as the provider's wire format spells them: `input` is chat completions'
   * `prompt_tokens` (the whole prompt) or the Messages API's `input_tokens` (the part after the
   * cache); the others are sent only when given.
   */
  usage?: { input: number; output: number; cache_read?: number; cache_write?: number; reasoning?: number };
  /** One application/json document instead of an event stream. */
  json?: boolean;
  /** Stream everything, then keep the connection open until the client aborts. */
  hangAfter?: boolean;
  /** Answer only once this settles (the test decides when the model replies). */
  after?: Promise<unknown>;
}

export type Reply =
  | AnswerReply
  | { type: 'error'; status: number; message?: string; retryAfter?: string }
  | { type: 'hang' }
  | { type: 'raw'; status?: number; contentType: string; body: string }
  | { type: 'flood'; status?: number; contentType: string; prefix: string; bytes: number; suffix?: string }
  | { type: 'drip'; everyMs: number; frame?: string };

export interface FloodRecord {
  written: number;
  /** The client closed the connection before the whole body was written. */
  cutShort: boolean;
  done: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** How one provider speaks: paths, the answer as SSE frames or one JSON document, its error body. */
export interface WireFormat {
  completionPath: string;
  frames(reply: AnswerReply, request: RecordedRequest): string[];
  document(reply: AnswerReply, request: RecordedRequest): unknown;
  errorBody(status: number, message: string): unknown;
}

export class FakeModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly floods: FloodRecord[] = [];
  /** Frames sent by drip replies, all together. */
  dripped = 0;
  models: string[] = [];
  defaultReply: Reply = { text: ['ok'] };
  /**
   * Chooses a reply from the request (e.g. by the agent named in its system prompt) before the
   * queue is consulted; undefined falls through to the queue. For several agents on one server.
   */
  responder: ((request: RecordedRequest) => Reply | undefined) | null = null;
  private readonly queue: Reply[] = [];
  private readonly modelsQueue: Reply[] = [];
  private readonly server: http.Server;
  url = '';

  constructor(private readonly wire: WireFormat) {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (raw += d));
      req.on('end', () => void this.handle(req, res, raw));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  enqueue(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  enqueueModels(...replies: Reply[]): void {
    this.modelsQueue.push(...replies);
  }

  completions(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === `/v1${this.wire.completionPath}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      /* recorded as text */
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const recorded: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body };
    this.requests.push(recorded);
    if (req.method === 'GET' && path === '/v1/models') {
      const scripted = this.modelsQueue.shift();
      if (scripted) return this.answer(scripted, recorded, res);
      return sendJson(res, 200, { object: 'list', data: this.models.map((id) => ({ id, object: 'model', type: 'model', display_name: id })), has_more: false });
    }
    if (req.method === 'POST' && path === `/v1${this.wire.completionPath}`) {
      return this.answer(this.responder?.(recorded) ?? this.queue.shift() ?? this.defaultReply, recorded, res);
    }
    sendJson(res, 404, this.wire.errorBody(404, `no route ${req.method} ${path}`));
  }

  private async answer(reply: Reply, request: RecordedRequest, res: http.ServerResponse): Promise<void> {
    if (reply.type === 'hang') return; // the response stays open until the client or close() ends it
    if (reply.type === 'error') {
      if (reply.retryAfter !== undefined) res.setHeader('retry-after', reply.retryAfter);
      return sendJson(res, reply.status, this.wire.errorBody(reply.status, reply.message ?? `scripted error ${reply.status}`));
    }
    if (reply.type === 'raw') {
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType });
      res.end(reply.body);
      return;
    }
    if (reply.type === 'flood') return this.flood(reply, res);
    if (reply.type === 'drip') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = () => {
        res.write(reply.frame ?? ': keep-alive\n\n');
        this.dripped++;
      };
      send();
      const timer = setInterval(send, reply.everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (reply.after) await reply.after.catch(() => undefined);
    if (reply.json) return sendJson(res, 200, this.wire.document(reply, request));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of this.wire.frames(reply, request)) {
      if (res.destroyed) return;
      res.write(frame);
      // Separate writes, so the client sees separate chunks.
      await new Promise((r) => setImmediate(r));
    }
    if (!reply.hangAfter) res.end();
  }

  private async flood(reply: Extract<Reply, { type: 'flood' }>, res: http.ServerResponse): Promise<void> {
    const record: FloodRecord = { written: 0, cutShort: false, done: false };
    this.floods.push(record);
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType });
    res.write(reply.prefix);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    while (record.written < reply.bytes && !res.destroyed) {
      const piece = reply.bytes - record.written >= chunk.length ? chunk : chunk.subarray(0, reply.bytes - record.written);
      record.written += piece.length;
      if (!res.write(piece)) await drained(res);
    }
    record.cutShort = res.destroyed;
    if (!res.destroyed) res.end(reply.suffix ?? '');
    record.done = true;
  }
}

/** Until `res` can take more, or is gone. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** One SSE frame (`event:` only when named). */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
