/**
 * The nats-server fixture (test/helpers/nats.ts) on real servers: a single node has JetStream and
 * enforces its token; a three-node cluster elects a meta leader over three peers and places an
 * R3 stream; a node SIGKILLed and restarted is healthy again and rejoins; close() leaves no
 * process and no directory. No NATS client package is installed, so the test speaks the NATS
 * protocol over a raw TCP socket (INFO, CONNECT, SUB/PUB to the JetStream API).
 */
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startNats, type NatsCluster } from '../helpers/nats.js';

const clusters: NatsCluster[] = [];
afterAll(async () => {
  await Promise.all(clusters.map((c) => c.close()));
});

async function start(opts: Parameters<typeof startNats>[0]): Promise<NatsCluster> {
  const cluster = await startNats(opts);
  clusters.push(cluster);
  return cluster;
}

interface Exchange {
  info: Record<string, unknown>;
  /** Everything the server sent after its INFO line. */
  text: string;
}

/** Connect to `url`, read INFO, send CONNECT and `send`, and collect what comes back until `done(text)` or the server closes. */
function exchange(url: string, token: string | undefined, send: string, done: (text: string) => boolean): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let buffer = '';
    let info: Record<string, unknown> | null = null;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      if (info) resolve({ info, text: buffer });
      else reject(new Error(`no INFO line from ${url}: ${buffer}`));
    };
    const timer = setTimeout(finish, 5_000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      buffer += d;
      if (!info) {
        const end = buffer.indexOf('\r\n');
        if (end < 0 || !buffer.startsWith('INFO ')) return;
        info = JSON.parse(buffer.slice(5, end)) as Record<string, unknown>;
        buffer = buffer.slice(end + 2);
        const connect = { verbose: false, pedantic: false, protocol: 1, ...(token === undefined ? {} : { auth_token: token }) };
        socket.write(`CONNECT ${JSON.stringify(connect)}\r\n${send}`);
      }
      if (done(buffer)) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

/** One JetStream API request (`$JS.API.<api>`) over the raw protocol; its JSON reply. */
async function jsApi(url: string, token: string | undefined, api: string, body: unknown = ''): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const payload = body === '' ? '' : JSON.stringify(body);
  const send = `SUB _INBOX.fixture 1\r\nPUB $JS.API.${api} _INBOX.fixture ${Buffer.byteLength(payload)}\r\n${payload}\r\n`;
  const reply = /^MSG _INBOX\.fixture 1 (\d+)\r\n/m;
  const complete = (text: string) => {
    const m = reply.exec(text);
    return m !== null && Buffer.byteLength(text.slice(m.index + m[0].length)) >= Number(m[1]);
  };
  const { text } = await exchange(url, token, send, complete);
  const m = reply.exec(text);
  if (!m) throw new Error(`no reply to $JS.API.${api} from ${url}: ${text}`);
  return JSON.parse(text.slice(m.index + m[0].length).slice(0, Number(m[1])));
}

async function monitor(base: string, endpoint: string): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${base}${endpoint}`);
  return { status: res.status, json: await res.json() };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startNats', () => {
  it('one node: JetStream on, the token enforced, healthy on its monitor port', async () => {
    const nats = await start({ token: 's3cret' });
    expect(nats.urls).toEqual([nats.nodes[0]!.url]);
    expect(nats.servers).toBe(nats.urls[0]);

    const ok = await exchange(nats.urls[0]!, 's3cret', 'PING\r\n', (t) => t.includes('PONG') || t.includes('-ERR'));
    expect(ok.info).toMatchObject({ jetstream: true, auth_required: true, server_name: 'n0', version: expect.any(String) });
    expect(ok.text).toContain('PONG');
    const denied = await exchange(nats.urls[0]!, 'wrong', 'PING\r\n', (t) => t.includes('PONG') || t.includes('-ERR'));
    expect(denied.text).toContain("-ERR 'Authorization Violation'");

    const account = await jsApi(nats.urls[0]!, 's3cret', 'INFO');
    expect(account.type).toBe('io.nats.jetstream.api.v1.account_info_response');
    expect(account.error).toBeUndefined();
    expect((await monitor(nats.nodes[0]!.monitor, '/healthz')).status).toBe(200);
  });

  it('three nodes: one meta leader over three peers, an R3 stream, a SIGKILLed node restarts and rejoins, close() leaves nothing', async () => {
    const nats = await start({ nodes: 3 });
    expect(nats.urls).toHaveLength(3);
    expect(new Set(nats.urls).size).toBe(3);
    expect(nats.servers).toBe(nats.urls.join(','));

    // Every node names the same leader over three peers; only the leader lists the other two
    // (`replicas`), in 2.9.10. Asked again until true: cluster_size may lag the election briefly.
    let leader = '';
    await vi.waitFor(async () => {
      const metas = await Promise.all(nats.nodes.map(async (n) => (await monitor(n.monitor, '/jsz')).json.meta_cluster));
      leader = metas[0].leader as string;
      expect(['n0', 'n1', 'n2']).toContain(leader);
      for (const meta of metas) expect(meta).toMatchObject({ name: 'svc-test', leader, cluster_size: 3 });
      const leaderNode = nats.nodes.find((n) => n.name === leader)!;
      const replicas = (await monitor(leaderNode.monitor, '/jsz')).json.meta_cluster.replicas as Array<{ name: string }>;
      expect(replicas.map((r) => r.name).sort()).toEqual(['n0', 'n1', 'n2'].filter((n) => n !== leader));
    });

    const created = await jsApi(nats.urls[1]!, undefined, 'STREAM.CREATE.FIXTURE', { name: 'FIXTURE', subjects: ['fixture.>'], num_replicas: 3, storage: 'file' });
    expect(created.error).toBeUndefined();
    expect(created.cluster.replicas).toHaveLength(2);

    const pid0 = nats.nodes[0]!.pid!;
    await nats.kill(0);
    expect(nats.nodes[0]!.pid).toBeNull();
    expect(isRunning(pid0)).toBe(false);
    await nats.restart(0);
    const newPid = nats.nodes[0]!.pid!;
    expect(newPid).not.toBe(pid0);
    expect((await monitor(nats.nodes[0]!.monitor, '/healthz')).status).toBe(200);
    expect((await monitor(nats.nodes[0]!.monitor, '/jsz')).json.meta_cluster.leader).toMatch(/^n[012]$/);
    const info = await jsApi(nats.urls[0]!, undefined, 'STREAM.INFO.FIXTURE');
    expect(info.error).toBeUndefined();
    expect(nats.logs(0)).toContain('--- restart of n0 ---');

    const pids = nats.nodes.map((n) => n.pid!);
    const dir = nats.nodes[0]!.storeDir;
    await nats.close();
    for (const pid of pids) expect(isRunning(pid)).toBe(false);
    expect(nats.nodes.map((n) => n.pid)).toEqual([null, null, null]);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
