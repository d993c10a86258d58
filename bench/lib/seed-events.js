/**
 * Builds large event logs fast by writing rows straight into a stopped daemon's database (the
 * daemon created the schema on a first start). Rows look like the ones svc appends: a turn's
 * worth of kinds in a cycle (message_enqueued ... message_completed), levels from the product's
 * own table, ~300-byte JSON payloads, ULID-shaped ids, increasing timestamps.
 */
import Database from 'better-sqlite3';
import { LEVEL_RANK, levelOf } from '../../dist/events/wire/levels.js';

const ROWS_PER_TX = 50_000;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const WORDS = 'the agent read the ticket and summarised the failing build then asked for the logs of the last deploy and compared them with the runbook before proposing a fix'.split(' ');

/** One turn of a typical agent log, in order. */
const CYCLE = ['message_enqueued', 'message_processing', 'model_round', 'model_delta', 'model_delta', 'model_delta', 'tool_call', 'tool_result', 'model_round', 'model_delta', 'turn_completed', 'message_completed'];

/**
 * Append events to each agent's log until it holds `total` events. Returns rows written.
 * `plan` is [{ agentId, total }].
 */
export function seedEvents(dbFile, plan, log = () => {}) {
  const db = new Database(dbFile);
  try {
    // Bulk load: the daemon is stopped and will switch the file back to WAL when it opens it.
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const insert = db.prepare('INSERT INTO events (agent_id, event_seq, id, ts, type, level, payload) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const headOf = db.prepare('SELECT coalesce(max(event_seq), 0) AS head FROM events WHERE agent_id = ?');
    const writeChunk = db.transaction((agentId, from, to, total, end) => {
      for (let seq = from; seq <= to; seq++) {
        // Spread the log over the past, 50 ms apart, ending now.
        const row = eventRow(seq, end - (total - seq) * 50);
        insert.run(agentId, seq, row.id, row.ts, row.type, row.level, row.payload);
      }
    });
    let written = 0;
    for (const { agentId, total } of plan) {
      const head = headOf.get(agentId).head;
      const end = Date.now();
      for (let from = head + 1; from <= total; from += ROWS_PER_TX) {
        const to = Math.min(total, from + ROWS_PER_TX - 1);
        writeChunk(agentId, from, to, total, end);
        written += to - from + 1;
        if ((to - head) % 250_000 === 0 || to === total) log(`  seeded ${agentId}: ${to.toLocaleString('en-US')} events`);
      }
    }
    return written;
  } finally {
    db.close();
  }
}

function eventRow(seq, t) {
  const type = CYCLE[seq % CYCLE.length];
  const turn = Math.floor(seq / CYCLE.length);
  const messageId = `msg_${ulidAt(t - (seq % CYCLE.length) * 50, turn)}`;
  const text = words(seq, 14 + (seq % 9));
  let payload;
  let provenance = null;
  switch (type) {
    case 'message_enqueued':
      provenance = { origin: { kind: 'channel', channel_id: 'ops', sender_id: `u${turn % 17}` }, trust: 'external_user', authority_class: 'external_request', priority: 'normal', kind: 'channel_message', delivery_surface: 'public_enqueue', message_id: messageId };
      payload = { message_id: messageId, kind: 'channel_message', priority: 'normal', body: { type: 'text', text }, metadata: {}, provenance };
      break;
    case 'model_delta':
      payload = { message_id: messageId, round: seq % 3, delta: text, tokens: 12 + (seq % 40) };
      break;
    case 'tool_call':
      payload = { message_id: messageId, call_id: `call_${turn}`, tool: 'shell', arguments: { command: `grep -rn ${WORDS[seq % WORDS.length]} logs/` } };
      break;
    case 'tool_result':
      payload = { message_id: messageId, call_id: `call_${turn}`, ok: true, output_preview: text, bytes: 1000 + (seq % 5000) };
      break;
    case 'turn_completed':
      payload = { message_id: messageId, turn_id: `turn_${ulidAt(t, seq)}`, rounds: 2, usage: { input_tokens: 1800 + (seq % 700), output_tokens: 240 + (seq % 90) }, summary: text };
      break;
    default:
      payload = { message_id: messageId, model: 'builtin/echo', status: type.split('_')[1], note: text };
  }
  return {
    id: `evt_${ulidAt(t, seq)}`,
    ts: new Date(t).toISOString(),
    type,
    level: LEVEL_RANK[levelOf(type)],
    payload: JSON.stringify(payload),
  };
}

function words(seed, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(WORDS[(seed * 7 + i * 3) % WORDS.length]);
  return out.join(' ');
}

/** A ULID-shaped id: 10 characters of time, 16 of a per-row counter (cheap and unique). */
function ulidAt(ms, n) {
  let s = '';
  for (let i = 9, t = ms; i >= 0; i--, t = Math.floor(t / 32)) s = CROCKFORD[t % 32] + s;
  let r = '';
  for (let i = 0, v = n; i < 16; i++, v = Math.floor(v / 32)) r = CROCKFORD[v % 32] + r;
  return s + r;
}
