/**
 * Plan artifacts of work items (runtime/workspaces/plan-artifacts.ts; spec WorkItem plan_artifact,
 * PlanArtifact): PATCH plan_artifact attaches and detaches a file of the agent's workspaces, every
 * path that leaves them is refused without a change, the record carries the hash, size and a
 * UTF-8-safe preview refreshed on read, and legacy_inline_plan becomes a file that is never echoed.
 * Through the service and through the routes (Fastify inject).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workItemRoutes } from '../../src/http/control/work-items.js';
import { PLAN_MAX_BYTES, PLAN_PREVIEW_BYTES, PLAN_TEXT_MAX_BYTES, utf8Prefix } from '../../src/runtime/workspaces/plan-artifacts.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let app: FastifyInstance;
let home: string;
/** A directory that is none of the agent's workspaces, holding secret.md. */
let outside: string;

beforeEach(async () => {
  t = testServices();
  home = fs.realpathSync(t.s.agents.homeOf('main'));
  outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outside-')));
  fs.writeFileSync(path.join(outside, 'secret.md'), 'TOP SECRET');
  app = await routeApp(t.s, workItemRoutes(t.s));
});
afterEach(async () => {
  await app.close();
  await t.close();
  fs.rmSync(outside, { recursive: true, force: true });
});

const svc = () => t.s.workItems;
const sha = (content: string | Buffer) => `sha256:${createHash('sha256').update(content).digest('hex')}`;
const base = '/api/control/agents/main/work-items';
const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  app.inject({ method, url, headers: { host: 'localhost' }, ...(payload ? { payload } : {}) });

function write(rel: string, content: string | Buffer, root = home): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}
function events() {
  return t.s.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events;
}
/** The item and the log head: what "nothing changed" compares. */
function state(id: string) {
  return { item: svc().get('main', id), head: t.s.events.head('main') };
}

