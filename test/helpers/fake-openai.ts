/**
 * A fake OpenAI-compatible chat-completions server (what Ollama, vLLM and llama.cpp speak):
 * POST /v1/chat/completions answers `chat.completion.chunk` events (`data: {...}` lines, then
 * `data: [DONE]`) or one `chat.completion` document; GET /v1/models lists `data[].id`.
 * Scripting, recording and `url`/`close()`: see fake-model-server.ts.
 *
 *   const fake = await startFakeOpenAI();
 *   fake.enqueue({ thoughts: ['hmm'], text: ['Hel', 'lo'] }, { toolCalls: [{ name: 'ls', args: ['{"pa', 'th":"."}'] }] });
 *   // config: [providers.local] kind = "openai", base_url = fake.url
 */
import { FakeModelServer, sseFrame, type AnswerReply, type RecordedRequest, type WireFormat } from './fake-model-server.js';

export type { Reply, RecordedRequest, ScriptedToolCall } from './fake-model-server.js';
export { FakeModelServer } from './fake-model-server.js';

const CREATED = 1_900_000_000;

const openaiWire: WireFormat = {
  completionPath: '/chat/completions',
  frames(reply: AnswerReply, req: RecordedRequest): string[] {
    const model = req.body?.model ?? 'fake';
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      sseFrame({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    const frames = [chunk({ role: 'assistant', content: '' })];
    for (const t of reply.thoughts ?? []) frames.push(chunk({ reasoning_content: t }));
    for (const t of reply.text ?? []) frames.push(chunk({ content: t }));
    (reply.toolCalls ?? []).forEach((call, index) => {
      const [first = '', ...rest] = call.args;
      frames.push(chunk({ tool_calls: [{ index, id: call.id ?? `call_fake_${index}`, type: 'function', function: { name: call.name, arguments: first } }] }));
      for (const frag of rest) frames.push(chunk({ tool_calls: [{ index, function: { arguments: frag } }] }));
    });
    frames.push(chunk({}, finishOf(reply)));
    if (reply.usage && req.body?.stream_options?.include_usage) {
      frames.push(sseFrame({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: openaiUsage(reply.usage) }));
    }
    if (!reply.hangAfter) frames.push(sseFrame('[DONE]'));
    return frames;
  },
  document(reply: AnswerReply, req: RecordedRequest) {
    const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_fake_${i}`, type: 'function', function: { name: c.name, arguments: c.args.join('') } }));
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: CREATED,
      model: req.body?.model ?? 'fake',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: (reply.text ?? []).join('') || null,
            ...(reply.thoughts ? { reasoning_content: reply.thoughts.join('') } : {}),
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: finishOf(reply),
        },
      ],
      ...(reply.usage ? { usage: openaiUsage(reply.usage) } : {}),
    };
  },
  errorBody: (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } }),
};

/** Chat completions' usage object: cached and reasoning tokens in their `_details` when scripted. */
function openaiUsage(u: NonNullable<AnswerReply['usage']>) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    ...(u.cache_read !== undefined ? { prompt_tokens_details: { cached_tokens: u.cache_read } } : {}),
    ...(u.reasoning !== undefined ? { completion_tokens_details: { reasoning_tokens: u.reasoning } } : {}),
  };
}

function finishOf(reply: AnswerReply): string {
  return reply.finish ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
}

/** A config.toml whose default model is `fake/m`, served by the fake at `url`. */
export function fakeOpenAIConfig(url: string): string {
  return `[model]\ndefault = "fake/m"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${url}"\napi_key_env = ""\nmodels = ["m"]\n`;
}

export function startFakeOpenAI(): Promise<FakeModelServer> {
  return new FakeModelServer(openaiWire).listen();
}
