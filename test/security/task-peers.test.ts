/**
 * What a command task runs is not the operator: in local mode (no token) a connection from the
 * daemon's own uid is served without a credential, except when a process of a command task holds
 * it. A command allowed the network (so sharing the host's loopback), sandboxed or not, that calls
 * the control API to approve its own requests or change its policy gets 403 task_peer_rejected and
 * changes nothing; the operator, at the same time, is served as before.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

async function runTask(d: RunningDaemon, cmd: string): Promise<Record<string, any>> {
  const created = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { cmd: `sleep 1; ${cmd}`, network: true } });
  expect(created.status, created.text).toBe(201);
  // While the task runs, the operator (this test, the daemon's uid, no token) is served as before.
  const operator = await request(d, 'POST', '/api/control/agents/main/control', { body: { action: 'start' } });
  expect(operator.status, operator.text).toBe(200);
  const out = await request(d, 'GET', `/api/agents/main/tasks/${created.json.task_id}/output?block=true&timeout_ms=20000`);
  expect(out.status, out.text).toBe(200);
  return out.json.task;
}

describe.each(['auto', 'off'])('tasks calling the API in local mode (sandbox %s)', (sandbox) => {
  it('are refused on control and read routes with 403 task_peer_rejected; the operator is served meanwhile', async () => {
    const d = await pool.start({ configToml: `[tasks]\nsandbox = "${sandbox}"\n` });
    const base = d.base;
    const curl = (method: string, path: string, body?: string) =>
      `curl -s -X ${method} -H 'content-type: application/json' ${body ? `-d '${body}'` : ''} ${base}${path}; echo`;
    const task = await runTask(
      d,
      [
        curl('PATCH', '/api/control/agents/main/policy', '{"classes":{"untrusted_external":{"exec":"allow"}}}'),
        curl('POST', '/api/control/agents/main/control', '{"action":"stop"}'),
        curl('GET', '/api/agents/main/approvals'),
        // An open route stays open (the service root, discovery).
        `curl -s -o /dev/null -w 'root %{http_code}\\n' ${base}/api`,
      ].join('; '),
    );
    const lines = String(task.output_preview).trim().split('\n');
    for (const line of lines.slice(0, 3)) expect(JSON.parse(line), line).toMatchObject({ ok: false, code: 'task_peer_rejected', task_id: task.task_id });
    expect(lines[3]).toBe('root 200');
    const policy = await request(d, 'GET', '/api/agents/main/policy');
    expect(policy.status).toBe(200);
    expect(policy.json.layers.agent).toBeNull();
    expect(policy.json.effective.classes.untrusted_external.exec).toBe('ask');
    expect((await request(d, 'GET', '/api/agents/main/status')).json.status).not.toBe('stopped');
  });
});
