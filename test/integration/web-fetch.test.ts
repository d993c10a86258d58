/**
 * web_fetch against real servers on loopback (docs/tools.md#web-fetch). In process: a page on
 * 127.0.0.1 is fetched as markdown only when the host is a private host, and refused otherwise
 * with nothing sent; a redirect from an allowed host to a disallowed one is refused at the hop;
 * the byte cap truncates (and stops reading an endless body), the deadline ends a server that
 * never answers, binary content is refused, a 404 is returned with its status. The tool answers
 * refusals and bad arguments with tool errors. Through the daemon: a scripted model fetches an allowed page and is refused a disallowed one, and an
 * untrusted turn's fetch waits for the operator's approval (class `network`).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { VERSION } from '../../src/version.js';
import { pageArtifact } from '../../src/runtime/tools/web.js';
import type { ToolOutcome } from '../../src/runtime/tools/index.js';
import { WebFetcher, type FetchOptions, type Resolver, type WebPage } from '../../src/runtime/web/index.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI, type FakeModelServer, type RecordedRequest, type Reply } from '../helpers/fake-openai.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { startWebServer, webConfig, type WebServer } from '../helpers/web-server.js';

let web: WebServer;
let other: WebServer;
beforeAll(async () => {
  web = await startWebServer();
  other = await startWebServer();
});
afterAll(async () => {
  await web.close();
  await other.close();
});

const logger = createLogger('silent');
const LOOPBACK = { private_hosts: ['127.0.0.1'] };

function fetcher(cfg: Parameters<typeof webConfig>[0] = LOOPBACK, resolve?: Resolver): WebFetcher {
  return new WebFetcher({ config: webConfig(cfg), logger, ...(resolve ? { resolve } : {}) });
}

function get(f: WebFetcher, url: string, opts: FetchOptions = {}, signal = new AbortController().signal) {
  return f.fetch(url, opts, signal);
}

/** The AppError a fetch fails with (fails the test if it succeeds). */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('WebFetcher on loopback', () => {
  it('returns an article page as markdown when 127.0.0.1 is a private host', async () => {
    const page = await get(fetcher(), `${web.url}/page`);
    expect(page).toMatchObject({ url: `${web.url}/page`, final_url: `${web.url}/page`, status: 200, content_type: 'text/html', content_format: 'text/markdown', title: 'The Release Notes', truncated: false });
    expect(page.content).toContain('Version 2 is out');
    expect(page.content).toContain(`[storage layer](${web.url}/docs/storage)`);
    expect(page.content).toContain('**durable**');
    expect(page.content).toContain('```\nnpm install thing@2\n```');
    expect(page.content).toMatch(/^-\s+faster startup$/m);
    // The reader view leaves out scripts, styles, navigation and the footer.
    for (const noise of ['tracking', 'color:red', 'Copyright', 'About']) expect(page.content).not.toContain(noise);
    expect(web.headers.at(-1)).toMatchObject({ 'user-agent': `svc/${VERSION}`, accept: 'text/html, text/plain, application/json;q=0.9, */*;q=0.1' });
    expect(web.headers.at(-1)).not.toHaveProperty('cookie');
    expect(page.bytes).toBe(Buffer.byteLength((await (await fetch(`${web.url}/page`)).text())));
    expect(pageArtifact(page)).toEqual({ kind: 'page', name: `${web.url}/page`, media_type: 'text/markdown', content: page.content });
  });

  it('returns text or the raw HTML on request, and text content as it is, decoded by its charset', async () => {
    const f = fetcher();
    const text = await get(f, `${web.url}/page`, { format: 'text' });
    expect(text.content_format).toBe('text/plain');
    expect(text.content).toMatch(/^Version 2 is out$/m);
    expect(text.content).not.toContain('**');
    const raw = await get(f, `${web.url}/page`, { format: 'raw' });
    expect(raw).toMatchObject({ content_format: 'text/html' });
    expect(raw.content).toContain('<script>');
    expect((await get(f, `${web.url}/latin1`)).content).toBe('café crème');
    expect(await get(f, `${web.url}/meta-charset`, { format: 'text' })).toMatchObject({ title: 'naïve', content: 'naïve café' });
    expect(JSON.parse((await get(f, `${web.url}/json`)).content)).toEqual({ hello: 'world', n: 1 });
  });

  it('refuses 127.0.0.1 and localhost when they are not private hosts, sending nothing', async () => {
    const before = web.requests.length;
    const f = fetcher({ private_hosts: [] });
    const literal = await failure(get(f, `${web.url}/page`));
    expect(literal).toMatchObject({ code: 'url_refused', extra: { reason: 'private_address', address: '127.0.0.1', range: 'loopback' } });
    const named = await failure(get(f, `http://localhost:${web.port}/page`));
    expect(named).toMatchObject({ code: 'url_refused', extra: { reason: 'private_address', host: 'localhost' } });
    expect(named.message).toContain('tools.web.private_hosts');
    // A name the resolver answers with 127.0.0.1 is refused at the connection as well.
    const rebound = await failure(get(fetcher({ private_hosts: [] }, async () => [{ address: '127.0.0.1', family: 4 }]), `http://www.example.com:${web.port}/page`));
    expect(rebound.extra).toMatchObject({ reason: 'private_address', host: 'www.example.com', address: '127.0.0.1' });
    expect(web.requests.length).toBe(before);
  });

  it('resolves a name once per connection and connects to the address it checked', async () => {
    // No lookup to validate and another to connect: a DNS answer that changes between two
    // lookups (rebinding) has no second lookup to change in.
    const answers: string[] = [];
    const resolve: Resolver = async (host) => {
      answers.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const page = await get(fetcher({ private_hosts: ['app.internal'] }, resolve), `http://app.internal:${web.port}/json`);
    expect(page.status).toBe(200);
    expect(answers).toEqual(['app.internal']);
  });

  it('reads [tools.web] for every fetch', async () => {
    const config = webConfig({ private_hosts: [] });
    const f = new WebFetcher({ config, logger });
    expect((await failure(get(f, `${web.url}/json`))).code).toBe('url_refused');
    config.values.tools.web = { ...config.values.tools.web, private_hosts: ['127.0.0.1'] };
    expect((await get(f, `${web.url}/json`)).status).toBe(200);
    config.values.tools.web = { ...config.values.tools.web, allowed_hosts: ['example.com'] };
    expect((await failure(get(f, `${web.url}/json`))).extra.reason).toBe('host_not_allowed');
  });

  it('follows redirects between allowed hosts, checking every hop', async () => {
    const f = fetcher();
    const page = await get(f, `${web.url}/redirect?to=${encodeURIComponent(`${other.url}/page`)}`);
    expect(page).toMatchObject({ status: 200, final_url: `${other.url}/page`, title: 'The Release Notes' });
    const relative = await get(f, `${web.url}/redirect?status=301&to=/json`);
    expect(relative).toMatchObject({ status: 200, final_url: `${web.url}/json` });
  });

  it('refuses a redirect from an allowed loopback host to a disallowed one, and reaches nothing there', async () => {
    const before = other.requests.length;
    const f = fetcher();
    // localhost resolves to loopback but is not a private host.
    const toLocalhost = await failure(get(f, `${web.url}/redirect?to=${encodeURIComponent(`http://localhost:${other.port}/page`)}`));
    expect(toLocalhost.extra).toMatchObject({ reason: 'private_address', host: 'localhost' });
    expect(toLocalhost.message).toContain(`localhost:${other.port}`);
    for (const [to, reason] of [
      ['http://169.254.169.254/latest/meta-data/', 'private_address'],
      ['http://[::ffff:10.0.0.1]/', 'private_address'],
      ['file:///etc/passwd', 'scheme'],
      ['http://user:pw@127.0.0.1/', 'credentials'],
    ] as const) {
      expect((await failure(get(f, `${web.url}/redirect?to=${encodeURIComponent(to)}`))).extra.reason, to).toBe(reason);
    }
    const narrow = fetcher({ allowed_hosts: ['127.0.0.1'], private_hosts: ['127.0.0.1', 'localhost'] });
    const notAllowed = await failure(get(narrow, `${web.url}/redirect?to=${encodeURIComponent(`http://localhost:${other.port}/page`)}`));
    expect(notAllowed.extra).toMatchObject({ reason: 'host_not_allowed', host: 'localhost' });
    expect(other.requests.length).toBe(before);
  });

  it('stops after max_redirects', async () => {
    const err = await failure(get(fetcher({ ...LOOPBACK, max_redirects: 3 }), `${web.url}/loop`));
    expect(err).toMatchObject({ code: 'url_refused', extra: { reason: 'too_many_redirects', max_redirects: 3 } });
    const none = await failure(get(fetcher({ ...LOOPBACK, max_redirects: 0 }), `${web.url}/redirect?to=/page`));
    expect(none.extra.reason).toBe('too_many_redirects');
  });

  it('truncates at the byte cap with a note, and stops reading a body that never ends', async () => {
    const f = fetcher({ ...LOOPBACK, max_bytes: 4096 });
    const big = await get(f, `${web.url}/big?bytes=100000`);
    expect(big).toMatchObject({ bytes: 4096, truncated: true });
    expect(big.content).toBe('x'.repeat(4096));
    expect(big.note).toMatch(/only its first 4096 bytes were read; 4096 bytes is the most/);
    const smaller = await get(f, `${web.url}/big?bytes=100000`, { maxBytes: 100 });
    expect(smaller).toMatchObject({ bytes: 100, truncated: true, content: 'x'.repeat(100) });
    expect(smaller.note).toContain('call again with a larger max_bytes (at most 4096)');
    // The model's max_bytes never raises the configured cap.
    expect((await get(f, `${web.url}/big?bytes=100000`, { maxBytes: 1_000_000 })).bytes).toBe(4096);
    expect(await get(f, `${web.url}/big?bytes=4096`)).toMatchObject({ bytes: 4096, truncated: false });
    // A cut inside a two-byte character drops that character whole.
    const utf8 = await get(f, `${web.url}/utf8`, { maxBytes: 4095 });
    expect(utf8).toMatchObject({ bytes: 4095, truncated: true, content: 'é'.repeat(2047) });
    const endless = await get(f, `${web.url}/endless`);
    expect(endless).toMatchObject({ bytes: 4096, truncated: true });
    // A compressed body is capped after decompression (a small download cannot fill memory).
    expect(await get(f, `${web.url}/gzip`)).toMatchObject({ bytes: 4096, truncated: true, content: 'z'.repeat(4096) });
  });

  it('ends a server that never answers, or never finishes, at timeout_ms', async () => {
    const f = fetcher({ ...LOOPBACK, timeout_ms: 300 });
    const started = Date.now();
    const hang = await failure(get(f, `${web.url}/hang`));
    expect(hang).toMatchObject({ code: 'fetch_timeout', extra: { timeout_ms: 300 } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await failure(get(f, `${web.url}/trickle`))).code).toBe('fetch_timeout');
  });

  it('converts a deeply nested page without Readability, and ends a conversion that outruns timeout_ms in its worker', async () => {
    // 2,000 nested divs: Readability alone took 106 s of CPU over them; past the depth limit the
    // body is converted whole.
    expect(await get(fetcher(), `${web.url}/nested?depth=2000`)).toMatchObject({ status: 200, content: 'deep text' });
    // The conversion runs in a worker: while it runs, another fetch is served to its end.
    const slow = failure(get(fetcher({ ...LOOPBACK, timeout_ms: 1000 }), `${web.url}/unclosed`));
    let slowDone = false;
    void slow.then(() => (slowDone = true));
    expect((await get(fetcher(), `${web.url}/json`)).status).toBe(200);
    expect(slowDone).toBe(false);
    const err = await slow;
    expect(err).toMatchObject({ code: 'fetch_timeout', extra: { timeout_ms: 1000 } });
    expect(err.message).toContain('making it readable did not finish');
    // The raw HTML needs no conversion.
    expect((await get(fetcher({ ...LOOPBACK, timeout_ms: 2000 }), `${web.url}/unclosed`, { format: 'raw' })).bytes).toBe('<html><body>'.length + 9 * 60_000 + '</body></html>'.length);
  });

  it('stops when the turn is aborted', async () => {
    const ctl = new AbortController();
    const pending = get(fetcher(), `${web.url}/hang`, {}, ctl.signal);
    setTimeout(() => ctl.abort(), 50);
    expect((await failure(pending)).code).toBe('aborted');
  });

  it('refuses binary content, naming its type and size', async () => {
    const f = fetcher();
    const image = await failure(get(f, `${web.url}/image`));
    expect(image).toMatchObject({ code: 'unsupported_content', extra: { content_type: 'image/png', bytes: 2048 } });
    expect(image.message).toContain('image/png (2048 bytes)');
    const untyped = await failure(get(f, `${web.url}/untyped-binary`));
    expect(untyped.code).toBe('unsupported_content');
  });

  it('returns a 404 page with its status', async () => {
    const page = await get(fetcher(), `${web.url}/missing`);
    expect(page).toMatchObject({ status: 404, title: 'Not here' });
    expect(page.content).toContain('No such page.');
  });

  it('reports a name that does not resolve as fetch_failed', async () => {
    const err = await failure(get(fetcher(), 'http://nowhere.invalid/'));
    expect(err.code).toBe('fetch_failed');
    expect(err.message).toContain('nowhere.invalid');
  });
});

describe('the web_fetch tool', () => {
  let t: TestServices;
  beforeAll(() => {
    t = testServices({ configToml: '[tools.web]\nprivate_hosts = ["127.0.0.1"]\nmax_bytes = 4096\n' });
  });
  afterAll(() => t.close());

  function call(args: Record<string, unknown>): Promise<ToolOutcome> {
    const tool = t.s.tools.find((x) => x.name === 'web_fetch')!;
    return tool.execute({ agentId: 'main', turnId: 'turn_T', messageId: 'msg_M', trust: 'trusted_operator', network: true, signal: new AbortController().signal }, args);
  }

  it('returns the page as data the model reads, and its artifact', async () => {
    const out = await call({ url: `${web.url}/page`, format: 'text' });
    expect(out.ok, out.content).toBe(true);
    expect(JSON.parse(out.content)).toEqual(out.data);
    const page = out.data as WebPage;
    expect(page).toMatchObject({ status: 200, content_format: 'text/plain', title: 'The Release Notes' });
    expect(pageArtifact(page)).toMatchObject({ kind: 'page', name: `${web.url}/page`, media_type: 'text/plain' });
    expect(((await call({ url: `${web.url}/big?bytes=10000` })).data as WebPage).bytes).toBe(4096);
  });

  it('answers refusals and bad arguments with a tool error and fetches nothing', async () => {
    const before = web.requests.length;
    for (const [args, code] of [
      [{ url: 'file:///etc/passwd' }, 'url_refused'],
      [{ url: `http://localhost:${web.port}/page` }, 'url_refused'],
      [{ url: `${web.url}/${'a'.repeat(9000)}` }, 'invalid_arguments'],
      [{ url: `${web.url}/page`, headers: { cookie: 'x' } }, 'invalid_arguments'],
      [{ url: `${web.url}/page`, max_bytes: 0 }, 'invalid_arguments'],
      [{ url: `${web.url}/page`, format: 'pdf' }, 'invalid_arguments'],
      [{ url: 42 }, 'invalid_arguments'],
      [{}, 'invalid_arguments'],
    ] as const) {
      const out = await call(args as Record<string, unknown>);
      expect(out.ok, JSON.stringify(args).slice(0, 80)).toBe(false);
      expect(JSON.parse(out.content)).toMatchObject({ ok: false, code, error: expect.any(String) });
    }
    expect(web.requests.length).toBe(before);
  });
});

describe('web_fetch through the daemon with a scripted model', () => {
  const pool = daemonPool();
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeOpenAI();
    model.responder = fetchWhatIsAsked;
  });
  afterEach(() => pool.killAll());
  afterAll(async () => {
    pool.cleanup();
    await model.close();
  });

  /** "fetch URL" makes the model call web_fetch with URL; a tool result is answered with text. */
  function fetchWhatIsAsked(req: RecordedRequest): Reply {
    const messages = req.body.messages as Array<{ role: string; content: string }>;
    const last = messages[messages.length - 1]!;
    if (last.role === 'tool') return { text: ['read it'] };
    const url = /fetch (\S+)/.exec(String(last.content))?.[1];
    return url ? { toolCalls: [{ name: 'web_fetch', args: [JSON.stringify({ url })] }] } : { text: ['nothing to do'] };
  }

  function config(privateHosts: string[]): string {
    return `[model]\ndefault = "fake/m"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${model.url}"\napi_key_env = ""\nmodels = ["m"]\n\n[tools.web]\nprivate_hosts = ${JSON.stringify(privateHosts)}\n`;
  }

  /** The tool message the model received after asking the operator's prompt `text`. */
  async function toolResult(d: RunningDaemon, text: string): Promise<Record<string, any>> {
    const before = model.completions().length;
    const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text } });
    expect(res.status, res.text).toBe(202);
    const second = await waitFor(() => model.completions().slice(before).find((c) => c.body.messages.at(-1).role === 'tool') ?? null, 20_000);
    return JSON.parse(second.body.messages.at(-1).content);
  }

  it('fetches an allowed page for the model and refuses a disallowed one with a tool error', async () => {
    // 127.0.0.1 is a private host; localhost (the same machine by name) is not.
    const d = await pool.start({ configToml: config(['127.0.0.1']) });
    const ok = await toolResult(d, `fetch ${web.url}/page`);
    expect(ok).toMatchObject({ status: 200, final_url: `${web.url}/page`, title: 'The Release Notes', truncated: false });
    expect(ok.content).toContain('Version 2 is out');
    const before = other.requests.length;
    const refused = await toolResult(d, `fetch http://localhost:${other.port}/page`);
    expect(refused).toMatchObject({ ok: false, code: 'url_refused', reason: 'private_address', host: 'localhost' });
    expect(refused.error).toContain('private_hosts');
    expect(other.requests.length).toBe(before);
  });

  it('is class network: an untrusted turn asks the operator before anything is fetched', async () => {
    const d = await pool.start({ configToml: config(['127.0.0.1']) });
    const before = web.requests.length;
    const res = await request(d, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'chat' }, text: `fetch ${web.url}/page` } });
    expect(res.status, res.text).toBe(202);
    const approval = await waitFor(async () => (await request(d, 'GET', '/api/agents/main/approvals?status=pending')).json.approvals[0], 15_000);
    expect(approval).toMatchObject({ tool: 'web_fetch', classes: ['network'], trust: 'untrusted_external', arguments: { url: `${web.url}/page` } });
    expect(web.requests.length).toBe(before);
  });
});
