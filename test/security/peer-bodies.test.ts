/**
 * Answers from peers svc does not trust are read with a cap, not whole: a GitHub API server (its
 * base URL is configurable) sending a page larger than 32 MiB fails the poll with a message, and a
 * webhook receiver answering with a body that never ends does not hold the delivery until the
 * timeout (nor svc's memory). Against real HTTP servers on loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { WebhookDelivery } from '../../src/inbox/delivery/webhook.js';
import type { PendingNotification, TargetWithSecret } from '../../src/inbox/delivery/types.js';
import { GithubApi } from '../../src/inbox/sources/providers/github-api.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server whose every answer is 200 and `body` written in 1 MiB chunks, `total` bytes (Infinity: never ends). */
async function flood(total: number, contentType: string): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    const pump = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.write('[');
    pump();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent };
}

describe('peer answers are read with a cap', () => {
  it('a GitHub page over 32 MiB fails the poll with a message, having read little more than the cap', async () => {
    const gh = await flood(200 * 1024 * 1024, 'application/json');
    const api = new GithubApi({ apiBaseUrl: gh.url, token: null, profile: null, now: 0, userAgent: 'svc-test' });
    await expect(api.list(api.url('/repos/o/r/issues', {}), null, 1, (b) => b as unknown[])).rejects.toThrow(/more than 32 MiB/);
    // The server stopped being read soon after the cap (what the socket buffers held aside).
    expect(gh.sent()).toBeLessThan(100 * 1024 * 1024);
  });

  it("a webhook receiver's endless answer does not hold the delivery until its timeout", async () => {
    const rx = await flood(Infinity, 'text/plain');
    const delivery = new WebhookDelivery({ clock: new ManualClock(0), timeoutMs: () => 60_000 });
    const target = { url: rx.url, secret: 'whsec' } as unknown as TargetWithSecret;
    const n = { notificationId: 'ntf_1', targetId: 't', agentId: 'a', attempts: 0, payload: {}, body: '{}' } as unknown as PendingNotification;
    const t0 = performance.now();
    await expect(delivery.deliver(target, n, new AbortController().signal)).resolves.toEqual({ ok: true });
    // Loose bound: the 60 s timeout would be the only end without the cap.
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