describe('PATCH plan_artifact', () => {
  it('attaches a file of the active workspace with its real path, hash, size, preview, workspace and owner; revision + 1 and one work_item_updated', () => {
    const item = svc().create('main', { objective: 'ship' });
    write('plans/ship.md', '# Ship\n\n1. build\n2. release\n');
    const head = t.s.events.head('main');
    const updated = svc().update('main', item.id, { plan_artifact: { path: 'plans/ship.md' }, authority_class: 'operator_instruction' });
    expect(updated.revision).toBe(2);
    expect(updated.plan_artifact).toEqual({
      path: path.join(home, 'plans/ship.md'),
      hash: sha('# Ship\n\n1. build\n2. release\n'),
      bytes: 28,
      updated_at: new Date(Math.floor(fs.statSync(path.join(home, 'plans/ship.md')).mtimeMs)).toISOString(),
      preview: '# Ship\n\n1. build\n2. release\n',
      preview_complete: true,
      owner_agent_id: 'main',
      relative_path: 'plans/ship.md',
      workspace_alias: null,
      workspace_id: 'agent_home',
      attached_at: new Date(t.clock.now()).toISOString(),
      stale: false,
    });
    expect(svc().get('main', item.id)).toEqual(updated);
    const after = events().filter((e) => e.event_seq > head);
    expect(after.map((e) => e.type)).toEqual(['work_item_updated']);
    expect(after[0]!.payload).toMatchObject({ fields: ['plan_artifact'], changes: { plan_artifact: updated.plan_artifact }, revision: 2 });
  });

  it('resolves a relative path in the named workspace, and an absolute path inside an attached workspace', () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ws-')));
    try {
      write('docs/plan.md', 'in the workspace', ws);
      write('docs/plan.md', 'in the home');
      const { workspace } = t.s.workspaces.attach('main', ws);
      const item = svc().create('main', { objective: 'x' });
      // The attached workspace is now active: a bare relative path resolves there.
      expect(svc().update('main', item.id, { plan_artifact: { path: 'docs/plan.md' } }).plan_artifact).toMatchObject({ workspace_id: workspace.workspace_id, preview: 'in the workspace' });
      expect(svc().update('main', item.id, { plan_artifact: { path: 'docs/plan.md', workspace_id: 'agent_home' } }).plan_artifact).toMatchObject({ workspace_id: 'agent_home', preview: 'in the home' });
      expect(svc().update('main', item.id, { plan_artifact: { path: path.join(ws, 'docs', '..', 'docs', 'plan.md') } }).plan_artifact).toMatchObject({
        path: path.join(ws, 'docs/plan.md'),
        relative_path: 'docs/plan.md',
        workspace_id: workspace.workspace_id,
      });
      // An absolute path must lie in the workspace it names.
      expect(() => svc().update('main', item.id, { plan_artifact: { path: path.join(ws, 'docs/plan.md'), workspace_id: 'agent_home' } })).toThrowError(
        expect.objectContaining({ status: 400, code: 'plan_file_not_allowed' }),
      );
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it('null detaches the plan, with a work_item_updated carrying plan_artifact null', () => {
    const item = svc().create('main', { objective: 'x' });
    write('plan.md', 'p');
    svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } });
    const cleared = svc().update('main', item.id, { plan_artifact: null });
    expect(cleared).toMatchObject({ plan_artifact: null, revision: 3 });
    expect(events().at(-1)).toMatchObject({ type: 'work_item_updated', payload: { fields: ['plan_artifact'], changes: { plan_artifact: null } } });
  });

  it('refuses traversal, symlink escapes, absolute paths elsewhere, missing files, directories, special files and oversized files: 400, nothing changes', () => {
    const item = svc().create('main', { objective: 'x' });
    write('plan.md', 'the plan');
    svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(home, 'escape.md'));
    fs.symlinkSync(outside, path.join(home, 'outdir'));
    fs.mkdirSync(path.join(home, 'adir'));
    execFileSync('mkfifo', [path.join(home, 'pipe.md')]);
    write('big.md', Buffer.alloc(PLAN_MAX_BYTES + 1, 0x61));
    const cases: Array<[{ path: string; workspace_id?: string }, number, string]> = [
      [{ path: '../../../../../../etc/passwd' }, 400, 'plan_file_not_allowed'],
      [{ path: `../${path.basename(outside)}/secret.md` }, 400, 'plan_file_not_allowed'],
      [{ path: 'escape.md' }, 400, 'plan_file_not_allowed'],
      [{ path: 'outdir/secret.md' }, 400, 'plan_file_not_allowed'],
      [{ path: path.join(outside, 'secret.md') }, 400, 'plan_file_not_allowed'],
      [{ path: '/etc/passwd' }, 400, 'plan_file_not_allowed'],
      [{ path: 'adir' }, 400, 'plan_file_not_allowed'],
      [{ path: 'pipe.md' }, 400, 'plan_file_not_allowed'],
      [{ path: 'nope.md' }, 400, 'plan_file_not_found'],
      [{ path: 'big.md' }, 400, 'plan_too_large'],
      [{ path: '   ' }, 400, 'plan_file_not_allowed'],
      [{ path: 'plan.md', workspace_id: 'ws_unknown' }, 404, 'workspace_not_found'],
    ];
    const before = state(item.id);
    for (const [loc, status, code] of cases) {
      expect(() => svc().update('main', item.id, { plan_artifact: loc }), JSON.stringify(loc)).toThrowError(expect.objectContaining({ status, code }));
    }
    expect(state(item.id)).toEqual(before);
    expect(JSON.stringify(events())).not.toContain('TOP SECRET');
  });

  it('checks the item before reading any file: unknown item 404, completed item 409', () => {
    const item = svc().create('main', { objective: 'x' });
    svc().complete('main', item.id, { report_text: 'done' });
    write('plan.md', 'p');
    expect(() => svc().update('main', 'wi_nope', { plan_artifact: { path: 'plan.md' } })).toThrowError(expect.objectContaining({ status: 404, code: 'work_item_not_found' }));
    expect(() => svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } })).toThrowError(expect.objectContaining({ status: 409, code: 'work_item_not_open' }));
  });
});

