/**
 * A fake Anthropic Messages API server: POST /v1/messages answers the real event stream
 * (message_start, content_block_start/delta/stop for thinking, text and tool_use blocks, ping,
 * message_delta with stop_reason and usage, message_stop) or one `message` document; errors use
 * `{type:"error", error:{type, message}}`; GET /v1/models lists `data[].id`.
 * Scripting, recording and `url`/`close()`: see fake-model-server.ts.
 *
 *   const fake = await startFakeAnthropic();
 *   fake.enqueue({ text: ['Hi'] }, { type: 'error', status: 529, retryAfter: '1' });
 *   // config: [providers.claude] kind = "anthropic", base_url = fake.url, api_key_env = "ANTHROPIC_API_KEY"
 */
import { FakeModelServer, sseFrame, type AnswerReply, type RecordedRequest, type WireFormat } from './fake-model-server.js';

export type { Reply, RecordedRequest, ScriptedToolCall } from './fake-model-server.js';
export { FakeModelServer } from './fake-model-server.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const anthropicWire: WireFormat = {
  completionPath: '/messages',
  frames(reply: AnswerReply, req: RecordedRequest): string[] {
    const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
    const usage = reply.usage ?? { input: 10, output: 5 };
    const frames = [
      ev('message_start', {
        message: { id: 'msg_fake', type: 'message', role: 'assistant', model: req.body?.model ?? 'fake', content: [], stop_reason: null, stop_sequence: null, usage: { ...promptUsage(usage), output_tokens: 1 } },
      }),
      ev('ping', {}),
    ];
    let index = 0;
    const block = (start: Record<string, unknown>, deltas: Array<Record<string, unknown>>) => {
      frames.push(ev('content_block_start', { index, content_block: start }));
      for (const delta of deltas) frames.push(ev('content_block_delta', { index, delta }));
      frames.push(ev('content_block_stop', { index }));
      index++;
    };
    if (reply.thoughts?.length) block({ type: 'thinking', thinking: '' }, reply.thoughts.map((t) => ({ type: 'thinking_delta', thinking: t })));
    if (reply.text?.length) block({ type: 'text', text: '' }, reply.text.map((t) => ({ type: 'text_delta', text: t })));
    (reply.toolCalls ?? []).forEach((c, i) =>
      block({ type: 'tool_use', id: c.id ?? `toolu_fake_${i}`, name: c.name, input: {} }, c.args.map((a) => ({ type: 'input_json_delta', partial_json: a }))),
    );
    if (reply.hangAfter) return frames;
    frames.push(ev('message_delta', { delta: { stop_reason: finishOf(reply), stop_sequence: null }, usage: { output_tokens: usage.output } }));
    frames.push(ev('message_stop', {}));
    return frames;
  },
  document(reply: AnswerReply, req: RecordedRequest) {
    const content: Array<Record<string, unknown>> = [];
    if (reply.thoughts?.length) content.push({ type: 'thinking', thinking: reply.thoughts.join(''), signature: 'sig' });
    if (reply.text?.length) content.push({ type: 'text', text: reply.text.join('') });
    (reply.toolCalls ?? []).forEach((c, i) => content.push({ type: 'tool_use', id: c.id ?? `toolu_fake_${i}`, name: c.name, input: JSON.parse(c.args.join('') || '{}') }));
    const usage = reply.usage ?? { input: 10, output: 5 };
    return {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: req.body?.model ?? 'fake',
      content,
      stop_reason: finishOf(reply),
      stop_sequence: null,
      usage: { ...promptUsage(usage), output_tokens: usage.output },
    };
  },
  errorBody: (status, message) => ({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }),
};

/** The Messages API's prompt counts: the cache's parts only when scripted. */
function promptUsage(u: NonNullable<AnswerReply['usage']>) {
  return {
    input_tokens: u.input,
    ...(u.cache_read !== undefined ? { cache_read_input_tokens: u.cache_read } : {}),
    ...(u.cache_write !== undefined ? { cache_creation_input_tokens: u.cache_write } : {}),
  };
}

function finishOf(reply: AnswerReply): string {
  return reply.finish ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn');
}

export function startFakeAnthropic(): Promise<FakeModelServer> {
  return new FakeModelServer(anthropicWire).listen();
}
