/**
 * An example remote-source module for svc: follows a JSON Lines file and turns each new line into
 * an event. Copy it to <home>/source-modules/ (svc loads modules only from there and from the
 * directories of inbox.module_dirs) and register it with
 *
 *   svc inbox hosts create --type remote_source --key files
 *   svc inbox sources create --host HOST_ID --kind jsonl --key app-log \
 *     --config '{"modulePath":"jsonl-file.mjs",
 *                "moduleConfig":{"path":"/var/log/app/events.jsonl","type":"app.log"},
 *                "pollIntervalMs":5000}'
 *
 * moduleConfig: `path` (absolute file, required), `type` (event type when a line has none,
 * default "jsonl.line"), `maxEvents` (per poll, default 1000).
 * Each line is either an event object ({type, id?, subject?, time?, data?, metadata?}) or any
 * other JSON value, which becomes `data`. The cursor `{offset, rotation}` is the byte offset read so
 * far and how often the file was seen to shrink (rotated or truncated: read again from the
 * start); ids default to "<path>:<rotation>:<byte offset>", so a repeated poll from an older cursor
 * is deduplicated by the stream while a rotated file's lines are new events.
 *
 * The module interface (docs/inbox-api.md#remote-sources-and-the-module-interface): default export
 * `{ poll, validate?, configSchema? }`. configSchema is a JSON Schema of moduleConfig (svc checks
 * it before validate runs, and serves it at GET /sources/{id}/schema);
 * poll({moduleConfig, cursor, configRef, hostConfig, credential, now, signal}) -> {events, cursor};
 * validate(moduleConfig) throws to refuse a config. It runs in a worker thread with a time limit.
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';

const EVENT_KEYS = new Set(['id', 'type', 'subject', 'time', 'data', 'metadata']);

function validate(moduleConfig) {
  if (!moduleConfig || typeof moduleConfig !== 'object') throw new Error('moduleConfig must be an object with a path');
  if (typeof moduleConfig.path !== 'string' || !path.isAbsolute(moduleConfig.path)) throw new Error('moduleConfig.path must be an absolute file path');
  if (moduleConfig.type !== undefined && (typeof moduleConfig.type !== 'string' || moduleConfig.type === '')) throw new Error('moduleConfig.type must be a non-empty string');
  if (moduleConfig.maxEvents !== undefined && !(Number.isInteger(moduleConfig.maxEvents) && moduleConfig.maxEvents > 0)) {
    throw new Error('moduleConfig.maxEvents must be a positive integer');
  }
}

function toEvent(value, fallbackType, id) {
  const isEvent =
    value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.type === 'string' && Object.keys(value).every((k) => EVENT_KEYS.has(k));
  return isEvent ? { id, ...value } : { id, type: fallbackType, data: value };
}

async function poll({ moduleConfig, cursor, signal }) {
  validate(moduleConfig);
  const file = moduleConfig.path;
  const maxEvents = moduleConfig.maxEvents ?? 1000;
  let start = Number.isInteger(cursor?.offset) && cursor.offset >= 0 ? cursor.offset : 0;
  let rotation = Number.isInteger(cursor?.rotation) ? cursor.rotation : 0;
  let size;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    if (err.code === 'ENOENT') return { events: [], cursor: { offset: start, rotation } };
    throw err;
  }
  if (size < start) {
    start = 0; // rotated or truncated
    rotation++;
  }
  if (size === start) return { events: [], cursor: { offset: start, rotation } };
  const handle = await open(file, 'r');
  try {
    const length = Math.min(size - start, 8 * 1024 * 1024);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, start);
    const events = [];
    let at = 0;
    while (events.length < maxEvents && !signal.aborted) {
      const nl = buf.indexOf(10, at);
      if (nl === -1) break; // an unfinished last line waits for the next poll
      const line = buf.subarray(at, nl).toString('utf8').trim();
      const offset = start + at;
      at = nl + 1;
      if (line === '') continue;
      let value;
      try {
        value = JSON.parse(line);
      } catch {
        value = { invalidLine: line };
      }
      events.push(toEvent(value, moduleConfig.type ?? 'jsonl.line', `${file}:${rotation}:${offset}`));
    }
    return { events, cursor: { offset: start + at, rotation } };
  } finally {
    await handle.close();
  }
}

/** moduleConfig's shape; the rule a schema cannot say (an absolute path) stays in validate. */
const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: { type: 'string', minLength: 1, description: 'absolute path of the JSON Lines file' },
    type: { type: 'string', minLength: 1, description: 'event type of lines that are not events (default jsonl.line)' },
    maxEvents: { type: 'integer', minimum: 1, description: 'events per poll (default 1000)' },
  },
};

export default { poll, validate, configSchema };
