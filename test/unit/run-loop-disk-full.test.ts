/**
 * The run loop when the disk refuses its writes (runtime/run-loop/write-retry.ts): the worker keeps
 * the write and tries it again with backoff measured on the injected clock, logs the streak once,
 * and goes on by itself once writes succeed. A refused write here is the store's own failure: the
 * write runs in its transaction, then fails as SQLite fails on a full disk (SqliteError
 * SQLITE_FULL), so the transaction rolls back with its hooks. A real full disk, end to end, is
 * test/integration/disk-full.test.ts.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deriveProvenance } from '../../src/core/provenance.js';
import type { Tool } from '../../src/runtime/tools/types.js';
import { RETRY_INITIAL_MS } from '../../src/runtime/run-loop/write-retry.js';
import { startServices } from '../../src/services.js';
import { gate, scriptedAgent, until, type ScriptProvider } from '../helpers/run-loop.js';
import { testServices, type TestServices } from '../helpers/services.js';

const REFUSED = 'run loop write refused by the disk; retrying with backoff until it succeeds';
const RESUMED = 'run loop writes succeed again; the agent goes on';

let t: TestServices;
let provider: ScriptProvider;
/** While true, every group-committed write is refused as by a full disk. */
let full = false;
let refusals = 0;
let errorLog: ReturnType<typeof vi.spyOn>;
let infoLog: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  full = false;
  refusals = 0;
  t = testServices({ start: false, runLoop: true });
  provider = scriptedAgent(t.s);
  const store = t.s.store;
  const write = store.write.bind(store);
  vi.spyOn(store, 'write').mockImplementation((fn, opts) =>
    write(() => {
      const value = fn();
      if (full) {
        refusals++;
        throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
      }
      return value;
    }, opts),
  );
  errorLog = vi.spyOn(t.s.logger, 'error');
  infoLog = vi.spyOn(t.s.logger, 'info');
  startServices(t.s);
});

afterEach(async () => {
  full = false;
  await t.close();
});

const scheduler = () => t.s.runLoop.scheduler;
const statusOf = (id: string) => t.s.queue.get(id)!.status;
const logged = (spy: ReturnType<typeof vi.spyOn>, msg: string) => spy.mock.calls.filter((c: unknown[]) => c[1] === msg).length;

function enqueue(text: string): string {
  const provenance = deriveProvenance('runtime', { kind: 'system', subsystem: 'test' }, {});
  return t.s.store.tx(() => t.s.ingress.enqueueNow('main', provenance, { type: 'text', text })).message_id;
}

/** The next model answer is `text`, given once the returned function is called. */
function heldReply(text: string): () => void {
  const reply = gate();
  provider.steps.push(async () => {
    await reply.opened;
    return { text, toolCalls: [], stopReason: 'stop' };
  });
  return reply.open;
}

/** Move the clock by `ms` and let the run loop try what is due. */
function advance(ms: number): void {
  t.clock.advance(ms);
  scheduler().retryDue();
}

