import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { createLogger, LazyChildLogger } from '../../src/telemetry/logger.js';
import { Metrics } from '../../src/telemetry/metrics.js';
import { defineRoute } from '../../src/http/route.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { logger: createLogger(level, sink), lines };
}

describe('request loggers', () => {
  it('make no pino child for a line below the level, and log with the bindings above it', () => {
    const { logger, lines } = capture('info');
    let children = 0;
    const child = logger.child.bind(logger);
    logger.child = ((...args: Parameters<typeof child>) => {
      children++;
      return child(...args);
    }) as typeof logger.child;
    const lazy = new LazyChildLogger(logger, { reqId: 'req-1' });
    lazy.debug({ a: 1 }, 'quiet');
    lazy.trace('quieter');
    expect(children).toBe(0);
    lazy.error({ token: 'x', authorization: 'Bearer secret' }, 'loud');
    lazy.warn('again');
    expect(children).toBe(1);
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['loud', 'req-1'],
      ['again', 'req-1'],
    ]);
    expect(lazy.level).toBe('info');
  });

  it('an app logs an unhandled error through the request logger, with its request id', async () => {
    const { logger, lines } = capture('info');
    const { app } = await buildApp({
      logger,
      metrics: new Metrics(Date.now(), Date.now),
      auth: { token: '', readAccess: 'loopback', allowedHosts: [], allowedOrigins: [], trustLoopbackPeers: false } as never,
      heartbeatMs: 1000,
      surface: 'inbox',
      routes: [
        defineRoute({
          method: 'GET',
          url: '/boom',
          auth: 'open',
          summary: 'fails',
          tags: ['test'],
          responses: {},
          handler: () => {
            throw new Error('kaboom');
          },
        }),
      ],
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    const line = lines.find((l) => l.msg === 'unhandled error');
    expect(line).toMatchObject({ reqId: expect.any(String), err: { message: 'kaboom' } });
    await app.close();
  });
});
