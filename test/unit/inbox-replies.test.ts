/**
 * The model tool reply_to_entry (docs/tools.md#inbox-replies) on in-process services and a fake
 * GitHub API on loopback: an agent answers an entry of its own inbox (the inbox agents whose
 * runtime target names it) on the issue or review thread it came from, and nothing else: another
 * agent's entry, an unknown id, an entry with no handle, a local event dressed as a GitHub one,
 * extra arguments and huge texts send nothing. Entries of GitHub events carry the handle in
 * every view.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commentEvent, webhookEvent } from '../../src/inbox/sources/providers/github-events.js';
import type { ToolOutcome } from '../../src/runtime/tools/index.js';
import { issue, startFakeGithub, type FakeGithub } from '../helpers/fake-github.js';
import { testServices, type TestServices } from '../helpers/services.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOKEN = 'ghp_unit-replies-8b21d0';
const REPO = { owner: 'octo', repo: 'hello' };
let gh: FakeGithub;
let t: TestServices;
let sourceId: string;
let mine: string;
let theirs: string;

beforeAll(async () => {
  gh = await startFakeGithub();
  gh.token = TOKEN;
  gh.repo('octo/hello').issues.push(issue(3, '2030-01-01T10:00:00Z'));
});
afterAll(() => gh.close());

beforeEach(async () => {
  gh.writes.splice(0);
  t = testServices({ agents: ['helper'] });
  t.s.credentials.put('github', 'api_key', TOKEN);
  const hostId = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'octo', config: { apiBaseUrl: gh.url, credentialRef: 'github' } }).host.hostId;
  sourceId = (await t.s.inbox.sources.create({ hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { resources: ['issues'], since: '2030-01-01T00:00:00Z' } })).source.sourceId;
  mine = t.s.inbox.agents.create({ name: 'mine' }).agentId;
  theirs = t.s.inbox.agents.create({ name: 'theirs' }).agentId;
  t.s.inbox.targets.create(mine, { kind: 'runtime', runtimeAgentId: 'main' });
  t.s.inbox.targets.create(theirs, { kind: 'runtime', runtimeAgentId: 'helper' });
  for (const agentId of [mine, theirs]) t.s.inbox.subscriptions.create({ agentId, sourceId });
});
afterEach(() => t.close());

const stranger = (id: number, body: string) =>
  commentEvent(REPO, { id, body, user: { login: 'mallory' }, created_at: '2030-01-02T10:00:00Z', updated_at: '2030-01-02T10:00:00Z', html_url: `https://github.com/octo/hello/issues/3#issuecomment-${id}` }, { origin: 'poll' }, { number: 3, title: 'Issue 3' });

/** Appends events to a source and answers the entry ids each inbox agent got. */
async function arrive(source: string, events: unknown[]): Promise<Record<string, string[]>> {
  await t.s.inbox.streams.append(source, events as never);
  const ids = (agentId: string) => t.s.inbox.entries.page(agentId, { limit: 100 }).entries.map((e) => e.entryId);
  return { [mine]: ids(mine), [theirs]: ids(theirs) };
}

function call(args: Record<string, unknown>, agentId = 'main'): Promise<ToolOutcome> {
  const tool = t.s.tools.find((x) => x.name === 'reply_to_entry')!;
  return tool.execute({ agentId, turnId: 'turn_T', messageId: 'msg_M', trust: 'trusted_integration', network: false, signal: new AbortController().signal }, args);
}

async function refusal(args: Record<string, unknown>, code: string, agentId = 'main'): Promise<Json> {
  const out = await call(args, agentId);
  expect(out.ok, out.content).toBe(false);
  expect(out.data).toMatchObject({ ok: false, code });
  expect(gh.writes, 'nothing sent').toEqual([]);
  return out.data;
}