describe('hash, preview and refresh', () => {
  it('the preview is the first 2 KiB cut at a UTF-8 boundary, and preview_complete says whether it is the whole file', () => {
    const item = svc().create('main', { objective: 'x' });
    // 2047 ASCII bytes, then a 3-byte character straddling the 2048-byte cut.
    const content = `${'a'.repeat(PLAN_PREVIEW_BYTES - 1)}€tail`;
    write('long.md', content);
    const plan = svc().update('main', item.id, { plan_artifact: { path: 'long.md' } }).plan_artifact!;
    expect(plan).toMatchObject({ bytes: Buffer.byteLength(content), hash: sha(content), preview_complete: false });
    expect(plan.preview).toBe('a'.repeat(PLAN_PREVIEW_BYTES - 1));
    write('exact.md', 'é'.repeat(PLAN_PREVIEW_BYTES / 2));
    expect(svc().update('main', item.id, { plan_artifact: { path: 'exact.md' } }).plan_artifact).toMatchObject({ preview: 'é'.repeat(PLAN_PREVIEW_BYTES / 2), preview_complete: true });
  });

  it('utf8Prefix never splits a character of 2, 3 or 4 bytes', () => {
    for (const ch of ['é', '€', '𝄞']) {
      for (let pad = 0; pad < 4; pad++) {
        const buf = Buffer.from('x'.repeat(pad) + ch.repeat(10));
        for (let max = 1; max < buf.length; max++) {
          const cut = utf8Prefix(buf, max);
          expect(cut.length).toBeLessThanOrEqual(max);
          expect(Buffer.from(cut.toString('utf8'))).toEqual(cut);
        }
      }
    }
  });

  it('reads serve the current content when the file changed, without touching the record or the log', () => {
    const item = svc().create('main', { objective: 'x' });
    const file = write('plan.md', 'v1');
    const attached = svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } });
    const head = t.s.events.head('main');
    fs.writeFileSync(file, 'version two');
    fs.utimesSync(file, new Date('2030-01-02T03:04:05.000Z'), new Date('2030-01-02T03:04:05.000Z'));
    const read = svc().get('main', item.id);
    expect(read.plan_artifact).toMatchObject({ hash: sha('version two'), bytes: 11, preview: 'version two', updated_at: '2030-01-02T03:04:05.000Z', stale: false });
    expect(read.revision).toBe(attached.revision);
    expect(svc().list('main')[0]!.plan_artifact).toEqual(read.plan_artifact);
    expect(t.s.events.head('main')).toBe(head);
    expect(JSON.parse(t.s.store.db.prepare('SELECT plan_artifact FROM work_items WHERE work_item_id = ?').pluck().get(item.id) as string).hash).toBe(sha('v1'));
  });

  it('a plan that can no longer be read safely is served as last read with stale: true', () => {
    const item = svc().create('main', { objective: 'x' });
    const file = write('plan.md', 'kept');
    svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } });
    // Replaced by a symlink to a file outside: never followed.
    fs.rmSync(file);
    fs.symlinkSync(path.join(outside, 'secret.md'), file);
    expect(svc().get('main', item.id).plan_artifact).toMatchObject({ preview: 'kept', hash: sha('kept'), stale: true });
    // Deleted.
    fs.rmSync(file);
    expect(svc().get('main', item.id).plan_artifact).toMatchObject({ preview: 'kept', stale: true });
    // Back again: fresh.
    fs.writeFileSync(file, 'back');
    expect(svc().get('main', item.id).plan_artifact).toMatchObject({ preview: 'back', stale: false });
  });

  it('a plan in a detached workspace is stale', () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ws-')));
    try {
      write('plan.md', 'ws plan', ws);
      const { workspace } = t.s.workspaces.attach('main', ws);
      const item = svc().create('main', { objective: 'x' });
      svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } });
      t.s.workspaces.exit('main');
      t.s.workspaces.detach('main', workspace.workspace_id);
      fs.writeFileSync(path.join(ws, 'plan.md'), 'changed after detach');
      expect(svc().get('main', item.id).plan_artifact).toMatchObject({ preview: 'ws plan', stale: true });
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

