/**
 * Real `nats-server` processes with JetStream on loopback: one node, or a three-node cluster
 * (cluster `svc-test`, servers n0..n2 routed to each other). Each node runs from a small config
 * file in a fresh temporary directory that also holds its store. `startNats` returns once every
 * node is healthy and, for a cluster, the JetStream meta leader is elected; `kill` and `restart`
 * take one node down and back up on the same ports and store. Nodes still running when the
 * process exits are SIGKILLed (an 'exit' handler, and a watchdog process for deaths that skip
 * it), so a crashed test run leaves no servers and no directories behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configText, distinctPorts, natsServerBinary, notReady } from '../../bench/lib/nats.js';

/** The config, port and readiness rules are shared with the bench (bench/lib/nats.js). */
export { natsServerBinary };

export interface NatsOptions {
  nodes?: 1 | 3;
  /** Client auth token required by every node (`authorization { token }`). */
  token?: string;
}

export interface NatsNode {
  /** Server name: n0, n1, n2. */
  readonly name: string;
  /** nats://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** http://127.0.0.1:<monitor port> (healthz, varz, jsz; not behind the token). */
  readonly monitor: string;
  /** Route port (cluster only). */
  readonly clusterPort: number | undefined;
  /** JetStream keeps its files in <storeDir>/jetstream. */
  readonly storeDir: string;
  readonly configFile: string;
  /** Pid of the running process, null while the node is down. */
  readonly pid: number | null;
}

export interface NatsCluster {
  /** nats://127.0.0.1:<port> of each node. */
  urls: string[];
  /** `urls` joined with commas (what a client's `servers` option takes). */
  servers: string;
  nodes: NatsNode[];
  /** Signal node i (SIGKILL by default) and wait for it to exit; SIGSTOP/SIGCONT do not wait. */
  kill(i: number, signal?: NodeJS.Signals): Promise<void>;
  /** Start node i again (killing it first if it runs) on the same ports and store; waits until it is healthy and has rejoined. */
  restart(i: number): Promise<void>;
  /** Kill every node and remove the temporary directory. */
  close(): Promise<void>;
  /** Everything node i wrote to stdout and stderr, across restarts. */
  logs(i: number): string;
}

const READY_TIMEOUT_MS = 20_000;
const POLL_MS = 100;

interface NodeState {
  name: string;
  port: number;
  monitorPort: number;
  clusterPort: number | undefined;
  dir: string;
  configFile: string;
  proc: ChildProcess | null;
  exited: Promise<void>;
  log: string;
}

/** Children of every cluster in this process, and their temporary directories. */
const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let watchdog: ChildProcess | null = null;

/**
 * A process that only cleans up after this one: it hears of each server pid and temporary
 * directory on its stdin and, when stdin closes because this process is gone, SIGKILLs the
 * servers and removes the directories. It covers what an 'exit' handler cannot: vitest stops its
 * fork workers with SIGTERM, which ends a Node process without running 'exit' handlers.
 */
const WATCHDOG = `
const fs = require('node:fs');
const pids = new Set(), dirs = new Set();
let buf = '';
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const op = buf[0], arg = buf.slice(1, i);
    if (op === 'P') pids.add(arg); else if (op === 'p') pids.delete(arg);
    else if (op === 'D') dirs.add(arg); else if (op === 'd') dirs.delete(arg);
  }
});
process.stdin.on('end', () => {
  for (const pid of pids) try { process.kill(Number(pid), 'SIGKILL'); } catch {}
  setTimeout(() => {
    for (const dir of dirs) try { fs.rmSync(dir, { recursive: true, force: true }); } catch {}
    process.exit(0);
  }, 500);
});
`;

/** Tell the watchdog (started on first use) about a pid (P/p: add/forget) or a directory (D/d). */
function tellWatchdog(op: 'P' | 'p' | 'D' | 'd', arg: string | number): void {
  if (watchdog === null) {
    watchdog = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'] });
    watchdog.stdin!.on('error', () => {});
    watchdog.unref();
    (watchdog.stdin as unknown as { unref(): void }).unref();
  }
  watchdog.stdin!.write(`${op}${arg}\n`);
}