describe('writes the disk refuses', () => {
  it('leave the worker retrying with backoff on the clock; once writes succeed the queued messages are answered, no restart; one log line per streak', async () => {
    full = true;
    const ids = [enqueue('one'), enqueue('two'), enqueue('three')];
    await until(() => scheduler().retryingWrites === 1 && refusals === 1, 'the first refusal');
    // The backoff is the clock's: nothing is tried before it has passed, however long we wait.
    await new Promise((r) => setTimeout(r, RETRY_INITIAL_MS + 100));
    expect(refusals).toBe(1);
    advance(RETRY_INITIAL_MS - 1);
    expect(refusals).toBe(1);
    advance(1);
    await until(() => refusals === 2 && scheduler().retryingWrites === 1, 'the second attempt');
    // Doubled: the next attempt waits 2 x the first delay.
    advance(RETRY_INITIAL_MS);
    await new Promise((r) => setTimeout(r, 20));
    expect(refusals).toBe(2);
    advance(RETRY_INITIAL_MS);
    await until(() => refusals === 3, 'the third attempt');
    expect(ids.map(statusOf)).toEqual(['queued', 'queued', 'queued']);
    expect(logged(errorLog, REFUSED)).toBe(1);

    full = false;
    advance(10_000);
    await until(() => ids.every((id) => statusOf(id) === 'completed'), 'every message answered');
    expect(t.s.briefs.list('main', {}).filter((b) => b.kind === 'result')).toHaveLength(3);
    expect(scheduler().retryingWrites).toBe(0);
    expect(logged(errorLog, REFUSED)).toBe(1);
    expect(logged(infoLog, RESUMED)).toBe(1);
    expect(logged(errorLog, 'run loop worker failed; the agent resumes on its next message')).toBe(0);
    await until(() => t.s.agents.statusOf('main') === 'idle', 'idle');
  });

  it('a turn whose end cannot be recorded stays current and is recorded once writes succeed: completed once, activities numbered without gaps', async () => {
    const answer = heldReply('the answer');
    const first = enqueue('first');
    await until(() => scheduler().current('main') !== null, 'the turn');
    const turnId = scheduler().current('main')!.turnId;
    const second = enqueue('second');
    full = true;
    answer();
    await until(() => refusals >= 1 && scheduler().retryingWrites === 1, 'the refused end of turn');
    advance(RETRY_INITIAL_MS);
    await until(() => refusals >= 2, 'a second attempt');
    // Not failed, not lost: the message is still being processed, its turn still current.
    expect(statusOf(first)).toBe('processing');
    expect(scheduler().current('main')?.turnId).toBe(turnId);
    expect(t.s.runLoop.views.activities('main', turnId).turn.status).toBe('running');

    full = false;
    advance(10_000);
    await until(() => statusOf(second) === 'completed', 'the second message');
    expect(statusOf(first)).toBe('completed');
    expect(t.s.briefs.list('main', {}).find((b) => b.message_id === first)).toMatchObject({ kind: 'result', text: 'the answer' });
    expect(t.s.runLoop.views.activities('main', turnId).activities.map((a) => a.seq)).toEqual([1]);
  });

  it('a tool round whose record is refused waits too; a control stop ends the wait and the stop is recorded', async () => {
    const tool: Tool = { name: 'noop', class: 'read', description: 'test tool', parameters: { type: 'object' }, execute: async () => ({ ok: true, content: 'done' }) };
    t.s.tools.push(tool);
    const asked = gate();
    provider.steps.push(async () => {
      await asked.opened;
      return { text: '', toolCalls: [{ id: 'c1', name: 'noop', arguments: {} }], stopReason: 'tool_calls' };
    });
    const id = enqueue('use the tool');
    await until(() => scheduler().current('main') !== null, 'the turn');
    full = true;
    asked.open();
    await until(() => refusals >= 1 && scheduler().retryingWrites === 1, 'the refused tool round');
    // The stop is a write too: it goes through once the disk takes writes again.
    full = false;
    await t.s.runLoop.control.control('main', { action: 'stop' });
    await until(() => statusOf(id) === 'failed', 'the aborted message');
    expect(t.s.queue.get(id)!.error).toBe('aborted');
    expect(t.s.agents.statusOf('main')).toBe('stopped');
    expect(scheduler().retryingWrites).toBe(0);
  });

  it('shutdown while a write waits for the disk: stop() ends the wait; the message stays processing, retried at the next start', async () => {
    const answer = heldReply('never recorded');
    const id = enqueue('in flight at shutdown');
    await until(() => scheduler().current('main') !== null, 'the turn');
    full = true;
    answer();
    await until(() => scheduler().retryingWrites === 1, 'the refused end of turn');
    await scheduler().stop();
    expect(scheduler().retryingWrites).toBe(0);
    expect(statusOf(id)).toBe('processing');
    expect(logged(errorLog, 'run loop worker failed; the agent resumes on its next message')).toBe(0);
  });
});
