/**
 * What a user asks an agent to do, end to end through the public surface, with a scripted
 * OpenAI-compatible model on loopback that acts on what it reads: "the test in
 * `test/math.test.js` fails, fix it". The agent reads the test and the code, applies a patch,
 * runs the test with run_command and reports. Every step is a tool execution record and an
 * event; the file change carries its diff; the test passes afterwards on disk.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { daemonPool, request, waitFor } from '../helpers/daemon.js';
import { startFakeOpenAI, type FakeModelServer, type RecordedRequest, type Reply } from '../helpers/fake-openai.js';

const pool = daemonPool();
let model: FakeModelServer;
let project: string;

const PATCH = ['*** Begin Patch', '*** Update File: src/math.js', '@@ export function add(a, b) {', '-  return a - b;', '+  return a + b;', '*** End Patch'].join('\n');

/** A model that works the way a coding agent does: look, change, check, report. */
function coder(req: RecordedRequest): Reply {
  const messages = req.body.messages as Array<{ role: string; content: string; tool_calls?: Array<{ function: { name: string } }> }>;
  const last = messages[messages.length - 1]!;
  const call = (name: string, args: unknown): Reply => ({ toolCalls: [{ name, args: [JSON.stringify(args)] }] });
  if (last.role !== 'tool') return /fails, fix it/.test(last.content) ? call('read_file', { path: 'test/math.test.js' }) : { text: ['nothing to do'] };
  const asked = [...messages].reverse().find((m) => m.role === 'assistant')!.tool_calls![0]!.function.name;
  const result = JSON.parse(last.content) as Record<string, any>;
  if (result.ok === false) return { text: [`stopped: ${asked} refused: ${result.code}`] };
  if (asked === 'read_file' && String(result.content).includes("from '../src/math.js'")) return call('read_file', { path: 'src/math.js' });
  if (asked === 'read_file') return call('apply_patch', { patch: PATCH });
  if (asked === 'apply_patch') return call('run_command', { cmd: 'node --test test/', wait_ms: 60_000 });
  return { text: [`Fixed src/math.js: add() subtracted. node --test exits ${result.exit_status}.`] };
}

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.responder = coder;
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-math-'));
  fs.mkdirSync(path.join(project, 'src'));
  fs.mkdirSync(path.join(project, 'test'));
  fs.writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(path.join(project, 'src', 'math.js'), 'export function add(a, b) {\n  return a - b;\n}\n');
  fs.writeFileSync(
    path.join(project, 'test', 'math.test.js'),
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\n\ntest('add', () => assert.equal(add(2, 3), 5));\n",
  );
});
afterEach(() => pool.killAll());
afterAll(async () => {
  pool.cleanup();
  await model.close();
  fs.rmSync(project, { recursive: true, force: true });
});

it('reads the failing test and the code, patches it, runs the test and reports; every step is on record', async () => {
  expect(() => execFileSync('node', ['--test', 'test/'], { cwd: project, stdio: 'pipe' })).toThrow();
  const d = await pool.start({ configToml: `[model]\ndefault = "fake/coder"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${model.url}"\napi_key_env = ""\nmodels = ["coder"]\n` });
  expect((await request(d, 'POST', '/api/control/agents/main/workspace/attach', { body: { path: project } })).status).toBe(200);
  await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'the test in `test/math.test.js` fails, fix it' } });
  // The reply of the turn that was asked (the task's own result arrives later as a message of its own).
  const turnEnd = await waitFor(async () => ((await request(d, 'GET', '/api/agents/main/events?order=asc&limit=1000')).json.events as Array<{ type: string; payload: Record<string, any> }>).find((e) => e.type === 'turn_completed'), 60_000);
  const briefs = (await request(d, 'GET', '/api/agents/main/briefs')).json.briefs as Array<{ brief_id: string; text: string }>;
  expect(briefs.find((b) => b.brief_id === turnEnd.payload.brief_id)!.text).toBe('Fixed src/math.js: add() subtracted. node --test exits 0.');
  expect(fs.readFileSync(path.join(project, 'src', 'math.js'), 'utf8')).toBe('export function add(a, b) {\n  return a + b;\n}\n');
  execFileSync('node', ['--test', 'test/'], { cwd: project, stdio: 'pipe' });

  const events = (await request(d, 'GET', '/api/agents/main/events?order=asc&limit=1000')).json.events as Array<{ type: string; payload: Record<string, any> }>;
  expect(events.filter((e) => e.type === 'tool_called').map((e) => e.payload.name)).toEqual(['read_file', 'read_file', 'apply_patch', 'run_command']);
  const change = events.find((e) => e.type === 'file_changed')!.payload;
  expect(change).toMatchObject({ path: 'src/math.js', op: 'update' });
  expect(change.diff).toContain('-  return a - b;\n+  return a + b;');
  const turnId = events.find((e) => e.type === 'turn_completed')!.payload.turn_id;
  const records = (await request(d, 'GET', `/api/agents/main/tool-executions?turn_id=${turnId}`)).json.tool_executions as Array<Record<string, any>>;
  expect(records.map((r) => [r.tool_name, r.status])).toEqual([
    ['read_file', 'success'],
    ['read_file', 'success'],
    ['apply_patch', 'success'],
    ['run_command', 'success'],
  ]);
  const patched = records[2]!;
  expect(patched.artifacts.some((a: { kind: string }) => a.kind === 'diff')).toBe(true);
  // The change names the call that made it, so the console and Holon's GUI open one from the other.
  expect(change.tool_execution_id).toBe(patched.id);
});
