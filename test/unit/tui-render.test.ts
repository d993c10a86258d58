/**
 * The lines `svc tui` prints for events: one per event a person follows, bookkeeping events
 * hidden, every line within the width and free of terminal control characters; `--raw` lines
 * are the envelope as JSON with those characters escaped.
 */
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-log.js';
import { describe as describeEvent, rawLine, render } from '../../src/cli/control/tui-render.js';

const ev = (type: string, payload: Record<string, unknown>): EventEnvelope => ({
  id: 'evt_1',
  event_seq: 1,
  ts: '2025-01-01T12:34:56.000Z',
  agent_id: 'main',
  type,
  provenance: null,
  payload,
});

describe('tui lines', () => {
  it.each<[string, Record<string, unknown>, [string, string] | null]>([
    ['message_enqueued', { kind: 'operator_prompt', body: { type: 'text', text: 'hi' } }, ['you', 'hi']],
    [
      'message_enqueued',
      { kind: 'channel_event', body: { type: 'text', text: 'ping' }, provenance: { origin: { kind: 'channel', channel_id: 'c1' } } },
      ['msg', 'channel_event from channel/c1: ping'],
    ],
    ['brief_created', { brief_kind: 'result', text: 'done' }, ['reply', 'done']],
    ['brief_created', { brief_kind: 'progress', text: 'half way' }, ['brief', 'progress: half way']],
    ['brief_created', { brief_kind: 'failure', text: 'x' }, null],
    ['tool_called', { name: 'run_command', arguments: { cmd: 'ls' } }, ['tool', 'run_command {"cmd":"ls"}']],
    ['tool_result', { name: 'run_command', ok: true, content: 'fine' }, null],
    ['tool_result', { name: 'run_command', ok: false, content: 'denied' }, ['tool', 'run_command failed: denied']],
    ['task_create_requested', { task_id: 'tsk_1', status: 'queued', summary: 'build', cmd: 'make' }, ['task', 'tsk_1 queued build']],
    ['task_status_changed', { task_id: 'tsk_1', from: 'running', to: 'completed', exit_status: 0, result_summary: null }, ['task', 'tsk_1 running -> completed (exit 0)']],
    [
      'turn_failed',
      { reason: 'provider', failure_artifact: { category: 'transport', kind: 'timeout', summary: 'no answer' } },
      ['error', 'turn failed: transport/timeout: no answer'],
    ],
    ['message_failed', { message_id: 'msg_1', turn_id: 'turn_1', reason: 'x' }, null],
    ['message_failed', { message_id: 'msg_1', reason: 'retries exhausted' }, ['error', 'message msg_1 failed: retries exhausted']],
    ['control_applied', { action: 'stop', previous_status: 'idle', status: 'stopped' }, ['status', 'stop: idle -> stopped']],
    ['turn_entry', { turn_id: 'turn_1' }, null],
    ['model_round', { turn_id: 'turn_1' }, null],
  ])('%s %j', (type, payload, expected) => {
    expect(describeEvent(ev(type, payload))).toEqual(expected);
  });

  it('is one line within the width, without control characters or bidi overrides', () => {
    const text = `a\nb\t\u001b[31mred\u001b[0m \u202eevil ${'x'.repeat(500)}`;
    const line = render(ev('message_enqueued', { kind: 'operator_prompt', body: { type: 'text', text } }), 80)!;
    expect(line).toMatch(/^\d\d:\d\d:\d\d you      a b \?\[31mred\?\[0m \?evil x+…$/);
    expect(line).toHaveLength(80);
  });

  it('--raw: the envelope as valid JSON with C1 and bidi characters escaped', () => {
    const e = ev('message_enqueued', { kind: 'operator_prompt', body: { type: 'text', text: '\u009b2J \u202e \u001b' } });
    const line = rawLine(e);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(line)).toEqual(e);
  });
});
