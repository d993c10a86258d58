/**
 * Prompts within the model's window (docs/context.md): a model claiming a 4,000-token window,
 * long conversations, compaction (summary, failure, forced), the tool result cap by budget, a
 * message larger than the window, pinned context.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deriveProvenance } from '../../src/core/provenance.js';
import type { CompletionRequest } from '../../src/runtime/providers/types.js';
import type { Tool } from '../../src/runtime/tools/types.js';
import { startServices } from '../../src/services.js';
import { gate, scriptedAgent, until, type ScriptProvider } from '../helpers/run-loop.js';
import { testServices, type TestServices } from '../helpers/services.js';

const WINDOW = 4000;
// The messages come from the runtime (origin system): the brake's run of runtime turns is lifted.
const CONFIG = `[models.limits."test/*"]\ncontext_window = ${WINDOW}\nmax_output_tokens = 500\n[policy.limits]\nruntime_turns_in_a_row = 100000\n`;

let t: TestServices;
let provider: ScriptProvider;
/** What the model server would count: 4 bytes a token over the whole request. */
const requestTokens = (r: CompletionRequest) => Math.ceil(Buffer.byteLength(JSON.stringify({ s: r.system, m: r.messages, t: r.tools })) / 4);
const isCompaction = (r: CompletionRequest) => r.system.includes('You are compacting');

function setup(opts: { compaction?: (r: CompletionRequest) => string } = {}) {
  t = testServices({ start: false, runLoop: true, configToml: CONFIG });
  provider = scriptedAgent(t.s);
  const base = provider.complete.bind(provider);
  provider.complete = async (req) => {
    if (isCompaction(req)) {
      provider.requests.push({ ...req, messages: [...req.messages] });
      return { text: (opts.compaction ?? (() => 'Summary: the operator said the vault code is 7261.'))(req), toolCalls: [], stopReason: 'stop' };
    }
    return base(req);
  };
  startServices(t.s);
}

afterEach(async () => {
  await t?.close();
});

const events = (type: string) => t.s.events.page('main', { limit: 100000, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type === type);
const statusOf = (id: string) => t.s.queue.get(id)!.status;
const turnRequests = () => provider.requests.filter((r) => !isCompaction(r));

function enqueue(text: string): string {
  const provenance = deriveProvenance('runtime', { kind: 'system', subsystem: 'test' }, {});
  return t.s.store.tx(() => t.s.ingress.enqueueNow('main', provenance, { type: 'text', text })).message_id;
}

async function converse(n: number, text: (i: number) => string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const id = enqueue(text(i));
    await until(() => statusOf(id) === 'completed', `message ${i}`);
  }
}

const filler = (i: number) => `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(20)}`;