let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const proc of live) proc.kill('SIGKILL');
    for (const dir of tempDirs) {
      try {
        fs.rmSync(dir, { recursive: true, force: true });
      } catch {
        /* best effort: a killed server may still be letting go of its files */
      }
    }
  });
}

function spawnNode(bin: string, node: NodeState): void {
  if (node.log) node.log += `\n--- restart of ${node.name} ---\n`;
  const proc = spawn(bin, ['-c', node.configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (node.log += d));
  proc.stderr!.on('data', (d) => (node.log += d));
  live.add(proc);
  if (proc.pid !== undefined) tellWatchdog('P', proc.pid);
  node.proc = proc;
  node.exited = new Promise<void>((resolve) => {
    const gone = () => {
      live.delete(proc);
      if (proc.pid !== undefined) tellWatchdog('p', proc.pid);
      if (node.proc === proc) node.proc = null;
      resolve();
    };
    proc.once('exit', gone);
    proc.once('error', (err) => {
      node.log += `\nnats-server could not be started: ${err.message}\n`;
      gone();
    });
  });
}

function tail(text: string, chars = 8_000): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

async function waitReady(node: NodeState): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let missing: string | null = 'not polled yet';
  while (Date.now() < deadline) {
    if (node.proc === null) throw new Error(`nats-server ${node.name} exited during start-up:\n${tail(node.log)}`);
    missing = await notReady(node);
    if (missing === null) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`nats-server ${node.name} not ready within ${READY_TIMEOUT_MS / 1000} s (${missing}):\n${tail(node.log)}`);
}

async function stopNode(node: NodeState, signal: NodeJS.Signals): Promise<void> {
  if (node.proc === null) return;
  node.proc.kill(signal);
  if (signal === 'SIGSTOP' || signal === 'SIGCONT') return;
  await node.exited;
}

function publicNode(node: NodeState): NatsNode {
  return {
    name: node.name,
    url: `nats://127.0.0.1:${node.port}`,
    port: node.port,
    monitor: `http://127.0.0.1:${node.monitorPort}`,
    clusterPort: node.clusterPort,
    storeDir: node.dir,
    configFile: node.configFile,
    get pid() {
      return node.proc?.pid ?? null;
    },
  };
}

export async function startNats(opts: { nodes?: 1 | 3; token?: string } = {}): Promise<NatsCluster> {
  const bin = natsServerBinary();
  const count = opts.nodes ?? 1;
  const clustered = count > 1;
  const ports = await distinctPorts(count * (clustered ? 3 : 2));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nats-'));
  tempDirs.add(root);
  tellWatchdog('D', root);
  installExitHook();
  const nodes: NodeState[] = Array.from({ length: count }, (_, i) => ({
    name: `n${i}`,
    port: ports.shift()!,
    monitorPort: ports.shift()!,
    clusterPort: clustered ? ports.shift()! : undefined,
    dir: path.join(root, `n${i}`),
    configFile: path.join(root, `n${i}.conf`),
    proc: null,
    exited: Promise.resolve(),
    log: '',
  }));
  for (const node of nodes) fs.writeFileSync(node.configFile, configText(node, nodes, { cluster: 'svc-test', token: opts.token }));

  const at = (i: number): NodeState => {
    const node = nodes[i];
    if (!node) throw new Error(`no nats node ${i} (there are ${nodes.length})`);
    return node;
  };
  const close = async (): Promise<void> => {
    await Promise.all(nodes.map((n) => stopNode(n, 'SIGKILL')));
    fs.rmSync(root, { recursive: true, force: true });
    tempDirs.delete(root);
    tellWatchdog('d', root);
  };

  for (const node of nodes) spawnNode(bin, node);
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
    nodes: nodes.map(publicNode),
    kill: (i, signal = 'SIGKILL') => stopNode(at(i), signal),
    restart: async (i) => {
      const node = at(i);
      await stopNode(node, 'SIGKILL');
      spawnNode(bin, node);
      await waitReady(node);
    },
    close,
    logs: (i) => at(i).log,
  };
}
