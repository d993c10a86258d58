/**
 * Tool executions through the public surface, against a scripted model on loopback: every call
 * is a record (arguments redacted, classes, status, duration, result excerpt) readable at the
 * routes Holon's GUI calls; a result longer than `[tools] result_max_bytes` reaches the model as
 * head and tail around a marker, and the model reads the rest back with read_tool_artifact; a
 * refused call is an `error` record; a call cut by kill -9 is `interrupted` after the restart.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI, type FakeModelServer, type RecordedRequest, type Reply } from '../helpers/fake-openai.js';

const pool = daemonPool();
let model: FakeModelServer;

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.responder = scripted;
});
afterEach(() => pool.killAll());
afterAll(async () => {
  pool.cleanup();
  await model.close();
});

/**
 * "run `X`" runs X; a cut result is read back from the marker's offset; after that, or any other
 * tool result, the model answers with what it read last.
 */
function scripted(req: RecordedRequest): Reply {
  const messages = req.body.messages as Array<{ role: string; content: string; name?: string }>;
  const last = messages[messages.length - 1]!;
  const content = String(last.content);
  if (last.role === 'tool') {
    const marker = /read_tool_artifact (\{[^}]+\})/.exec(content);
    if (marker) return { toolCalls: [{ name: 'read_tool_artifact', args: [marker[1]!] }] };
    return { text: [`read: ${content.slice(0, 120)}`] };
  }
  const cmd = /run `([^`]+)`/.exec(content)?.[1];
  return cmd ? { toolCalls: [{ name: 'run_command', args: [JSON.stringify({ cmd, summary: 'token=sk-abcdefghijklmnopqrstuvwx' })] }] } : { text: ['nothing to do'] };
}

function config(extra = ''): string {
  return `[model]\ndefault = "fake/scripted"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${model.url}"\napi_key_env = ""\nmodels = ["scripted"]\n\n[tools]\nresult_max_bytes = 4096\n${extra}`;
}

async function prompt(d: RunningDaemon, text: string): Promise<void> {
  const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text } });
  expect(res.status, res.text).toBeLessThan(300);
}

async function events(d: RunningDaemon, type: string): Promise<Array<Record<string, any>>> {
  const res = await request(d, 'GET', '/api/agents/main/events?order=asc&limit=1000');
  return (res.json.events as Array<{ type: string; payload: Record<string, any> }>).filter((e) => e.type === type).map((e) => e.payload);
}

