/**
 * The metrics endpoint of a real daemon in both formats (issue 16, item 4): OpenMetrics by default
 * (spec "Runtime management"), the classic Prometheus text format when Accept asks for it, and both
 * checked by `promtool check metrics`. promtool is required: without it this file fails, it does
 * not skip. Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

const OPENMETRICS = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
const URL = '/api/control/runtime/metrics';

/** `promtool check metrics` on a body; throws when promtool is not installed. */
function promtool(body: string): { status: number | null; output: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: body, encoding: 'utf8', timeout: 20_000 });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error('promtool not found on PATH: install the Debian package `prometheus` (apt-get install -y prometheus), which provides /usr/bin/promtool');
  }
  if (r.error) throw r.error;
  return { status: r.status, output: r.stdout + r.stderr };
}

function counterFamilies(body: string): string[] {
  return [...body.matchAll(/^# TYPE (\S+) counter$/gm)].map((m) => m[1]!);
}

const pool = daemonPool();
let d: RunningDaemon;

beforeAll(async () => {
  d = await pool.start();
  // Some traffic first, so counters and gauges are not all zero.
  expect((await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: 'count me' } })).status).toBe(202);
  expect((await request(d, 'GET', '/api/no-such-route')).status).toBe(404);
  expect((await request(d, 'GET', '/api/control/runtime/status')).status).toBe(200);
});

afterAll(() => pool.cleanup());

const fetchMetrics = (accept?: string) => request(d, 'GET', URL, accept === undefined ? {} : { headers: { accept } });

// The ranking itself is tested in test/unit/accept.test.ts; here, that the route uses it.
describe('metrics content negotiation', () => {
  it.each([
    ['no Accept', undefined, OPENMETRICS],
    ['text/plain; version=0.0.4', 'text/plain; version=0.0.4', PROMETHEUS_TEXT],
    ['text/plain ranked above openmetrics', 'application/openmetrics-text;q=0.3, text/plain;q=0.7', PROMETHEUS_TEXT],
    ['a type it does not serve', 'application/json', OPENMETRICS],
  ])('%s -> %s', async (_name, accept, type) => {
    const r = await fetchMetrics(accept);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.headers.vary).toMatch(/\bAccept\b/);
    expect(r.text.endsWith('# EOF\n')).toBe(type === OPENMETRICS);
  });

  it('concurrent requests for both formats each get their own format, whole', async () => {
    const accepts = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? undefined : 'text/plain; version=0.0.4'));
    const answers = await Promise.all(accepts.map((a) => fetchMetrics(a)));
    answers.forEach((r, i) => {
      const om = accepts[i] === undefined;
      expect(r.headers['content-type']).toBe(om ? OPENMETRICS : PROMETHEUS_TEXT);
      expect(r.text.endsWith('# EOF\n')).toBe(om);
      expect(r.text).toMatch(om ? /^# TYPE svc_http_requests counter$/m : /^# TYPE svc_http_requests_total counter$/m);
      expect(r.text).toMatch(/^svc_http_requests_total [1-9]\d*$/m);
    });
  });
});

describe('promtool check metrics', () => {
  it('finds nothing in the Prometheus text format', async () => {
    const r = await fetchMetrics('text/plain; version=0.0.4');
    expect(r.headers['content-type']).toBe(PROMETHEUS_TEXT);
    expect(r.text).toMatch(/^svc_messages_enqueued_total 1$/m);
    expect(promtool(r.text)).toEqual({ status: 0, output: '' });
  });

  it('finds in OpenMetrics only what its classic-format parser misreads: each counter sample as a family without help', async () => {
    // promtool parses only the classic format (prometheus/prometheus#8932). An OpenMetrics counter is
    // the family `svc_x` (with HELP and TYPE) and the sample `svc_x_total`, which that parser reads
    // as a second family with no HELP. Anything else it reports is a real finding and fails here.
    const r = await fetchMetrics();
    expect(r.headers['content-type']).toBe(OPENMETRICS);
    expect(r.text).toMatch(/^svc_messages_enqueued_total 1$/m);
    const counters = counterFamilies(r.text);
    expect(counters.length).toBeGreaterThan(0);
    for (const name of counters) expect(r.text).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
    const expected = counters.map((name) => `${name}_total no help text`).sort();
    const { status, output } = promtool(r.text);
    expect(output.trim().split('\n').sort()).toEqual(expected);
    expect(status).toBe(3); // lint findings; 1 would be a parse error
  });
});
