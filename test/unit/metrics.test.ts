/**
 * The metrics registry in its two formats (src/telemetry/metrics.ts): OpenMetrics and the classic
 * Prometheus text format over the same live metrics, correct when rendered concurrently.
 */
import { describe, expect, it } from 'vitest';
import { Metrics, OPENMETRICS_CONTENT_TYPE, PROMETHEUS_CONTENT_TYPE } from '../../src/telemetry/metrics.js';

function metrics(): Metrics {
  const m = new Metrics(0, () => 2500);
  m.bind({ queueDepth: () => 4, sseClients: () => 1, agents: () => 2 });
  m.httpRequests.inc(3);
  return m;
}

/** Asserts one exposition is wholly in one format, and gives its sample lines. */
function expectFormat(text: string, format: 'openmetrics' | 'prometheus'): string[] {
  const om = format === 'openmetrics';
  expect(text.endsWith('# EOF\n')).toBe(om);
  const counterFamily = om ? 'svc_http_requests' : 'svc_http_requests_total';
  expect(text).toContain(`# HELP ${counterFamily} HTTP requests answered (both surfaces)\n# TYPE ${counterFamily} counter\nsvc_http_requests_total 3\n`);
  expect(text).toContain('# TYPE svc_queue_pending_messages gauge\nsvc_queue_pending_messages 4\n');
  expect(text).toContain('svc_process_uptime_seconds 2.5\n');
  return text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
}

describe('Metrics', () => {
  it('renders OpenMetrics by default: counter family svc_x, sample svc_x_total, # EOF', async () => {
    expectFormat(await metrics().render(), 'openmetrics');
  });

  it('renders the classic text format with the counter family named svc_x_total', async () => {
    const text = await metrics().render(PROMETHEUS_CONTENT_TYPE);
    expectFormat(text, 'prometheus');
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      if (type === 'counter') expect(name).toMatch(/_total$/);
    }
  });

  it('both formats show the same samples, and counters keep counting in both', async () => {
    const m = metrics();
    const om = expectFormat(await m.render(OPENMETRICS_CONTENT_TYPE), 'openmetrics');
    const text = expectFormat(await m.render(PROMETHEUS_CONTENT_TYPE), 'prometheus');
    expect(text).toEqual(om);
    m.httpRequests.inc();
    expect(await m.render(PROMETHEUS_CONTENT_TYPE)).toContain('\nsvc_http_requests_total 4\n');
    expect(await m.render()).toContain('\nsvc_http_requests_total 4\n');
  });

  it('concurrent renders of both formats do not mix', async () => {
    const m = metrics();
    const types = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? OPENMETRICS_CONTENT_TYPE : PROMETHEUS_CONTENT_TYPE));
    const texts = await Promise.all(types.map((t) => m.render(t)));
    texts.forEach((t, i) => expectFormat(t, types[i] === OPENMETRICS_CONTENT_TYPE ? 'openmetrics' : 'prometheus'));
  });
});