describe('tool executions', () => {
  it('records each call, cuts a long result with a marker the model follows, and serves the whole result as an artifact', async () => {
    const d = await pool.start({ configToml: config() });
    await prompt(d, 'run `seq 1 3000`');
    const [completed] = await waitFor(async () => {
      const list = await events(d, 'turn_completed');
      return list.length > 0 ? list : null;
    }, 20_000);
    expect(completed).toBeTruthy();

    const called = await events(d, 'tool_called');
    expect(called.map((c) => c.name)).toEqual(['run_command', 'read_tool_artifact']);
    for (const c of called) expect(c.tool_execution_id).toMatch(/^tex_/);
    const [run, read] = called.map((c) => c.tool_execution_id as string);

    // The model read the head and tail around the marker, then the middle through the tool.
    const toolMessages = model.requests.flatMap((r) => (r.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool'));
    const cutResult = toolMessages.find((m) => m.content.includes('bytes cut from the middle'))!;
    expect(Buffer.byteLength(cutResult.content)).toBeLessThan(4096 + 400);
    expect(cutResult.content).toContain(`artifact 0 of tool execution ${run}`);

    const record = await request(d, 'GET', `/api/agents/main/tool-executions/${run}`);
    expect(record.status, record.text).toBe(200);
    expect(record.json).toMatchObject({
      id: run,
      tool_execution_id: run,
      agent_id: 'main',
      tool_name: 'run_command',
      status: 'success',
      classes: ['exec'],
      trust: 'trusted_operator',
      authority_class: 'trusted_operator',
      input: { cmd: 'seq 1 3000', summary: 'token=[redacted]' },
      artifacts: [{ index: 0, kind: 'result', truncated: false }],
      invocation_surface: 'model',
    });
    expect(record.json.duration_ms).toBeGreaterThanOrEqual(0);
    expect(record.json.completed_at).toBeTruthy();

    const whole = await request(d, 'GET', `/api/agents/main/tool-executions/${run}/artifacts/0`);
    expect(whole.status).toBe(200);
    expect(whole.json).toMatchObject({ artifact_index: 0, index: 0, kind: 'result', next_offset: null });
    expect(whole.json.size).toBe(Buffer.byteLength(whole.json.content));
    // What the tool returned, whole: the output preview holds the last lines of seq.
    expect(whole.json.content).toContain('2999\\n3000');

    const slice = await request(d, 'GET', `/api/agents/main/tool-executions/${run}/artifacts/0?offset=10&max_chars=20`);
    expect(slice.json).toMatchObject({ offset: 10, next_offset: 30 });
    expect(slice.json.content).toBe(whole.json.content.slice(10, 30));

    const readRecord = (await request(d, 'GET', `/api/agents/main/tool-executions/${read}`)).json;
    expect(readRecord).toMatchObject({ tool_name: 'read_tool_artifact', status: 'success', classes: ['read'] });
    const readContent = JSON.parse(toolMessages.find((m) => m.content.includes('"next_offset"'))!.content);
    expect(whole.json.content.slice(readContent.offset)).toMatch(new RegExp(`^${escape(readContent.content.slice(0, 40))}`));

    // Holon's GUI opens a tool card by the companion's tool_execution_id.
    const companions = await events(d, 'tool_executed');
    expect(companions.map((c) => c.tool_execution_id)).toEqual([run, read]);

    const list = await request(d, 'GET', `/api/agents/main/tool-executions?turn_id=${completed!.turn_id}`);
    expect(list.json.tool_executions.map((e: { id: string }) => e.id)).toEqual([run, read]);
  });

  it('answers 404 for an unknown execution, an unknown artifact, another agent, and 400 for a bad index', async () => {
    const d = await pool.start({ configToml: config() });
    await prompt(d, 'run `echo hi`');
    const [called] = await waitFor(async () => {
      const list = await events(d, 'tool_result');
      return list.length > 0 ? list : null;
    }, 20_000);
    const id = called!.tool_execution_id as string;
    expect((await request(d, 'GET', '/api/agents/main/tool-executions/tex_nothing')).json.code).toBe('tool_execution_not_found');
    expect((await request(d, 'GET', `/api/agents/main/tool-executions/${id}/artifacts/0`)).json.code).toBe('tool_artifact_not_found');
    const bad = await request(d, 'GET', `/api/agents/main/tool-executions/${id}/artifacts/-1`);
    expect(bad.status).toBe(400);
    await request(d, 'POST', '/api/control/agents', { body: { agent_id: 'other' } });
    expect((await request(d, 'GET', `/api/agents/other/tool-executions/${id}`)).status).toBe(404);
  });

  it('a refused call is an error record; a call cut by kill -9 is interrupted after the restart', async () => {
    const d = await pool.start({ configToml: config() });
    // A public-ingress turn asks; the operator denies.
    await request(d, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'chat' }, text: 'run `id`' } });
    const approval = await waitFor(async () => (await request(d, 'GET', '/api/agents/main/approvals?status=pending')).json.approvals[0], 20_000);
    // While it waits, the record is running.
    const waiting = (await events(d, 'tool_called'))[0]!;
    expect((await request(d, 'GET', `/api/agents/main/tool-executions/${waiting.tool_execution_id}`)).json.status).toBe('running');
    await request(d, 'POST', `/api/control/agents/main/approvals/${approval.approval_id}`, { body: { decision: 'deny', note: 'no' } });
    await waitFor(async () => (await events(d, 'turn_completed')).length > 0, 20_000);
    const denied = (await request(d, 'GET', `/api/agents/main/tool-executions/${waiting.tool_execution_id}`)).json;
    expect(denied).toMatchObject({ status: 'error', error_code: 'tool_denied', trust: 'untrusted_external' });
    expect((await events(d, 'tool_execution_failed')).map((e) => e.tool_execution_id)).toEqual([waiting.tool_execution_id]);

    await prompt(d, 'run `sleep 30`');
    const sleeping = await waitFor(async () => (await events(d, 'tool_called')).find((c) => c.arguments.cmd === 'sleep 30'), 20_000);
    d.proc.kill('SIGKILL');
    await new Promise((r) => d.proc.once('exit', r));
    const again = await pool.start({ home: d.home, configToml: config() });
    const after = (await request(again, 'GET', `/api/agents/main/tool-executions/${sleeping.tool_execution_id}`)).json;
    expect(after).toMatchObject({ status: 'interrupted', tool_name: 'run_command' });
    expect(after.completed_at).toBeTruthy();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
