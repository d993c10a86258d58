/**
 * The workspace file tools over in-process services (test/helpers/services.ts): agent `main` with
 * one attached, active workspace `ws` (a fresh real directory) beside its home, the tools as the
 * run loop calls them, and a FileService whose search engine a test may force.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { FileService, type FileServiceOptions } from '../../src/runtime/files/index.js';
import type { ToolContext, ToolOutcome } from '../../src/runtime/tools/index.js';
import { testServices, type TestServices } from './services.js';

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface FilesFixture {
  t: TestServices;
  /** Real path of the attached, active workspace. */
  ws: string;
  wsId: string;
  /** Real path of the agent home (workspace agent_home). */
  home: string;
  /** A scratch directory outside every workspace. */
  outside: string;
  files: FileService;
  /** Call a tool as the run loop does. */
  call(name: string, args: Record<string, unknown>, ctx?: Partial<ToolContext>): Promise<ToolOutcome>;
  /** The data of an ok outcome (fails the test otherwise). */
  ok(name: string, args: Record<string, unknown>): Promise<Json>;
  /** The data of a refused outcome with `code` (fails the test otherwise). */
  refused(name: string, args: Record<string, unknown>, code: string): Promise<Json>;
  /** `file_changed` events of `main`, oldest first. */
  changes(): Json[];
  close(): Promise<void>;
}

export function filesFixture(opts: FileServiceOptions = {}, configToml?: string): FilesFixture {
  const t = testServices(configToml ? { configToml } : {});
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-files-')));
  const ws = path.join(scratch, 'ws');
  const outside = path.join(scratch, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  const home = t.s.agents.homeOf('main');
  fs.mkdirSync(home, { recursive: true });
  const wsId = t.s.workspaces.attach('main', ws, 'operator_instruction').workspace.workspace_id;
  const files = new FileService(t.s, opts);
  const call = (name: string, args: Record<string, unknown>, ctx: Partial<ToolContext> = {}) => {
    const tool = t.s.tools.find((x) => x.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool.execute({ agentId: 'main', turnId: 'turn_T', messageId: 'msg_M', trust: 'trusted_operator', network: false, signal: new AbortController().signal, executionId: 'tex_X', ...ctx }, args);
  };
  return {
    t,
    ws,
    wsId,
    home: fs.realpathSync(home),
    outside,
    files,
    call,
    async ok(name, args) {
      const out = await call(name, args);
      expect(out.ok, out.content).toBe(true);
      expect(JSON.parse(out.content)).toEqual(out.data);
      return out.data;
    },
    async refused(name, args, code) {
      const out = await call(name, args);
      expect(out.ok, out.content).toBe(false);
      expect(out.data).toMatchObject({ ok: false, code, error: expect.any(String) });
      return out.data;
    },
    changes: () =>
      t.s.events
        .page('main', { limit: 1000, order: 'asc', max_level: 'debug' })
        .events.filter((e) => e.type === 'file_changed')
        .map((e) => e.payload),
    async close() {
      await t.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Every file under `dir` with its content (a snapshot to compare before and after a refusal). */
export function tree(dir: string): Record<string, string> {
  // No prototype: a file named __proto__ is an entry like any other.
  const out: Record<string, string> = Object.create(null);
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
      else out[path.relative(dir, p)] = `<${e.isSymbolicLink() ? 'symlink' : 'special'}>`;
    }
  };
  visit(dir);
  return out;
}

/** Write files under `dir` (parents created). */
export function put(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
}
