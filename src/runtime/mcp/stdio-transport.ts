/**
 * The MCP stdio transport over svc's own spawn. The SDK's StdioClientTransport spawns the server
 * in the daemon's process group, where it cannot be killed as a whole and is easily orphaned;
 * this one makes the server the leader of its own session and process group (`detached`), as
 * command tasks are (tasks/processes/), so the group, and whatever the server started, is ended
 * together. One JSON-RPC message per line, written with the SDK's `serializeMessage` and read with
 * its `deserializeMessage`. The framing is our own: the SDK's ReadBuffer copies everything
 * buffered at each chunk, so a server sending one long line (16 MiB in 64 KiB pieces: 2 GiB of
 * copying) would hold the event loop, and every agent's turn with it, for seconds; here each byte is
 * copied once. The last bytes of stderr are kept for the server's `last_error`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readProc, signalGroup } from '../tasks/processes/index.js';

export interface StdioSpec {
  command: string;
  args: string[];
  /** '' = the daemon's working directory. */
  cwd: string;
  env: Record<string, string>;
  /** A message (one line) longer than this closes the connection: what a server can make svc hold. */
  maxMessageBytes: number;
}

/** How much of the server's stderr is kept (its last bytes). */
const STDERR_TAIL_BYTES = 2048;

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | null = null;
  /** The pieces of the line being received, and their length. */
  private line: Buffer[] = [];
  private lineBytes = 0;
  private broken = false;
  private stderr = Buffer.alloc(0);
  private stderrCut = false;
  private exited: Promise<void> = Promise.resolve();
  /** The leader's pid (= its process group and session), once started. */
  pid: number | null = null;
  /** Its start time (/proc/<pid>/stat field 22): with the pid, names this process and no later one. */
  procStart: string | null = null;
  /** How it ended: `exit code 1`, `signal SIGKILL`; null while it runs. */
  exit: string | null = null;
  /** Why svc ended it (a message over the limit); null when it did not. */
  problem: string | null = null;

  constructor(
    private readonly spec: StdioSpec,
    /** Called in the tick the process started (before any message): the caller records it. */
    private readonly onSpawn: (t: ProcessTransport) => void = () => undefined,
  ) {}

  /** Spawn the server; rejects when the operating system refuses (no such program or directory). */
  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, this.spec.args, {
        cwd: this.spec.cwd || undefined,
        env: this.spec.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (err) => {
        this.exit ??= `could not start: ${err.message}`;
        reject(err);
      });
      child.once('spawn', () => {
        this.pid = child.pid ?? null;
        this.procStart = this.pid === null ? null : (readProc(this.pid)?.starttime ?? null);
        this.onSpawn(this);
        resolve();
      });
      child.once('exit', (code, signal) => (this.exit = signal ? `signal ${signal}` : `exit code ${code}`));
      child.once('close', () => this.onclose?.());
      child.stdin!.on('error', (err) => this.onerror?.(err)); // EPIPE once the server is gone
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr!.on('data', (chunk: Buffer) => {
        this.stderr = Buffer.concat([this.stderr, chunk]);
        if (this.stderr.length > STDERR_TAIL_BYTES) {
          this.stderr = this.stderr.subarray(this.stderr.length - STDERR_TAIL_BYTES);
          this.stderrCut = true;
        }
      });
    });
  }

  /** The last lines the server wrote to stderr (at most STDERR_TAIL_BYTES), trimmed. */
  stderrTail(): string {
    const text = this.stderr.toString('utf8');
    // A cut tail starts inside a line (perhaps inside a character): from the next line on.
    return (this.stderrCut && text.includes('\n') ? text.slice(text.indexOf('\n') + 1) : text).trim();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return Promise.reject(new Error('the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Close the server's stdin (a well-behaved server exits at end of input) and resolve once it
   * has exited, or after `graceMs`: ending the process group is the caller's (the reaper's).
   */
  async close(graceMs = 0): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    if (child.exitCode !== null || child.signalCode !== null) return this.exited;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  /** Resolves once the leader has exited and its pipes are closed. */
  closed(): Promise<void> {
    return this.exited;
  }

  private read(chunk: Buffer): void {
    if (this.broken) return;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.lineBytes + piece.length > this.spec.maxMessageBytes) return this.overflow();
      const line = this.line.length === 0 ? piece : Buffer.concat([...this.line, piece]);
      this.line = [];
      this.lineBytes = 0;
      this.deliver(line.toString('utf8'));
      if (this.broken) return;
    }
    if (start === chunk.length) return;
    this.lineBytes += chunk.length - start;
    if (this.lineBytes > this.spec.maxMessageBytes) return this.overflow();
    this.line.push(chunk.subarray(start));
  }

  private deliver(text: string): void {
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text.replace(/\r$/, ''));
    } catch (err) {
      // A line that is not a JSON-RPC message (a server logging to stdout): skipped.
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /** A line over the limit: nothing after it can be framed again, so the server is ended. */
  private overflow(): void {
    this.broken = true;
    this.line = [];
    this.problem = `it sent a message over ${this.spec.maxMessageBytes} bytes`;
    this.onerror?.(new Error(this.problem));
    this.child?.stdout?.destroy();
    this.child?.stdin?.destroy();
    if (this.pid) signalGroup(this.pid, 'SIGKILL');
  }
}
