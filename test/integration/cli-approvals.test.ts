/**
 * `svc approvals …` and `svc policy …` (docs/cli.md#approvals-and-policy) as real child processes
 * against a real daemon whose model is a scripted fake OpenAI server: a message from a channel
 * (untrusted_external) makes the model call run_command, which the default policy asks the
 * operator about. Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { fakeOpenAIConfig, startFakeOpenAI, type FakeModelServer } from '../helpers/fake-openai.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let fake: FakeModelServer;
let d: RunningDaemon;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  d = await pool.start({ configToml: fakeOpenAIConfig(fake.url) });
}, 60_000);

afterAll(async () => {
  pool.cleanup();
  await fake?.close();
});

const { svc, svcJson, expectFailure } = cliFor(() => d);

/** A channel message whose turn calls run_command `cmd`; resolves with the pending approval (the turn waits on it). */
async function pendingRun(cmd: string): Promise<Json> {
  fake.enqueue({ toolCalls: [{ name: 'run_command', args: [JSON.stringify({ cmd })] }] }, { text: [`ran ${cmd}`] });
  const sent = await request(d, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'test' }, text: `please run ${cmd}` } });
  expect(sent.status, sent.text).toBe(202);
  return waitFor(async () => {
    const res = await request(d, 'GET', '/api/agents/main/approvals?status=pending');
    return res.json.approvals.find((a: Json) => a.arguments.cmd === cmd) ?? null;
  }, 30_000, 100);
}

/** The brief that ends the turn of the approval's message. */
async function briefAfter(approval: Json): Promise<Json> {
  return waitFor(async () => {
    const res = await request(d, 'GET', '/api/agents/main/briefs?limit=200');
    return res.json.briefs.find((b: Json) => b.turn_id === approval.turn_id && (b.kind === 'result' || b.kind === 'failure')) ?? null;
  }, 30_000, 100);
}