describe('legacy_inline_plan', () => {
  it('is written to <agent home>/plans/<id>.md (0600) and attached; never echoed in responses or events', async () => {
    const text = `# Legacy plan\n${'step\n'.repeat(1000)}`;
    const res = await inject('POST', base, { objective: 'old client', legacy_inline_plan: text });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const file = path.join(home, 'plans', `${body.id}.md`);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(body.plan_artifact).toMatchObject({ path: file, relative_path: `plans/${body.id}.md`, workspace_id: 'agent_home', hash: sha(text), bytes: Buffer.byteLength(text), preview_complete: false });
    const get = await inject('GET', `/api/agents/main/work-items/${body.id}`);
    const list = await inject('GET', '/api/agents/main/work-items');
    for (const json of [res.body, get.body, list.body, JSON.stringify(events())]) {
      expect(json).not.toContain('legacy_inline_plan');
      expect(json).not.toContain(JSON.stringify(text).slice(1, -1));
    }
    expect(events().find((e) => e.type === 'work_item_created')!.payload.plan_artifact).toMatchObject({ hash: sha(text) });
    expect(t.s.store.db.prepare('SELECT legacy_inline_plan FROM work_items WHERE work_item_id = ?').pluck().get(body.id)).toBeNull();
  });

  it('over the limit: 400 plan_too_large, no item, no file; blank: no plan', async () => {
    const res = await inject('POST', base, { objective: 'x', legacy_inline_plan: 'a'.repeat(PLAN_TEXT_MAX_BYTES + 1) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, code: 'plan_too_large', limit: PLAN_TEXT_MAX_BYTES });
    expect(svc().list('main')).toEqual([]);
    expect(fs.existsSync(path.join(home, 'plans'))).toBe(false);
    const blank = await inject('POST', base, { objective: 'x', legacy_inline_plan: '  ' });
    expect(blank.statusCode).toBe(201);
    expect(blank.json().plan_artifact).toBeNull();
  });

  it('the file goes away again when the item cannot be created', () => {
    // The transaction fails after the file was written (the event log refuses the append).
    vi.spyOn(t.s.events, 'append').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    expect(() => svc().create('main', { objective: 'x', legacy_inline_plan: 'p' })).toThrow('disk full');
    expect(svc().list('main')).toEqual([]);
    expect(fs.readdirSync(path.join(home, 'plans'))).toEqual([]);
  });
});

describe('routes', () => {
  it('PATCH sets and clears the plan; GET serves it', async () => {
    const item = (await inject('POST', base, { objective: 'x' })).json();
    write('plan.md', 'route plan');
    const set = await inject('PATCH', `${base}/${item.id}`, { plan_artifact: { path: 'plan.md', workspace_id: 'agent_home' }, authority_class: 'operator_instruction' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ revision: 2, plan_artifact: { preview: 'route plan', hash: sha('route plan'), relative_path: 'plan.md' } });
    expect((await inject('GET', `/api/agents/main/work-items/${item.id}`)).json()).toEqual(set.json());
    const cleared = await inject('PATCH', `${base}/${item.id}`, { plan_artifact: null });
    expect(cleared.json()).toMatchObject({ revision: 3, plan_artifact: null });
  });

  it('refused paths and bad shapes answer a 4xx envelope and change nothing', async () => {
    const item = (await inject('POST', base, { objective: 'x' })).json();
    const before = state(item.id);
    const cases: Array<[unknown, number, string]> = [
      [{ path: '../../etc/shadow' }, 400, 'plan_file_not_allowed'],
      [{ path: path.join(outside, 'secret.md') }, 400, 'plan_file_not_allowed'],
      [{ path: 'missing.md' }, 400, 'plan_file_not_found'],
      [{ path: '' }, 400, 'invalid_request'],
      [{ path: 'a.md', extra: 1 }, 400, 'invalid_request'],
      ['plan.md', 400, 'invalid_request'],
      [{ path: 'a.md', workspace_id: 'ws_gone' }, 404, 'workspace_not_found'],
    ];
    for (const [plan, status, code] of cases) {
      const res = await inject('PATCH', `${base}/${item.id}`, { plan_artifact: plan });
      expect({ status: res.statusCode, code: res.json().code, ok: res.json().ok }, JSON.stringify(plan)).toEqual({ status, code, ok: false });
      expect(res.body).not.toContain('TOP SECRET');
    }
    expect(state(item.id)).toEqual(before);
  });
});
