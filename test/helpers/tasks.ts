/** Command tasks over HTTP against a started daemon (test/helpers/daemon.ts), shared by the task test files. */
import fs from 'node:fs';
import { expect } from 'vitest';
import { request, type HttpResult, type RunningDaemon } from './daemon.js';

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.json.ok).toBe(false);
}

export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const createAgent = async (d: RunningDaemon, id: string) =>
  expect((await request(d, 'POST', `/api/control/agents/${id}/create`, { body: {} })).status).toBe(201);

export async function createTask(d: RunningDaemon, agent: string, body: Record<string, unknown>): Promise<Json> {
  const r = await request(d, 'POST', `/api/control/agents/${agent}/tasks`, { body: { summary: 'test task', ...body } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

export async function output(d: RunningDaemon, agent: string, taskId: string, query = 'block=true&timeout_ms=10000'): Promise<Json> {
  const r = await request(d, 'GET', `/api/agents/${agent}/tasks/${taskId}/output?${query}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

export const snapshot = async (d: RunningDaemon, agent: string, taskId: string): Promise<Json> =>
  (await request(d, 'GET', `/api/agents/${agent}/tasks/${taskId}`)).json;

/** The agent's whole log, oldest first, page by page (the run loop's turns make it long). */
export async function events(d: RunningDaemon, agent: string): Promise<Json[]> {
  const out: Json[] = [];
  for (;;) {
    const r = await request(d, 'GET', `/api/agents/${agent}/events?order=asc&limit=1000&after_seq=${out.at(-1)?.event_seq ?? 0}`);
    expect(r.status).toBe(200);
    out.push(...r.json.events);
    if (!r.json.has_newer) return out;
  }
}

export async function pgidOf(d: RunningDaemon, agent: string, taskId: string): Promise<number> {
  const ev = (await events(d, agent)).find((e) => e.type === 'task_status_changed' && e.payload.task_id === taskId && e.payload.to === 'running');
  expect(ev, `no running event for ${taskId}`).toBeDefined();
  return ev.payload.pgid;
}

/**
 * Live (non-zombie) processes whose environment carries the task's marker, SVC_TASK_ID: its
 * leader, what it started, and a terminal task's holder of the pty master.
 */
export function markedPids(taskId: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (fs.readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`SVC_TASK_ID=${taskId}`)) out.push(Number(name));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}
