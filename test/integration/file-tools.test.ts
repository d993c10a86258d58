/**
 * The workspace file tools through the daemon, driven by a scripted OpenAI-compatible model on
 * loopback: the model reads a file, applies a patch to several files and searches; the files on
 * disk, the tool results the model got back and the `file_changed` events of the agent's log say
 * the same. A patch that does not apply changes nothing and reaches the model as a tool error.
 * Writes are class `write`: a turn from public ingress (untrusted_external) gets an approval
 * request for apply_patch instead of a changed file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { fakeOpenAIConfig, startFakeOpenAI, type FakeModelServer, type Reply } from '../helpers/fake-openai.js';
import { tree } from '../helpers/files.js';
import type { Json } from '../helpers/tasks.js';

const pool = daemonPool();
let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeOpenAI();
});
afterEach(() => pool.killAll());
afterAll(async () => {
  pool.cleanup();
  await model.close();
});

const call = (name: string, args: Record<string, unknown>, id = `call_${name}`): Reply => ({ toolCalls: [{ id, name, args: [JSON.stringify(args)] }] });

/** A daemon whose agent `main` works in a fresh workspace holding a small project. */
async function project(): Promise<{ d: RunningDaemon; ws: string }> {
  const d = await pool.start({ configToml: fakeOpenAIConfig(model.url) });
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(d.home, 'ws-')));
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src/app.ts'), "import { greet } from './greet';\n\nconsole.log(greet('world'));\n");
  fs.writeFileSync(path.join(ws, 'src/greet.ts'), 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n');
  fs.writeFileSync(path.join(ws, 'README.md'), '# demo\n');
  const res = await request(d, 'POST', '/api/control/agents/main/workspace/attach', { body: { path: ws } });
  expect(res.status, res.text).toBe(200);
  return { d, ws };
}

async function events(d: RunningDaemon, type: string): Promise<Json[]> {
  const res = await request(d, 'GET', '/api/agents/main/events?order=desc&limit=1000');
  return (res.json.events as Json[]).reverse().filter((e) => e.type === type);
}

async function turnDone(d: RunningDaemon, n: number): Promise<void> {
  await waitFor(async () => (await events(d, 'turn_completed')).length >= n, 20_000);
}

/** The tool results the model was sent in its last request, by tool call id. */
function toolResults(): Record<string, Json> {
  const messages = model.completions().at(-1)!.body.messages as Array<{ role: string; tool_call_id?: string; content: string }>;
  return Object.fromEntries(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, JSON.parse(m.content)]));
}

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/greet.ts',
  '@@ export function greet(name: string): string {',
  '-  return `hello ${name}`;',
  '+  return `hello, ${name}!`;',
  '*** Update File: src/app.ts',
  " import { greet } from './greet';",
  ' ',
  "-console.log(greet('world'));",
  "+console.log(greet('files'));",
  '*** Add File: src/farewell.ts',
  "+export const farewell = 'bye';",
  '*** Delete File: README.md',
  '*** End Patch',
].join('\n');

describe('the file tools in a turn', () => {
  it('reads, patches several files and searches; the disk, the tool results and file_changed events agree', async () => {
    const { d, ws } = await project();
    model.enqueue(
      call('read_file', { path: 'src/greet.ts' }),
      call('apply_patch', { patch: PATCH }),
      call('search_files', { pattern: 'greet\\(', glob: '*.ts' }),
      { text: ['done'] },
    );
    const prompt = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'rename the greeting' } });
    expect(prompt.status, prompt.text).toBe(202);
    await turnDone(d, 1);

    expect(tree(ws)).toEqual({
      'src/app.ts': "import { greet } from './greet';\n\nconsole.log(greet('files'));\n",
      'src/greet.ts': 'export function greet(name: string): string {\n  return `hello, ${name}!`;\n}\n',
      'src/farewell.ts': "export const farewell = 'bye';\n",
    });
    const results = toolResults();
    expect(results.call_read_file).toMatchObject({ path: 'src/greet.ts', start_line: 1, end_line: 3, total_lines: 3, content: expect.stringContaining('hello ${name}') });
    expect(results.call_apply_patch.files.map((f: Json) => [f.op, f.path])).toEqual([
      ['update', 'src/greet.ts'],
      ['update', 'src/app.ts'],
      ['create', 'src/farewell.ts'],
      ['delete', 'README.md'],
    ]);
    expect(results.call_search_files.matches).toEqual(
      expect.arrayContaining([
        { path: 'src/app.ts', line: 3, text: "console.log(greet('files'));" },
        { path: 'src/greet.ts', line: 1, text: 'export function greet(name: string): string {' },
      ]),
    );
    expect(results.call_search_files.matches).toHaveLength(2);

    const changed = await events(d, 'file_changed');
    const turnId = (await events(d, 'turn_entry'))[0]!.payload.turn_id;
    expect(changed.map((e) => [e.payload.op, e.payload.path])).toEqual(results.call_apply_patch.files.map((f: Json) => [f.op, f.path]));
    for (const e of changed) {
      expect(e.payload).toMatchObject({ tool: 'apply_patch', turn_id: turnId, workspace_id: expect.stringMatching(/^ws_/), diff_truncated: false });
      expect(e.payload).toHaveProperty('tool_execution_id');
    }
    expect(changed[0]!.payload.diff).toContain('-  return `hello ${name}`;\n+  return `hello, ${name}!`;\n');
    // info level: the console's default timeline shows them.
    const info = await request(d, 'GET', '/api/agents/main/events?max_level=info&limit=1000');
    expect(info.json.events.filter((e: Json) => e.type === 'file_changed')).toHaveLength(4);
  });

  it('a patch that does not apply changes nothing, and the model reads why', async () => {
    const { d, ws } = await project();
    const before = tree(ws);
    const bad = PATCH.replace("-console.log(greet('world'));", "-console.log(greet('moon'));");
    model.enqueue(call('apply_patch', { patch: bad }), { text: ['sorry'] });
    await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'patch it' } });
    await turnDone(d, 1);
    expect(tree(ws)).toEqual(before);
    expect(toolResults().call_apply_patch).toMatchObject({ ok: false, code: 'patch_does_not_apply', file: 'src/app.ts', hunk: 1, error: expect.stringContaining('nothing was changed') });
    expect(await events(d, 'file_changed')).toEqual([]);
  });
});

describe('the tool policy', () => {
  it('asks the operator before apply_patch runs in a turn from public ingress', async () => {
    const { d, ws } = await project();
    const before = tree(ws);
    // Only the call: the turn waits for the operator, and no reply is left queued for another test.
    model.enqueue(call('apply_patch', { patch: PATCH }));
    const res = await request(d, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'chat' }, text: 'please apply this patch' } });
    expect(res.status, res.text).toBe(202);
    const approval = await waitFor(async () => (await request(d, 'GET', '/api/agents/main/approvals?status=pending')).json.approvals[0], 15_000);
    expect(approval).toMatchObject({ tool: 'apply_patch', classes: ['write'], trust: 'untrusted_external', status: 'pending' });
    expect(tree(ws)).toEqual(before);
    expect(await events(d, 'file_changed')).toEqual([]);
  });
});
