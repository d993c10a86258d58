/**
 * Inbox watch and the disk: a commit is visible to reads before its hooks run (they wait for the
 * WAL fsync, store.ts), so a watcher that opens during that fsync reads the new entries in its
 * backlog and must not get them again when the hooks publish them live.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { IdGenerator } from '../../src/core/ids.js';
import { InboxAgents } from '../../src/inbox/entries/agents.js';
import { InboxEntries } from '../../src/inbox/entries/entries.js';
import { InboxWatch, type WatchConnection } from '../../src/inbox/entries/watch.js';
import { Store } from '../../src/store/store.js';
import { createLogger } from '../../src/telemetry/logger.js';

class Conn implements WatchConnection {
  messages: string[] = [];
  closed = false;
  backedUp = false;
  deliver(frame: string): void {
    const data = /^data: (.*)$/m.exec(frame)![1]!;
    for (const e of JSON.parse(data).entries as Array<{ message: string }>) this.messages.push(e.message);
  }
  writable(): Promise<void> {
    return Promise.resolve();
  }
  onClose(): void {}
  close(): void {
    this.closed = true;
  }
}

const turn = () => new Promise((r) => setImmediate(r));

describe('inbox watch while a commit waits for its fsync', () => {
  it('sends an entry read in the backlog once, and every later entry live', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-watch-sync-'));
    const syncs: Array<(err: Error | null) => void> = [];
    const store = Store.open(path.join(dir, 'svc.db'), { syncWal: (done) => syncs.push(done) });
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const ids = new IdGenerator(clock);
    const agents = new InboxAgents({ store, clock, ids });
    const entries = new InboxEntries({ store, clock, ids, agents, logger: createLogger('silent') });
    const watch = new InboxWatch({ store, clock, entries, agents });
    try {
      const { agentId } = agents.create({ name: 'w' });
      entries.create(agentId, { kind: 'direct', message: 'm0' }); // a synchronous tx: on the disk at once
      const pending = store.write(() => entries.create(agentId, { kind: 'direct', message: 'm1' }));
      await turn();
      await turn();
      expect(syncs).toHaveLength(1);
      const early = new Conn();
      await watch.stream(early, agentId); // reads m1: committed, its hooks not run yet
      syncs.shift()!(null);
      await pending;
      const later = store.write(() => entries.create(agentId, { kind: 'direct', message: 'm2' }));
      while (syncs.length === 0) await turn();
      syncs.shift()!(null);
      await later;
      expect(early.messages).toEqual(['m0', 'm1', 'm2']);
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
