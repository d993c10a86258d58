import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Brief } from '../../src/runtime/channels/briefs.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(async () => {
  await t.close();
});

describe('BriefService', () => {
  it('create stores the brief and appends brief_created with it, in one transaction', () => {
    const b = t.s.briefs.create({
      agentId: 'main',
      kind: 'failure',
      title: 'Turn failed',
      text: 'provider down',
      turnId: 'turn_x',
      messageId: 'msg_x',
      failureArtifact: { category: 'transport', kind: 'connect_failed', summary: 'refused', provider: 'p', model_ref: 'p/m', status: null },
    });
    expect(b.brief_id).toMatch(/^brf_/);
    expect(t.s.briefs.get(b.brief_id)).toEqual(b);
    const ev = t.s.events.page('main', { limit: 1, order: 'desc', max_level: 'debug' }).events[0]!;
    expect(ev.type).toBe('brief_created');
    expect(ev.payload).toMatchObject({ brief_id: b.brief_id, brief_kind: 'failure', brief: b });
  });

  it('onCreated runs inside the transaction: a rollback undoes the brief and what the listener saw', () => {
    const seen: Brief[] = [];
    t.s.briefs.onCreated((b) => {
      expect(t.s.store.inTransaction).toBe(true);
      seen.push(b);
    });
    expect(() =>
      t.s.store.tx(() => {
        t.s.briefs.create({ agentId: 'main', kind: 'result', title: 't', text: 'x' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(seen).toHaveLength(1);
    expect(t.s.briefs.get(seen[0]!.brief_id)).toBeNull();
    expect(t.s.briefs.list('main', {})).toEqual([]);
  });

  it('list is newest first and pages with before', () => {
    const ids = [1, 2, 3].map((i) => t.s.briefs.create({ agentId: 'main', kind: 'progress', title: `t${i}`, text: `${i}` }).brief_id);
    expect(t.s.briefs.list('main', {}).map((b) => b.brief_id)).toEqual([...ids].reverse());
    expect(t.s.briefs.list('main', { limit: 1, before: ids[2] }).map((b) => b.brief_id)).toEqual([ids[1]]);
    expect(t.s.briefs.list('other', {})).toEqual([]);
  });
});
