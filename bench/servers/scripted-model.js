/**
 * A scripted OpenAI-compatible model for the files scenario (POST /v1/chat/completions, streamed
 * `chat.completion.chunk` frames), in its own process so its CPU is not the bench's. It answers
 * at once, from the request alone: a user message containing BENCH_READ asks for one `read_file`
 * of bench.txt, BENCH_CHEAP for one `read_task_output` of a task that does not exist, anything
 * else gets a one-word reply; a request ending with a tool result gets the final reply. GET /stats
 * counts the read_file results that came back ok with the file's text (the scenario checks them).
 */
import http from 'node:http';

const stats = { reads_ok: 0, reads_bad: 0, rounds: 0 };

function frames(reply) {
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_900_000_000, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const out = [chunk({ role: 'assistant', content: '' })];
  if (reply.tool) {
    out.push(chunk({ tool_calls: [{ index: 0, id: `call_${stats.rounds}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] }));
    out.push(chunk({}, 'tool_calls'));
  } else {
    out.push(chunk({ content: reply.text }));
    out.push(chunk({}, 'stop'));
  }
  out.push('data: [DONE]\n\n');
  return out.join('');
}

function replyTo(body) {
  const messages = body?.messages ?? [];
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    if (String(last.tool_call_id ?? '').length > 0 && String(last.content).includes('"start_line"')) {
      if (String(last.content).includes('bench line 1')) stats.reads_ok++;
      else stats.reads_bad++;
    }
    return { text: 'done' };
  }
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  if (text.includes('BENCH_READ')) return { tool: 'read_file', args: { path: 'bench.txt' } };
  if (text.includes('BENCH_CHEAP')) return { tool: 'read_task_output', args: { task_id: 'task_missing' } };
  return { text: 'done' };
}

const server = http.createServer((req, res) => {
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (raw += d));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(stats));
    }
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions')) {
      res.writeHead(404);
      return res.end();
    }
    stats.rounds++;
    const body = raw ? JSON.parse(raw) : {};
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(frames(replyTo(body)));
  });
});

server.listen(0, '127.0.0.1', () => {
  const { address, port } = server.address();
  process.stdout.write(`${JSON.stringify({ msg: 'listening', listen: `${address}:${port}` })}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
