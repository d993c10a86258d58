/**
 * Digest threads (src/inbox/entries/threads.ts): with the agent's inbox policy enabled, related
 * items of a GitHub source are read as `digest_snapshot` entries, snapshotted by window, size or an
 * immediate item; acks go through the snapshots; `maxThreadAgeMs` rolls a thread over; a window
 * that closes while the daemon is down is flushed at start. In-process services on a ManualClock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventInput } from '../../src/inbox/streams/index.js';
import type { InboxEntry } from '../../src/inbox/entries/index.js';
import { restartServices } from '../helpers/inbox-delivery.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let sourceId: string;
let localId: string;
let agentId: string;

beforeEach(async () => {
  t = testServices();
  const { inbox } = t.s;
  const { host } = inbox.hosts.create({ hostType: 'github', hostKey: 'gh' });
  sourceId = (await inbox.sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { webhookSecretRef: 'hook' } })).source.sourceId;
  const { host: local } = inbox.hosts.create({ hostType: 'local_event', hostKey: 'local' });
  localId = (await inbox.sources.create({ hostId: local.hostId, streamKind: 'events', streamKey: 'l' })).source.sourceId;
  agentId = inbox.agents.create({ name: 'reviewer' }).agentId;
  inbox.subscriptions.create({ agentId, sourceId });
  inbox.subscriptions.create({ agentId, sourceId: localId });
});
afterEach(async () => {
  await t.close();
});

const comment = (n: number, id: number, pr = true): EventInput => ({
  id: `issue_comments:${id}`,
  type: 'github.issue_comment',
  data: { id, body: `comment ${id}` },
  metadata: { number: n, isPullRequest: pr },
});
const append = (...events: EventInput[]) => t.s.inbox.streams.append(sourceId, events);
const read = (includeAcked = false): InboxEntry[] => t.s.inbox.entries.list(agentId, { limit: 1000, includeAcked });
const policy = (p: { enabled?: boolean; windowMs?: number; maxItems?: number; maxThreadAgeMs?: number }) => t.s.inbox.aggregation.setInboxPolicy(agentId, p);

describe('digest threads', () => {
  it('should leave every item its own entry while the policy is disabled (the default)', async () => {
    await append(comment(7, 1), comment(7, 2));
    expect(read().map((e) => e.kind)).toEqual(['item', 'item']);
  });

  it('should snapshot a thread once its window closes, then re-snapshot it with later items, superseding the earlier snapshot', async () => {
    policy({ enabled: true, windowMs: 10_000 });
    const heard: string[][] = [];
    t.s.inbox.entries.onCreated((e) => heard.push(e.map((x) => x.kind)));
    await append(comment(7, 1), comment(7, 2), comment(8, 3, false));
    expect(read()).toEqual([]);
    t.clock.advance(9_999);
    t.s.inbox.entries.threads.runDue();
    expect(read()).toEqual([]);
    t.clock.advance(1);
    t.s.inbox.entries.threads.runDue();
    const [pr, issue] = read();
    expect(pr).toMatchObject({
      kind: 'digest_snapshot',
      count: 2,
      summary: '2 comments on PR #7',
      revision: 1,
      resourceRef: 'pr:7',
      eventFamily: 'comments',
      groupKey: `${sourceId}::pr:7::comments`,
      sourceIds: [sourceId],
      supersededAt: null,
      threadId: expect.stringMatching(/^thr_/),
    });
    expect(pr!.itemIds).toHaveLength(2);
    expect(pr!.itemId).toBe(pr!.itemIds[0]);
    expect(issue).toMatchObject({ kind: 'digest_snapshot', count: 1, summary: '1 comments on issue #8', resourceRef: 'issue:8' });
    expect(heard).toEqual([['digest_snapshot', 'digest_snapshot']]);
    // A later item joins the open thread: the next snapshot lists all three and supersedes the first.
    await append(comment(7, 4));
    t.clock.advance(10_000);
    t.s.inbox.entries.threads.runDue();
    const next = read().find((e) => e.resourceRef === 'pr:7')!;
    expect(next).toMatchObject({ count: 3, revision: 2, threadId: pr!.threadId });
    expect(read(true).find((e) => e.entryId === pr!.entryId)!.supersededAt).not.toBeNull();
    expect(read().some((e) => e.entryId === pr!.entryId)).toBe(false);
    // Local events never group.
    await t.s.inbox.streams.append(localId, [{ type: 'local.demo' }]);
    expect(read().at(-1)).toMatchObject({ kind: 'item', eventVariant: 'local.demo' });
  });

  it('should snapshot at maxItems unacknowledged items and at once for an immediate item, and count every item', async () => {
    policy({ enabled: true, windowMs: 60_000, maxItems: 2 });
    await append(comment(7, 1));
    expect(read()).toEqual([]);
    await append(comment(7, 2));
    expect(read().map((e) => e.count)).toEqual([2]);
    await append({ id: 'pulls:9:x', type: 'github.pull_request', data: {}, metadata: { number: 9, isPullRequest: true, action: 'closed' } });
    expect(read().map((e) => e.summary)).toEqual(['2 comments on PR #7', '1 PR #9 lifecycle updates']);
    expect(t.s.inbox.entries.counts(agentId)).toEqual({ total: 3, unacked: 3, acked: 0 });
  });

  it('should acknowledge a snapshot with the items it lists, not the ones a later revision added, and close a thread left with nothing unacknowledged', async () => {
    policy({ enabled: true, windowMs: 1000 });
    await append(comment(7, 1), comment(7, 2));
    t.clock.advance(1000);
    t.s.inbox.entries.threads.runDue();
    const [first] = read();
    await append(comment(7, 3));
    t.clock.advance(1000);
    t.s.inbox.entries.threads.runDue();
    const [second] = read();
    expect(second).toMatchObject({ count: 3, revision: 2 });
    // The superseded snapshot is still a valid ack: its two items go, the third stays in a new revision.
    expect(await t.s.inbox.entries.ack(agentId, { entryIds: [first!.entryId] })).toBe(1);
    const [third] = read();
    expect(third).toMatchObject({ count: 1, revision: 3, itemIds: [second!.itemIds[2]] });
    expect(t.s.inbox.entries.counts(agentId)).toEqual({ total: 3, unacked: 1, acked: 2 });
    // An item id of a thread names the latest snapshot that lists it.
    expect(await t.s.inbox.entries.ack(agentId, { entryIds: [second!.itemIds[2]!] })).toBe(1);
    expect(read()).toEqual([]);
    expect(read(true).every((e) => e.ackedAt !== null)).toBe(true);
    // Nothing unacknowledged: the thread closed, and the next comment opens a new one.
    await append(comment(7, 5));
    t.clock.advance(1000);
    t.s.inbox.entries.threads.runDue();
    expect(read()[0]).toMatchObject({ count: 1, revision: 1 });
    expect(read()[0]!.threadId).not.toBe(first!.threadId);
  });

  it('should acknowledge snapshots and plain items through an entry, and all of them', async () => {
    policy({ enabled: true, windowMs: 1000 });
    await t.s.inbox.streams.append(localId, [{ type: 'local.a' }]);
    await append(comment(7, 1), comment(7, 2));
    t.clock.advance(1000);
    t.s.inbox.entries.threads.runDue();
    await t.s.inbox.streams.append(localId, [{ type: 'local.b' }]);
    const [a, snapshot, b] = read();
    expect([a!.kind, snapshot!.kind, b!.kind]).toEqual(['item', 'digest_snapshot', 'item']);
    expect(await t.s.inbox.entries.ack(agentId, { throughEntryId: snapshot!.entryId })).toBe(2);
    expect(t.s.inbox.entries.counts(agentId)).toEqual({ total: 4, unacked: 1, acked: 3 });
    expect(await t.s.inbox.entries.ack(agentId, { all: true })).toBe(1);
    expect(t.s.inbox.entries.counts(agentId).unacked).toBe(0);
  });

  it('should roll a thread older than maxThreadAgeMs over, snapshotting what it held', async () => {
    policy({ enabled: true, windowMs: 60_000, maxThreadAgeMs: 5_000 });
    await append(comment(7, 1));
    t.clock.advance(5_000);
    await append(comment(7, 2));
    // The old thread's pending item was snapshotted when it closed; the new item waits in a new thread.
    const [old] = read();
    expect(old).toMatchObject({ count: 1, revision: 1 });
    t.clock.advance(60_000);
    t.s.inbox.entries.threads.runDue();
    const [, fresh] = read();
    expect(fresh).toMatchObject({ count: 1, revision: 1 });
    expect(fresh!.threadId).not.toBe(old!.threadId);
  });

  it('should flush a window that closed while the daemon was down when it starts again', async () => {
    policy({ enabled: true, windowMs: 30_000 });
    await append(comment(7, 1));
    t.clock.advance(60_000);
    // The restarted services' start flushes the thread whose window closed meanwhile.
    t = await restartServices(t);
    expect(read()).toMatchObject([{ kind: 'digest_snapshot', count: 1 }]);
  });
});
