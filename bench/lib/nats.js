/**
 * Real `nats-server` processes with JetStream on loopback for the bench (the JS counterpart of
 * test/helpers/nats.ts): one node, or a three-node cluster (n0..n2, each routed to the other two).
 * Each node runs from a config file in a fresh temporary directory (under BENCH_TMPDIR, like the
 * daemons' homes, so both store on the same filesystem) that also holds its store. `startNats`
 * returns once every node answers 200 on /healthz and, for a cluster, /jsz shows a meta leader.
 * Servers still running when the bench exits (or is interrupted) are SIGKILLed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const READY_TIMEOUT_MS = 20_000;
const POLL_MS = 100;

const live = new Set();
let hooksInstalled = false;

function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    for (const proc of live) proc.kill('SIGKILL');
  });
  // An interrupted bench would otherwise leave the servers running: the default handlers skip 'exit'.
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      for (const proc of live) proc.kill('SIGKILL');
      process.kill(process.pid, sig);
    });
  }
}

/** The nats-server binary: the Debian package puts it in /usr/sbin, which is not on every PATH. */
export function natsServerBinary() {
  const dirs = ['/usr/bin', '/usr/sbin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'nats-server');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  throw new Error('nats-server is not installed (Debian package nats-server)');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `count` distinct loopback ports that were free a moment ago. */
export async function distinctPorts(count) {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * A node's config file: `node` is {name, port, monitorPort, clusterPort?, dir}; with a cluster port,
 * routes to every other node of `nodes` (comma-separated: nats-server rejects an array without commas).
 */
export function configText(node, nodes, { cluster = 'svc-bench', token } = {}) {
  const lines = [`server_name: ${node.name}`, `listen: "127.0.0.1:${node.port}"`, `http: "127.0.0.1:${node.monitorPort}"`, `jetstream { store_dir: ${JSON.stringify(node.dir)} }`];
  if (node.clusterPort !== undefined) {
    const routes = nodes.filter((p) => p !== node).map((p) => JSON.stringify(`nats://127.0.0.1:${p.clusterPort}`));
    lines.push(`cluster { name: ${cluster}, listen: "127.0.0.1:${node.clusterPort}", routes: [${routes.join(', ')}] }`);
  }
  if (token !== undefined) lines.push(`authorization { token: ${JSON.stringify(token)} }`);
  return `${lines.join('\n')}\n`;
}

async function getJson(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, json };
  } catch {
    return { status: 0, json: undefined };
  }
}

/**
 * What the node still lacks to be ready, or null once it is: in a cluster a meta leader on /jsz
 * (asked first: a failing /healthz logs a warning on every poll), then a 200 from /healthz (on
 * 2.9 it also waits for contact with the meta leader and for this node's streams to be current).
 */
export async function notReady(node) {
  const base = `http://127.0.0.1:${node.monitorPort}`;
  if (node.clusterPort !== undefined) {
    const jsz = await getJson(`${base}/jsz`);
    if (!jsz.json?.meta_cluster?.leader) return `/jsz shows no meta leader: ${JSON.stringify(jsz.json?.meta_cluster ?? null)}`;
  }
  const health = await getJson(`${base}/healthz`);
  if (health.status !== 200) return `/healthz answered ${health.status || 'nothing'} ${health.json ? JSON.stringify(health.json) : ''}`.trim();
  return null;
}

async function waitReady(node) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let missing = 'not polled yet';
  while (Date.now() < deadline) {
    if (node.exitCode !== null) throw new Error(`nats-server ${node.name} exited (${node.exitCode}) during start-up:\n${node.log.slice(-8000)}`);
    missing = await notReady(node);
    if (missing === null) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`nats-server ${node.name} not ready within ${READY_TIMEOUT_MS / 1000} s (${missing}):\n${node.log.slice(-8000)}`);
}

/**
 * Start `nodes` (1 or 3) servers; resolves with { urls, servers (urls joined by commas), nodes
 * ({ name, url, monitor, pid }), close() } once all are ready.
 */
export async function startNats({ nodes: count = 1 } = {}) {
  const bin = natsServerBinary();
  const clustered = count > 1;
  const ports = await distinctPorts(count * (clustered ? 3 : 2));
  const root = fs.mkdtempSync(path.join(process.env.BENCH_TMPDIR || os.tmpdir(), 'svc-bench-nats-'));
  installHooks();
  const nodes = Array.from({ length: count }, (_, i) => ({
    name: `n${i}`,
    port: ports.shift(),
    monitorPort: ports.shift(),
    clusterPort: clustered ? ports.shift() : undefined,
    dir: path.join(root, `n${i}`),
    configFile: path.join(root, `n${i}.conf`),
    proc: null,
    exitCode: null,
    exited: null,
    log: '',
  }));
  for (const node of nodes) {
    fs.writeFileSync(node.configFile, configText(node, nodes));
    const proc = spawn(bin, ['-c', node.configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    node.proc = proc;
    live.add(proc);
    const keep = (d) => (node.log = (node.log + d).slice(-20_000));
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    node.exited = new Promise((resolve) => {
      const gone = (code) => {
        live.delete(proc);
        node.exitCode = code ?? 'signal';
        resolve();
      };
      proc.once('exit', (code, signal) => gone(code ?? signal));
      proc.once('error', (err) => {
        keep(`\nnats-server could not be started: ${err.message}\n`);
        gone('error');
      });
    });
  }
  const close = async () => {
    for (const node of nodes) if (node.exitCode === null) node.proc.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map(waitReady));
  } catch (err) {
    await close();
    throw err;
  }
  const urls = nodes.map((n) => `nats://127.0.0.1:${n.port}`);
  return {
    urls,
    servers: urls.join(','),
    nodes: nodes.map((n) => ({ name: n.name, url: `nats://127.0.0.1:${n.port}`, monitor: `http://127.0.0.1:${n.monitorPort}`, pid: n.proc.pid })),
    close,
  };
}
