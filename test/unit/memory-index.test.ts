/**
 * The memory index (src/runtime/memory/): a row per event holding text, written, rolled back and
 * deleted in the transactions of the events it indexes; the backfill of an older log after the
 * migration; ranking and the bounds of a query; hostile queries never reach FTS5 as syntax.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { EventRetention } from '../../src/events/index.js';
import { MemorySearch } from '../../src/runtime/memory/index.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { chunksOf } from '../../src/store/texts.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices({ agents: ['a', 'b'] });
});
afterEach(() => t.close());

const db = () => t.s.store.db;
const docs = (agent = 'a') =>
  db().prepare('SELECT event_seq, kind, message_id, turn_id, task_id, work_item_id, trust, authority FROM memory_docs WHERE agent_id = ? ORDER BY event_seq').all(agent) as Array<Record<string, unknown>>;
const ftsRows = () => db().prepare('SELECT count(*) FROM memory_fts').pluck().get() as number;

function append(agent: string, type: string, payload: Record<string, unknown>): number {
  return t.s.store.tx(() => t.s.events.append(agent, type, payload)).event_seq;
}
const say = (text: string, agent = 'a', extra: Record<string, unknown> = {}) =>
  append(agent, 'message_enqueued', { message_id: `msg_${Math.random().toString(36).slice(2)}`, body: { type: 'text', text }, ...extra });
const seqs = (query: string, agent = 'a', limit = 20) => t.s.memory.hits({ agentIds: [agent], query, limit }).hits.map((h) => h.event_seq);

describe('what is indexed', () => {
  it('indexes the text a person reads in each kind, with its ids and trust; nothing of other kinds or of companions', async () => {
    const operator = await t.s.ingress.controlPrompt('a', 'operator asks about the zebra migration');
    const stranger = await t.s.ingress.publicEnqueue('a', { text: 'stranger writes about the zebra too', origin: { kind: 'channel', source: 'chat' } });
    db().prepare("INSERT INTO turns (turn_id, agent_id, message_id, status, model_ref, started_at, trust) VALUES ('turn_1', 'a', ?, 'running', 'm', 'x', 'untrusted_external')").run(stranger.message_id);
    append('a', 'tool_result', { turn_id: 'turn_1', round: 1, tool_call_id: 'c1', tool_execution_id: 'tex_1', name: 'read_file', ok: true, content: 'zebra file contents' });
    t.s.briefs.create({ agentId: 'a', kind: 'result', title: 'done', text: 'the zebra is migrated', turnId: 'turn_1', messageId: stranger.message_id });
    append('a', 'task_create_requested', { task_id: 'task_1', kind: 'command', status: 'queued', summary: 'zebra build', cmd: 'make zebra' });
    append('a', 'task_status_changed', { task_id: 'task_1', kind: 'command', status: 'running' });
    append('a', 'work_item_created', { work_item_id: 'wi_1', objective: 'ship the zebra' });
    append('a', 'work_item_completed', { work_item_id: 'wi_1', result_summary: 'zebra shipped' });
    append('a', 'context_compacted', { turn_id: 'turn_1', summary: 'earlier turns talked about the zebra' });
    append('a', 'turn_entry', { turn_id: 'turn_1', message_id: stranger.message_id, kind: 'channel_event' });

    const kinds = docs().map((d) => d.kind);
    expect(kinds).toEqual(['message_enqueued', 'message_enqueued', 'tool_result', 'brief_created', 'task_create_requested', 'work_item_created', 'work_item_completed', 'context_compacted']);
    expect(docs()[0]).toMatchObject({ message_id: operator.message_id, trust: 'trusted_operator', authority: 'operator_instruction' });
    expect(docs()[1]).toMatchObject({ message_id: stranger.message_id, trust: 'untrusted_external', authority: 'external_evidence' });
    // What a turn left carries the turn's trust.
    expect(docs()[2]).toMatchObject({ turn_id: 'turn_1', trust: 'untrusted_external', authority: null });
    expect(docs()[3]).toMatchObject({ turn_id: 'turn_1', message_id: stranger.message_id, trust: 'untrusted_external' });
    expect(docs()[4]).toMatchObject({ task_id: 'task_1', trust: null });
    expect(docs()[6]).toMatchObject({ work_item_id: 'wi_1' });
    expect(ftsRows()).toBe(8);
    // Every kind is found by the word, and nothing else holds it (not the companion tool_executed).
    expect(t.s.memory.hits({ agentIds: ['a'], query: 'zebra', limit: 20 }).hits.map((h) => h.kind).sort()).toEqual([...kinds].sort());
    expect(t.s.memory.hits({ agentIds: ['a'], query: 'make', limit: 20 }).hits.map((h) => h.text)).toEqual(['zebra build\nmake zebra']);
  });

  it('indexes a long text stored in chunks whole, and reads it back exactly', () => {
    const text = `${'opening words '.repeat(60)}${'middle section '.repeat(400)} needle-at-the-end`;
    expect(chunksOf(text).length).toBeGreaterThan(1);
    const seq = say(text);
    expect(seqs('needle at the end')).toEqual([seq]);
    expect(t.s.memory.read('a', seq)!.text).toBe(text);
    expect(t.s.memory.search({ query: 'needle-at-the-end' }).results[0]!.preview.endsWith('needle-at-the-end')).toBe(true);
  });
});

describe('maintained in the transactions of the events', () => {
  it('a rolled-back append leaves no index row, and the agent number it allotted is not kept', () => {
    t.s.store.tx(() => t.s.agents.create('fresh', {}));
    expect(() =>
      t.s.store.tx(() => {
        t.s.events.append('fresh', 'message_enqueued', { message_id: 'msg_x', body: { type: 'text', text: 'rolled back words' } });
        // Written in the appending transaction, not after it (its text at the end of it).
        expect(docs('fresh').map((d) => d.message_id)).toEqual(['msg_x']);
        t.s.store.beforeCommit(() => expect(seqs('rolled', 'fresh')).toHaveLength(1));
        t.s.store.beforeCommit(() => {
          throw new Error('boom');
        });
      }),
    ).toThrow('boom');
    expect(docs('fresh')).toEqual([]);
    expect(ftsRows()).toBe(0);
    expect(db().prepare("SELECT count(*) FROM memory_agents WHERE agent_id = 'fresh'").pluck().get()).toBe(0);
    expect(seqs('rolled', 'fresh')).toEqual([]);
    // A savepoint rolled back inside a committed transaction: its row goes, the outer one stays.
    t.s.store.tx(() => {
      t.s.events.append('fresh', 'message_enqueued', { message_id: 'msg_y', body: { type: 'text', text: 'kept words' } });
      expect(() =>
        t.s.store.tx(() => {
          t.s.events.append('fresh', 'message_enqueued', { message_id: 'msg_z', body: { type: 'text', text: 'inner rolled words' } });
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(docs('fresh').map((d) => d.message_id)).toEqual(['msg_y']);
    expect(seqs('kept', 'fresh')).toHaveLength(1);
    expect(seqs('inner', 'fresh')).toEqual([]);
  });

  it('a prune in the transaction that appended leaves no text behind its row', () => {
    t.s.store.tx(() => {
      say('appended then purged');
      t.s.events.purge('a');
    });
    expect(docs()).toEqual([]);
    expect(ftsRows()).toBe(0);
  });

  it('retention deletes the rows of the events it prunes, in its batches', async () => {
    for (let i = 0; i < 12; i++) say(`retained word${i} common`);
    const retention = new EventRetention({ store: t.s.store, events: t.s.events, clock: t.clock }, { retainDays: 0, maxEvents: 5, batchSize: 4 });
    await retention.trigger();
    const oldest = t.s.events.oldestRetained('a');
    expect(docs().map((d) => d.event_seq)).toEqual(Array.from({ length: 5 }, (_, i) => oldest + i));
    expect(ftsRows()).toBe(5);
    expect(seqs('common')).toHaveLength(5);
    expect(seqs('word0')).toEqual([]);
  });

  it("an agent's deletion purges its rows and no other agent's; the same id later starts afresh", async () => {
    say('alpha of a');
    say('alpha of b', 'b');
    t.s.deletion.request('a', { cascadePrivateChildren: false });
    await t.s.deletion.idle();
    expect(docs('a')).toEqual([]);
    expect(docs('b')).toHaveLength(1);
    expect(ftsRows()).toBe(1);
    t.s.store.tx(() => t.s.agents.create('a', {}));
    const seq = say('alpha again');
    expect(seqs('alpha')).toEqual([seq]);
  });
});

describe('the backfill of events stored before the index', () => {
  it('indexes an older log after the migration, while new events are indexed as they come', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-memory-'));
    try {
      const open = () => createServices(loadConfig({ home }, {}), new ManualClock(), createLogger('silent'));
      let s = open();
      s.runLoop.scheduler.disable();
      s.store.tx(() => s.agents.create('old', {}));
      const long = `${'long text '.repeat(300)} tail-word`;
      s.store.tx(() => {
        for (let i = 0; i < 1203; i++) s.events.append('old', 'message_enqueued', { message_id: `msg_${i}`, body: { type: 'text', text: i === 7 ? long : `older message ${i}` } });
      });
      await stopServices(s);
      // The database as svc left it before migration 029 (and the later ones).
      const raw = new Database(path.join(home, 'svc.db'));
      raw.exec('DROP TABLE memory_fts; DROP TABLE memory_docs; DROP TABLE memory_agents; DROP TABLE memory_backfill');
      raw.exec('DROP TABLE usage_rounds; DROP TABLE usage_days; DROP TABLE usage_resumes');
      raw.exec('DROP TABLE context_compactions; DROP TABLE context_state; ALTER TABLE conversation_history DROP COLUMN tokens');
      raw.exec(
        'DROP INDEX inbox_entries_thread; DROP TABLE inbox_threads; DROP TABLE inbox_materialized; ' +
          'CREATE UNIQUE INDEX inbox_entries_source_offset ON inbox_entries(source_id, stream_offset, subscription_id) WHERE subscription_id IS NOT NULL',
      );
      for (const column of ['subscription_ids', 'match_reason', 'summary', 'thread_id', 'revision', 'superseded_at', 'snapshot']) raw.exec(`ALTER TABLE inbox_entries DROP COLUMN ${column}`);
      raw.exec('ALTER TABLE inbox_agents DROP COLUMN inbox_policy; ALTER TABLE inbox_hosts DROP COLUMN config_ref; ALTER TABLE inbox_targets DROP COLUMN lease_expires_ms; ' +
        'ALTER TABLE inbox_subscriptions DROP COLUMN consumer_start_policy; ALTER TABLE inbox_subscriptions DROP COLUMN consumer_start_offset; ' +
        'ALTER TABLE inbox_subscriptions DROP COLUMN consumer_start_time; ALTER TABLE inbox_subscriptions DROP COLUMN consumer_updated_at; ' +
        'DROP INDEX inbox_notifications_activations; ALTER TABLE inbox_notifications DROP COLUMN target_kind; ALTER TABLE inbox_agents DROP COLUMN last_seen_ms; DROP TABLE inbox_opened_inboxes');
      raw.pragma('user_version = 28');
      raw.close();

      s = open();
      s.runLoop.scheduler.disable();
      expect(s.store.db.prepare('SELECT agent_id, next_seq, through_seq FROM memory_backfill').all()).toEqual([{ agent_id: 'old', next_seq: 1, through_seq: s.events.head('old') }]);
      startServices(s);
      const added = s.store.tx(() => s.events.append('old', 'message_enqueued', { message_id: 'msg_new', body: { type: 'text', text: 'older message new' } }));
      await s.memoryIndex.idle();
      expect(s.store.db.prepare('SELECT count(*) FROM memory_backfill').pluck().get()).toBe(0);
      expect(s.memory.hits({ agentIds: ['old'], query: 'older', limit: 100 }).hits).toHaveLength(100);
      expect(s.store.db.prepare("SELECT count(*) FROM memory_docs WHERE agent_id = 'old'").pluck().get()).toBe(1204);
      expect(s.memory.hits({ agentIds: ['old'], query: 'tail-word', limit: 5 }).hits.map((h) => h.message_id)).toEqual(['msg_7']);
      expect(s.memory.hits({ agentIds: ['old'], query: 'new', limit: 5 }).hits.map((h) => h.event_seq)).toEqual([added.event_seq]);
      await stopServices(s);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('queries', () => {
  it('ranks by bm25: the text where the words weigh most first, the newer first among equals', () => {
    const once = say('a long message that mentions the gateway once among many other words about unrelated things entirely');
    const twice = say('gateway gateway timeout');
    const both = say('the gateway returned a timeout');
    const same1 = say('identical words here');
    const same2 = say('identical words here');
    expect(seqs('gateway')[0]).toBe(twice);
    expect(seqs('gateway').at(-1)).toBe(once);
    expect(seqs('gateway timeout')).toEqual([twice, both]);
    expect(seqs('identical')).toEqual([same2, same1]);
    // No text holds every word: any of them.
    expect(seqs('gateway nowhere-to-be-found').sort()).toEqual([once, twice, both].sort());
    // Stems, case and diacritics: the tokenizer's, not substrings of words.
    const cafe = say('Le CAFÉ était fermé; deploying later');
    expect(seqs('cafe')).toEqual([cafe]);
    expect(seqs('deployed')).toEqual([cafe]);
    expect(seqs('caf')).toEqual([]);
  });

  it('searches only the agents asked for; across agents, the public ones by default', () => {
    const a = say('shared topic from a');
    say('shared topic from b', 'b');
    t.s.store.tx(() => t.s.agents.create('hidden', { visibility: 'private' } as never));
    expect(seqs('shared', 'a')).toEqual([a]);
    const all = t.s.memory.search({ query: 'shared topic' }).results.map((r) => r.agent_id).sort();
    expect(all).toEqual(['a', 'b']);
  });

  it('keeps only the kinds asked for', () => {
    say('kinds word in a message');
    append('a', 'work_item_created', { work_item_id: 'wi_k', objective: 'kinds word in an objective' });
    expect(t.s.memory.hits({ agentIds: ['a'], query: 'kinds', limit: 10, kinds: ['work_item_created'] }).hits.map((h) => h.kind)).toEqual(['work_item_created']);
  });

  it('leaves out words too common to rank by, and answers a query of such words only newest first', () => {
    const memory = new MemorySearch({ store: t.s.store, agents: t.s.agents, index: t.s.memoryIndex, bounds: { commonTexts: 5, rankedCandidates: 3 } });
    const seqsOf = (query: string) => memory.hits({ agentIds: ['a'], query, limit: 10 });
    const all = Array.from({ length: 8 }, (_, i) => say(i === 0 ? 'filler rare filler rare filler' : `filler number ${i}${i === 1 ? ' rare' : ''}`));
    const rare = seqsOf('filler rare');
    expect(rare).toMatchObject({ order: 'relevance', terms: ['rare'], common: ['filler'] });
    expect(rare.hits.map((h) => h.event_seq)).toEqual([all[0], all[1]]);
    const common = seqsOf('filler');
    expect(common.order).toBe('recency');
    expect(common.hits.map((h) => h.event_seq)).toEqual([...all].reverse());
    // Ranked among the newest candidates only.
    for (let i = 0; i < 3; i++) say('rare');
    expect(seqsOf('rare').hits.map((h) => h.event_seq)).not.toContain(all[0]);
  });

  it('bounds the preview to 240 characters around the first hit', () => {
    const text = `${'lorem ipsum '.repeat(100)}the quarry is here ${'dolor sit '.repeat(100)}`;
    say(text);
    const [r] = t.s.memory.search({ query: 'quarry' }).results;
    expect(r!.preview.length).toBeLessThanOrEqual(240);
    expect(r!.preview).toContain('the quarry is here');
    expect(r!.preview.startsWith('…') && r!.preview.endsWith('…')).toBe(true);
  });

  it('never hands a query to FTS5 as syntax: hostile input finds what its words find, or nothing, and never throws', () => {
    const seq = say('plain words: alpha beta "quoted" gamma-delta msg_01abc col:value (paren) NEAR');
    const hostile = ['"', '""', '"""', '*', 'alpha*', '-alpha', 'NOT alpha', 'alpha OR', 'OR', 'AND', 'NEAR(alpha beta)', 'NEAR', 'text:alpha', 'col:value', '(', ')', '(alpha', '^alpha', '+', '{alpha beta}', 'alpha\u0000beta', '\u0000', '\ud800alpha', "'; DROP TABLE memory_fts; --", '"alpha" OR "beta', 'msg_01abc', 'gamma-delta', '🙂', '\\', '%', '_'];
    for (const query of hostile) {
      expect(() => t.s.memory.search({ query, agentIds: ['a'] }), query).not.toThrow();
    }
    expect(seqs('NEAR(alpha beta)')).toEqual([seq]);
    expect(seqs('text:alpha')).toEqual([]);
    expect(seqs('col:value')).toEqual([seq]);
    expect(seqs('msg_01abc')).toEqual([seq]);
    expect(seqs('"beta quoted"')).toEqual([seq]);
    expect(seqs('"alpha gamma"')).toEqual([]);
    expect(seqs('alpha\u0000beta')).toEqual([seq]);
    expect(seqs('-alpha')).toEqual([seq]);
    expect(seqs('*')).toEqual([]);
    expect(seqs('x '.repeat(500))).toEqual([]);
    expect(db().prepare('SELECT count(*) FROM memory_fts').pluck().get()).toBe(1);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('"', '*', '-', ':', '(', ')', ' ', 'NEAR', 'OR', 'a', 'é', '\u0000', '^', '{', '}', '+', "'", '\ud800') }), (query) => {
        t.s.memory.hits({ agentIds: ['a'], query, limit: 5 });
      }),
      { numRuns: 300 },
    );
  });
});