describe('prompt assembly within the window', () => {
  it('keeps every prompt of a long conversation under the window, compacting as it goes; the summary reaches the next prompt', async () => {
    setup();
    await converse(120, (i) => (i === 2 ? 'remember: the vault code is 7261' : filler(i)));
    for (const r of turnRequests()) expect(requestTokens(r)).toBeLessThanOrEqual(WINDOW);
    const compacted = events('context_compacted');
    expect(compacted.length).toBeGreaterThan(1);
    const first = compacted[0]!.payload;
    expect(first).toMatchObject({ method: 'summary', from_seq: 1, forced: false, model_ref: 'test/m' });
    expect(first.tokens_after as number).toBeLessThan(first.tokens_before as number);
    // The first compaction summarised message 3, with the fact; its summary is in the next turn's system prompt.
    const compactions = provider.requests.filter(isCompaction);
    expect(compactions[0]!.messages[0]!.content).toContain('the vault code is 7261');
    const after = turnRequests().find((r) => r.system.includes('Summary of the earlier conversation'));
    expect(after!.system).toContain('vault code is 7261');
    // Later compactions carry the previous summary forward.
    expect(compactions[1]!.messages[0]!.content).toContain('Summary so far:\nSummary: the operator said the vault code is 7261.');
    // The raw history stays: every message is in the conversation history.
    expect(t.s.runLoop.records.recentHistory('main', 1000).filter((e) => e.role === 'user')).toHaveLength(120);
  });

  it('a summary that fails falls back to dropping the oldest entries, recorded; the turn completes', async () => {
    setup({
      compaction: () => {
        throw new Error('model overloaded');
      },
    });
    await converse(40, filler);
    const dropped = events('context_compacted').map((e) => e.payload);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped[0]).toMatchObject({ method: 'dropped', reason: 'model overloaded' });
    expect(dropped[0]!.summary).toMatch(/earlier entries \(#1–#\d+\) were dropped without a summary/);
    expect(events('turn_failed')).toHaveLength(0);
    for (const r of turnRequests()) expect(requestTokens(r)).toBeLessThanOrEqual(WINDOW);
  });

  it('a message larger than the window is cut to its head and tail; the prompt still fits', async () => {
    setup();
    const id = enqueue(`START ${'the quick brown fox jumps over the lazy dog '.repeat(1000)}END`);
    await until(() => statusOf(id) === 'completed');
    const r = turnRequests()[0]!;
    expect(requestTokens(r)).toBeLessThanOrEqual(WINDOW);
    const content = r.messages[r.messages.length - 1]!.content;
    expect(content).toMatch(/\nSTART the quick/);
    expect(content).toMatch(/END$/);
    expect(content).toContain("left out to fit the model's context window");
  });

  it("a tool result over its share of the budget reaches the model as head and tail with a handle to the artifact", async () => {
    setup();
    const big: Tool = {
      name: 'big_output',
      description: 'returns a lot',
      class: 'read',
      parameters: { type: 'object', properties: {} },
      execute: async () => ({ ok: true, content: `HEAD ${'y'.repeat(20_000)} TAIL` }),
    };
    t.s.tools.push(big);
    provider.steps = [() => ({ text: '', toolCalls: [{ id: 'c1', name: 'big_output', arguments: {} }], stopReason: 'tool_calls' })];
    const id = enqueue('go');
    await until(() => statusOf(id) === 'completed');
    const second = turnRequests()[1]!;
    const result = second.messages.find((m) => m.role === 'tool')!.content;
    expect(result).toMatch(/^HEAD/);
    expect(result).toMatch(/TAIL$/);
    expect(result).toContain('read_tool_artifact');
    expect(Buffer.byteLength(result)).toBeLessThan(2000);
    expect(requestTokens(second)).toBeLessThanOrEqual(WINDOW);
  });

  it('too many tools for a small window: descriptions are shortened, then the largest are left out and the prompt says so', async () => {
    setup();
    const id = enqueue('hi');
    await until(() => statusOf(id) === 'completed');
    const r = turnRequests()[0]!;
    expect(r.tools.length).toBeGreaterThan(10);
    expect(r.tools.length).toBeLessThan(t.s.tools.length);
    expect(r.system).toContain('Not offered this turn');
    expect(r.tools.every((tool) => tool.description === '')).toBe(true);
    // The tools the prompt itself points to stay: reading a capped result back, searching memory.
    expect(r.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_tool_artifact', 'memory_search', 'memory_get']));
  });
});

describe('forced compaction', () => {
  it('compacts all but the last two entries; nothing to compact answers compacted: false; during a turn 409 agent_in_turn', async () => {
    setup();
    expect(await t.s.runLoop.control.compact('main')).toMatchObject({ compacted: false, compaction: null });
    await converse(3, (i) => `short ${i}`);
    const res = await t.s.runLoop.control.compact('main');
    expect(res).toMatchObject({ ok: true, compacted: true, compaction: { method: 'summary', from_seq: 1, entries: 4 } });
    expect(events('context_compacted').at(-1)!.payload).toMatchObject({ forced: true, compaction_id: res.compaction!.compaction_id });
    const held = gate();
    provider.steps = [async () => (await held.opened, { text: 'late', toolCalls: [], stopReason: 'stop' })];
    const id = enqueue('slow');
    await until(() => t.s.runLoop.scheduler.current('main') !== null);
    await expect(t.s.runLoop.control.compact('main')).rejects.toMatchObject({ status: 409, code: 'agent_in_turn' });
    held.open();
    await until(() => statusOf(id) === 'completed');
  });
});

describe('pinned context', () => {
  it('the current work item and its todo list are in the system prompt', async () => {
    setup();
    const wi = t.s.workItems.create('main', { objective: 'ship the parser' });
    t.s.workItems.pick('main', wi.id);
    const id = enqueue('status?');
    await until(() => statusOf(id) === 'completed');
    expect(turnRequests()[0]!.system).toContain(`Current work item ${wi.id}`);
    expect(turnRequests()[0]!.system).toContain('ship the parser');
  });
});
