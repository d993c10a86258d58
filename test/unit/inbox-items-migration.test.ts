/**
 * Migration 032 (src/store/migrations/032-inbox-items.ts) over a database written before it: the
 * entries of one event for several subscriptions of one agent become one item listing them, which
 * stays unacknowledged while any of them was; summaries and match reasons are filled in; every event
 * item is remembered as materialised, so a reset after the upgrade brings none of them back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { createServices, startServices, stopServices, type Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';

const dirs: string[] = [];
let running: Services | null = null;
afterEach(async () => {
  if (running) await stopServices(running);
  running = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const at = (s: number) => `2030-01-01T00:00:0${s}.000Z`;
const event = (sourceId: string, offset: number, type: string) =>
  JSON.stringify({ sourceId, offset, id: `${type}:n${offset}`, type, subject: null, time: at(offset), data: { n: offset }, metadata: { m: offset }, appendedAt: at(offset), pruned: false });

/** A home whose database stops at version 31, with a source, two subscriptions of one agent and their old entries. */
function oldHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-m32-'));
  dirs.push(home);
  const db = new Database(path.join(home, 'svc.db'));
  for (const m of MIGRATIONS.filter((x) => x.version <= 31)) {
    db.exec(m.up);
    db.pragma(`user_version = ${m.version}`);
  }
  db.exec(`
    INSERT INTO inbox_hosts (host_id, host_type, host_key, config_json, created_ms) VALUES ('hst_1', 'local_event', 'k', '{}', 0);
    INSERT INTO inbox_sources (source_id, host_id, stream_kind, stream_key, config_json, state, created_ms, updated_ms) VALUES ('src_1', 'hst_1', 'events', 'demo', '{}', 'active', 0, 0);
    INSERT INTO inbox_agents (agent_id, name, delivery_paused, created_at) VALUES ('ops', NULL, 0, '${at(0)}');
    INSERT INTO inbox_subscriptions (subscription_id, agent_id, source_id, filter, cleanup_mode, start_policy, consumed_offset, created_at)
      VALUES ('sub_a', 'ops', 'src_1', '{}', 'manual', 'latest', 2, '${at(0)}'), ('sub_b', 'ops', 'src_1', '{"expr":"true"}', 'manual', 'latest', 2, '${at(0)}');
    INSERT INTO inbox_streams (stream_id, high_watermark, last_time_ms, created_ms) VALUES ('src_1', 2, 0, 0);
  `);
  const stored = db.prepare(
    "INSERT INTO inbox_events (stream_no, offset, event_id, type, time_ms, appended_ms, data_json, metadata_json, payload_bytes) VALUES (1, ?, ?, ?, ?, ?, ?, ?, 10)",
  );
  stored.run(1, 'a:n1', 'a', Date.parse(at(1)), Date.parse(at(1)), '{"n":1}', '{"m":1}');
  stored.run(2, 'b:n2', 'b', Date.parse(at(2)), Date.parse(at(2)), '{"n":2}', '{"m":2}');
  const insert = db.prepare(
    "INSERT INTO inbox_entries (entry_id, agent_id, kind, subscription_id, source_id, stream_offset, event, created_at, acked_at) VALUES (?, 'ops', 'event', ?, 'src_1', ?, ?, ?, ?)",
  );
  // Offset 1: both subscriptions, the first entry acknowledged, the second not. Offset 2: both, both acknowledged.
  insert.run('ent_01J00000000000000000000001', 'sub_a', 1, event('src_1', 1, 'a'), at(1), at(3));
  insert.run('ent_01J00000000000000000000002', 'sub_b', 1, event('src_1', 1, 'a'), at(1), null);
  insert.run('ent_01J00000000000000000000003', 'sub_a', 2, event('src_1', 2, 'b'), at(2), at(3));
  insert.run('ent_01J00000000000000000000004', 'sub_b', 2, event('src_1', 2, 'b'), at(2), at(4));
  db.prepare("INSERT INTO inbox_entries (entry_id, agent_id, kind, sender, message, created_at) VALUES ('ent_01J00000000000000000000005', 'ops', 'direct', 'me', 'hi', ?)").run(at(5));
  db.close();
  return home;
}

describe('migration 032: one item per event per agent', () => {
  it('merges the entries of one event, keeps it unacknowledged while any was, and never materialises them again', async () => {
    const home = oldHome();
    running = createServices(loadConfig({ home }, {}), new ManualClock(Date.parse(at(9))), createLogger('silent'));
    startServices(running);
    const { entries, subscriptions } = running.inbox;
    const all = entries.list('ops', { limit: 100, includeAcked: true });
    expect(all.map((e) => [e.entryId, e.matchedSubscriptionIds, e.ackedAt])).toEqual([
      ['ent_01J00000000000000000000001', ['sub_a', 'sub_b'], null],
      ['ent_01J00000000000000000000003', ['sub_a', 'sub_b'], at(3)],
      ['ent_01J00000000000000000000005', [], null],
    ]);
    expect(all[0]).toMatchObject({ summary: 'local_event:demo:a', sourceNativeId: 'n1', metadata: { m: 1, matchReason: 'filter shortcuts matched', subscriptionId: 'sub_a' } });
    expect(all[2]).toMatchObject({ summary: 'direct_text_message:me', itemKind: 'direct' });
    expect(subscriptions.reset('sub_b', { startPolicy: 'earliest' })).toMatchObject({ consumer: { startPolicy: 'earliest' } });
    subscriptions.runCatchUps();
    expect(entries.list('ops', { limit: 100, includeAcked: true })).toHaveLength(3);
  });
});