describe('svc approvals', () => {
  it('lists a pending request with where its turn came from, shows it, approves it once; the turn completes', async () => {
    const a = await pendingRun('echo approve-me');
    const list = await svc(['approvals', 'list']);
    expect(list.code, list.stderr).toBe(0);
    const [head, row] = list.stdout.trimEnd().split('\n').filter((l) => l.includes(a.approval_id) || l.startsWith('APPROVAL_ID'));
    expect(head).toMatch(/^APPROVAL_ID\s+TOOL\s+CLASSES\s+TRUST\s+TAINTED_BY\s+AGE\s+EXPIRES\s+ARGUMENTS$/);
    expect(row).toContain('run_command');
    expect(row).toContain('exec');
    expect(row).toContain('untrusted_external');
    expect(row).toMatch(/channel_event channel\/test/);
    expect(row).toMatch(/ in \d+m /);
    expect(row).toContain('{"cmd":"echo approve-me"}');

    const json = await svcJson(['approvals', 'list', '--agent', 'main']);
    expect(json.approvals.map((x: Json) => x.approval_id)).toContain(a.approval_id);

    const show = await svc(['approvals', 'show', a.approval_id]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^status\s+pending$/m);
    expect(show.stdout).toMatch(/^tainted_by\s+channel_event channel\/test \(untrusted_external, message msg_\S+\)$/m);
    expect(show.stdout).toContain('arguments:\n{\n  "cmd": "echo approve-me"\n}');
    expect((await svcJson(['approvals', 'show', a.approval_id])).turn_id).toBe(a.turn_id);

    const approve = await svc(['approvals', 'approve', a.approval_id, '--note', 'fine']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toBe(`approved ${a.approval_id} (run_command)\n`);
    expect(await briefAfter(a)).toMatchObject({ kind: 'result', text: 'ran echo approve-me' });
    const decided = await svcJson(['approvals', 'show', a.approval_id]);
    expect(decided).toMatchObject({ status: 'approved', decision: { decision: 'approve', remember: 'once', note: 'fine', by: 'operator' } });
    expect((await svcJson(['approvals', 'list'])).approvals.map((x: Json) => x.approval_id)).not.toContain(a.approval_id);
    const approved = await svc(['approvals', 'list', '--status', 'approved']);
    expect(approved.stdout).toMatch(/^APPROVAL_ID\s+STATUS\s+TOOL/);
    expect(approved.stdout).toMatch(new RegExp(`^${a.approval_id}\\s+approved\\s+run_command`, 'm'));
  }, 90_000);

  it('denies with a note the model is told; a second decision is 409, an unknown request 404', async () => {
    const a = await pendingRun('echo deny-me');
    const deny = await svcJson(['approvals', 'deny', a.approval_id, '--note', 'not today']);
    expect(deny).toMatchObject({ approval_id: a.approval_id, status: 'denied', decision: { decision: 'deny', note: 'not today' } });
    await briefAfter(a);
    // The model's second request carried the refusal and its note as the tool's result.
    const asked = fake.completions().map((c) => JSON.stringify(c.body.messages));
    expect(asked.some((m) => m.includes('not today'))).toBe(true);

    const again = await expectFailure(['approvals', 'approve', a.approval_id], 'approval_already_decided');
    expect(again).toContain(a.approval_id);
    const againJson = await svc(['approvals', 'deny', a.approval_id, '--json']);
    expect(againJson.code).toBe(1);
    expect(JSON.parse(againJson.stdout)).toMatchObject({ ok: false, code: 'approval_already_decided', status: 409 });
    await expectFailure(['approvals', 'show', 'apr_nope'], 'approval_not_found');
    await expectFailure(['approvals', 'approve', 'apr_nope'], 'approval_not_found');
    await expectFailure(['approvals', 'list', '--agent', 'ghost'], 'agent_not_found');
    const all = await svcJson(['approvals', 'list', '--status', 'all', '--limit', '50']);
    expect(all.approvals.map((x: Json) => x.status)).toEqual(expect.arrayContaining(['approved', 'denied']));
  }, 90_000);

  it('approve --remember always adds an allow rule with the --match patterns to the agent layer', async () => {
    const a = await pendingRun('echo always-1');
    const r = await svc(['approvals', 'approve', a.approval_id, '--remember', 'always', '--match', 'cmd=echo always-*']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`approved ${a.approval_id} (run_command, remember always)\n`);
    await briefAfter(a);
    const policy = await svcJson(['policy', 'show']);
    expect(policy.layers.agent.rules[0]).toMatchObject({ tool: 'run_command', arguments: { cmd: 'echo always-*' }, trust: ['untrusted_external'], decision: 'allow' });
    const shown = await svc(['policy', 'show']);
    expect(shown.stdout).toMatch(/^1\s+agent\s+run_command\s+untrusted_external\s+cmd=echo always-\*\s+allow$/m);
    await svc(['policy', 'set', '--clear', 'rules']);
  }, 90_000);

  it('refuses bad flags before asking the daemon', async () => {
    for (const args of [
      ['approvals', 'list', '--status', 'maybe'],
      ['approvals', 'approve', 'apr_x', '--remember', 'forever'],
      ['approvals', 'approve', 'apr_x', '--match', 'cmd=x'],
    ]) {
      const r = await svc(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/^error: /);
    }
  });
});

describe('svc policy', () => {
  const A = 'cli-policy';
  beforeAll(async () => {
    expect((await request(d, 'POST', `/api/control/agents/${A}/create`, { body: {} })).status).toBe(201);
  });

  it('show prints the trust x class table, the rules and the limits', async () => {
    const r = await svc(['policy', 'show', '--agent', A]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^policy of cli-policy \(layers: config\)$/m);
    expect(r.stdout).toMatch(/^TRUST\s+READ\s+WRITE\s+EXEC\s+NETWORK\s+AGENTS$/m);
    expect(r.stdout).toMatch(/^trusted_operator\s+allow\s+allow\s+allow\s+allow\s+allow$/m);
    expect(r.stdout).toMatch(/^untrusted_external\s+allow\s+ask\s+ask\s+ask\s+ask$/m);
    expect(r.stdout).toMatch(/^turns_per_hour\s+1200$/m);
    expect(r.stdout).toMatch(/^approval_timeout_s\s+3600$/m);
    const json = await svcJson(['policy', 'show', '--agent', A]);
    expect(json).toMatchObject({ ok: true, agent_id: A, layers: { agent: null }, effective: { approval_timeout_s: 3600 } });
  });

  it('set merges --class and --limit into the agent layer, sets --timeout, and --clear removes a key', async () => {
    const r = await svc(['policy', 'set', '--agent', A, '--class', 'untrusted_external.exec=deny', '--limit', 'turns_per_hour=60', '--timeout', '10m']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^untrusted_external\s+allow\s+ask\s+deny \(agent\)\s+ask\s+ask$/m);
    expect(r.stdout).toMatch(/^turns_per_hour\s+60$/m);
    expect(r.stdout).toMatch(/^approval_timeout_s\s+600$/m);
    // A second --class keeps the first cell.
    const more = await svcJson(['policy', 'set', '--agent', A, '--class', 'trusted_integration.network=allow', '--limit', 'rounds_per_turn=8']);
    expect(more.layers.agent).toEqual({
      classes: { untrusted_external: { exec: 'deny' }, trusted_integration: { network: 'allow' } },
      limits: { turns_per_hour: 60, rounds_per_turn: 8 },
      approval_timeout_s: 600,
    });
    const cleared = await svcJson(['policy', 'set', '--agent', A, '--clear', 'classes', '--clear', 'approval_timeout_s']);
    expect(cleared.layers.agent).toEqual({ limits: { turns_per_hour: 60, rounds_per_turn: 8 } });
    expect(cleared.effective.classes.untrusted_external.exec).toBe('ask');
  });

  it('set --file sends a layer; the daemon refuses a bad one with its code and changes nothing', async () => {
    const dir = fs.mkdtempSync(path.join(d.home, 'layer-'));
    const good = path.join(dir, 'good.json');
    fs.writeFileSync(good, JSON.stringify({ rules: [{ tool: 'run_command', arguments: { cmd: 'npm test*' }, decision: 'allow' }], limits: null }));
    const set = await svcJson(['policy', 'set', '--agent', A, '--file', good]);
    expect(set.layers.agent).toEqual({ rules: [{ tool: 'run_command', arguments: { cmd: 'npm test*' }, decision: 'allow' }] });
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ classes: { untrusted_external: { teleport: 'allow' } } }));
    const err = await expectFailure(['policy', 'set', '--agent', A, '--file', bad], 'invalid_request');
    expect(err).toContain('teleport');
    fs.writeFileSync(bad, '{not json');
    await expectFailure(['policy', 'set', '--agent', A, '--file', bad], 'invalid_argument');
    expect((await svcJson(['policy', 'show', '--agent', A])).layers.agent).toEqual(set.layers.agent);
    await expectFailure(['policy', 'set', '--agent', 'ghost', '--timeout', '1m'], 'agent_not_found');
    for (const args of [
      ['policy', 'set', '--agent', A],
      ['policy', 'set', '--agent', A, '--class', 'untrusted_external.teleport=deny'],
      ['policy', 'set', '--agent', A, '--limit', 'naps_per_day=3'],
      ['policy', 'set', '--agent', A, '--timeout', '1500ms'],
      ['policy', 'set', '--agent', A, '--file', good, '--timeout', '1m'],
      ['policy', 'set', '--agent', A, '--clear', 'everything'],
    ]) {
      const r = await svc(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^error: /);
    }
  });
});
