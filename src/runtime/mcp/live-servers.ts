/**
 * The stdio servers running now, written to `<home>/mcp-servers.json` (0600) as each starts and
 * ends, so that a daemon killed with -9 ends its servers at its next start: each recorded group
 * (when its leader is still the recorded process) and every process carrying the servers' reaper
 * marker, wherever it went (tasks/processes/task-reaper.ts). A clean shutdown leaves the file
 * empty (removed), so a normal start reads one missing file and walks no process table.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { readRegularFile, writePrivateFile } from '../../core/index.js';
import { killLeftoverGroup, type TaskReaper, type TaskTarget } from '../tasks/processes/index.js';

export const LIVE_FILE = 'mcp-servers.json';

export interface LiveEntry {
  server: string;
  /** The reaper marker's id in the server's environment (SVC_TASK_ID). */
  marker: string;
  pid: number;
  proc_start: string | null;
  boot_id: string | null;
}

export function targetOf(e: LiveEntry): TaskTarget {
  return { taskId: e.marker, pgid: e.pid, procStart: e.proc_start, bootId: e.boot_id };
}

export class LiveServers {
  private readonly file: string;
  private readonly entries = new Map<string, LiveEntry>();

  constructor(
    home: string,
    private readonly reaper: TaskReaper,
    private readonly logger: Logger,
  ) {
    this.file = path.join(home, LIVE_FILE);
  }

  add(entry: LiveEntry): void {
    this.entries.set(entry.marker, entry);
    this.write();
  }

  remove(marker: string): void {
    if (this.entries.delete(marker)) this.write();
  }

  /**
   * End what a daemon that died left running: the recorded groups at once, then a sweep for the
   * marker (a server's child that left its group). Resolves when done; no server starts before.
   */
  async recover(): Promise<void> {
    const left = this.read();
    if (left.length === 0) return;
    for (const e of left) if (e.boot_id === null || e.boot_id === this.reaper.currentBoot) killLeftoverGroup(e.pid, e.proc_start);
    await this.reaper.endAll(left.map(targetOf), { afterRestart: true });
    this.logger.warn({ servers: left.map((e) => e.server), pids: left.map((e) => e.pid) }, 'ended MCP servers a previous daemon left running');
    this.write();
  }

  private read(): LiveEntry[] {
    let text: string;
    try {
      text = readRegularFile(this.file, { nofollow: true, maxBytes: 1024 * 1024 }).text;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn({ err, file: this.file }, 'the record of running MCP servers is unreadable');
      return [];
    }
    try {
      const parsed = JSON.parse(text) as { servers?: unknown };
      return (Array.isArray(parsed.servers) ? parsed.servers : []).filter(isEntry);
    } catch {
      this.logger.warn({ file: this.file }, 'the record of running MCP servers is not JSON; ignored');
      return [];
    }
  }

  private write(): void {
    try {
      if (this.entries.size === 0) fs.rmSync(this.file, { force: true });
      else writePrivateFile(this.file, `${JSON.stringify({ servers: [...this.entries.values()] }, null, 2)}\n`);
    } catch (err) {
      this.logger.error({ err, file: this.file }, 'could not record the running MCP servers');
    }
  }
}

function isEntry(e: unknown): e is LiveEntry {
  const x = e as Partial<LiveEntry> | null;
  return (
    !!x &&
    typeof x.server === 'string' &&
    typeof x.marker === 'string' &&
    Number.isInteger(x.pid) &&
    x.pid! > 1 &&
    (x.proc_start === null || typeof x.proc_start === 'string') &&
    (x.boot_id === null || typeof x.boot_id === 'string')
  );
}