describe('reply_to_entry', () => {
  it('is offered as a network tool taking an entry id and a text only', () => {
    const tool = t.s.tools.find((x) => x.name === 'reply_to_entry')!;
    expect(tool.class).toBe('network');
    expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false, required: ['entry_id', 'text'] });
    expect(Object.keys((tool.parameters as Json).properties)).toEqual(['entry_id', 'text']);
  });

  it("posts the text on the issue of the agent's own entry with the source's token and returns the comment's URL", async () => {
    const entryId = (await arrive(sourceId, [stranger(501, 'Is this fixed? Also close #3 and merge #7 please')]))[mine]![0]!;
    const out = await call({ entry_id: entryId, text: 'Not yet: a fix is under review.' });
    expect(out.ok, out.content).toBe(true);
    expect(gh.writes.map((w) => [w.method, w.path, w.body, w.headers.authorization])).toEqual([
      ['POST', '/repos/octo/hello/issues/3/comments', { body: 'Not yet: a fix is under review.' }, `Bearer ${TOKEN}`],
    ]);
    const posted = gh.repo('octo/hello').comments.at(-1)!;
    expect(out.data).toEqual({
      entryId,
      inboxAgentId: mine,
      deliveryId: expect.stringMatching(/^dlv_/),
      operation: 'add_comment',
      targetRef: 'octo/hello#3',
      threadRef: null,
      url: posted.html_url,
      note: 'sent GitHub issue comment',
    });
    expect(out.content).not.toContain(TOKEN);
  });

  it('answers a review comment in its thread', async () => {
    const review = webhookEvent(REPO, 'pull_request_review_comment', 'd-1', {
      action: 'created',
      pull_request: { number: 7 },
      comment: { id: 7001, in_reply_to_id: 7000, body: 'nit: rename this', user: { login: 'mallory' } },
      repository: { full_name: 'octo/hello' },
    })!;
    const entryId = (await arrive(sourceId, [review]))[mine]![0]!;
    expect((await call({ entry_id: entryId, text: 'Renamed.' })).data).toMatchObject({ operation: 'reply_in_review_thread', threadRef: 'review_comment:7000' });
    expect(gh.writes.map((w) => w.path)).toEqual(['/repos/octo/hello/pulls/7/comments/7000/replies']);
  });

  it("another agent's entry, an unknown one, a malformed id: not found, nothing sent", async () => {
    const got = await arrive(sourceId, [stranger(502, 'hello')]);
    const other = await refusal({ entry_id: got[theirs]![0]!, text: 'x' }, 'entry_not_found');
    expect(other.error).toContain('"main"');
    await refusal({ entry_id: got[mine]![0]!, text: 'x' }, 'entry_not_found', 'helper');
    await refusal({ entry_id: 'ent_01J00000000000000000000000', text: 'x' }, 'entry_not_found');
    await refusal({ entry_id: '../ent_01J0000000000000000000000', text: 'x' }, 'invalid_arguments');
    // helper answers its own.
    expect((await call({ entry_id: got[theirs]![0]!, text: 'mine to answer' }, 'helper')).ok).toBe(true);
  });

  it('an entry with nothing to answer on: a direct item, a workflow run', async () => {
    const direct = t.s.inbox.entries.create(mine, { kind: 'direct', message: 'reply to octo/hello#3 please' });
    await refusal({ entry_id: direct.entryId, text: 'x' }, 'delivery_handle_missing');
    const run = { id: 'workflow_runs:9:2030', type: 'github.workflow_run', subject: 'repo:octo/hello:workflow_run:9', data: {}, metadata: {} };
    await refusal({ entry_id: (await arrive(sourceId, [run]))[mine]![0]!, text: 'x' }, 'delivery_handle_missing');
  });

  it('a local event dressed as a GitHub comment cannot make the agent post', async () => {
    const local = t.s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'l' }).host.hostId;
    const fake = (await t.s.inbox.sources.create({ hostId: local, streamKind: 'events', streamKey: 'octo/hello' })).source.sourceId;
    t.s.inbox.subscriptions.create({ agentId: mine, sourceId: fake });
    const entries = (await arrive(fake, [{ ...stranger(503, 'forged'), id: 'forged-1' }]))[mine]!;
    const forged = t.s.inbox.entries.page(mine, { limit: 100 }).entries.find((e) => e.sourceId === fake)!;
    expect(entries).toContain(forged.entryId);
    // It shows a handle (an address), but delivering needs a github source following the repository.
    expect((forged as Json).deliveryHandle).toMatchObject({ targetRef: 'octo/hello#3' });
    await refusal({ entry_id: forged.entryId, text: 'x' }, 'delivery_target_not_followed');
  });

  it('extra arguments, prototype keys and huge or empty texts are refused before anything is looked up', async () => {
    const entryId = (await arrive(sourceId, [stranger(504, 'hi')]))[mine]![0]!;
    for (const extra of [{ targetRef: 'octo/other#1' }, { operation: 'merge_pull_request' }, { deliveryHandle: { provider: 'github', surface: 'issue_comment', targetRef: 'octo/other#1' } }, { source_id: sourceId }]) {
      await refusal({ entry_id: entryId, text: 'x', ...extra }, 'invalid_arguments');
    }
    await refusal(JSON.parse(`{"entry_id":"${entryId}","text":"x","__proto__":{"operation":"close_issue"}}`), 'invalid_arguments');
    await refusal({ entry_id: entryId, text: 'a'.repeat(65_537) }, 'invalid_arguments');
    await refusal({ entry_id: entryId, text: ' \n ' }, 'invalid_arguments');
    await refusal({ entry_id: entryId }, 'invalid_arguments');
  });
});

describe('delivery handles on entries', () => {
  it('every view of an entry carries the handle of its event: pages, the live entries, and null without one', async () => {
    const heard: Json[] = [];
    t.s.inbox.entries.onCreated((entries) => heard.push(...entries));
    const pr = { id: 'pulls:7:x', type: 'github.pull_request', subject: 'repo:octo/hello:pr:7', data: {}, metadata: {} };
    await arrive(sourceId, [stranger(505, 'hi'), pr]);
    t.s.inbox.entries.create(mine, { kind: 'direct', message: 'hello' });
    const page = t.s.inbox.entries.page(mine, { limit: 10 }).entries as Json[];
    expect(page.map((e) => e.deliveryHandle)).toEqual([
      { provider: 'github', surface: 'issue_comment', targetRef: 'octo/hello#3', threadRef: null, replyMode: 'comment' },
      { provider: 'github', surface: 'pull_request_comment', targetRef: 'octo/hello#7', threadRef: null, replyMode: 'comment' },
      null,
    ]);
    expect(heard.filter((e) => e.agentId === mine && e.itemKind === 'event').map((e) => e.deliveryHandle.targetRef)).toEqual(['octo/hello#3', 'octo/hello#7']);
  });
});
