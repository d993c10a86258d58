/** The agent page's tabs over its resources; each reloads when the agent's log moves (`version`). */
import { useState } from 'preact/hooks';
import { enc, get, post, qs } from './api.js';
import type { Brief, Conversation, Task, TaskOutput, Timer, WorkItem } from './types.js';
import { ActionButton, ActionForm, ErrorNote, field, Status, ResourceTable, Time, useResource } from './ui.js';

interface PanelProps {
  agentId: string;
  version: number;
}

const read = (agentId: string, path: string) => `/api/agents/${enc(agentId)}${path}`;
const write = (agentId: string, path: string) => `/api/control/agents/${enc(agentId)}${path}`;

export function ConversationPanel({ agentId, version }: PanelProps) {
  const c = useResource(() => get<Conversation>(read(agentId, '/conversation')), [agentId, version]);
  return (
    <section>
      <ErrorNote error={c.error} />
      {c.data && c.data.history.length === 0 && <p class="muted">No conversation yet.</p>}
      <ol class="conversation">
        {c.data?.history.map((h) => (
          <li key={h.seq} class={`turn role-${h.role}`} data-role={h.role}>
            <span class="role">{h.role}</span> <Time at={h.created_at} />
            <div class="content">{h.content}</div>
          </li>
        ))}
      </ol>
      {c.data?.current_turn ? <p class="muted">A turn is running…</p> : null}
    </section>
  );
}

export function BriefsPanel({ agentId, version }: PanelProps) {
  const b = useResource(() => get<{ briefs: Brief[] }>(read(agentId, '/briefs')), [agentId, version]);
  return (
    <section>
      <ErrorNote error={b.error} />
      {b.data && b.data.briefs.length === 0 && <p class="muted">No briefs yet.</p>}
      {b.data?.briefs.map((brief) => (
        <article key={brief.brief_id} class="brief">
          <h3>
            {brief.title} <span class="muted">({brief.kind})</span> <Time at={brief.created_at} />
          </h3>
          <div class="content">{brief.text}</div>
        </article>
      ))}
    </section>
  );
}

export function TasksPanel({ agentId, version }: PanelProps) {
  const tasks = useResource(() => get<{ tasks: Task[] }>(read(agentId, '/tasks')), [agentId, version]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section>
      <ActionForm name="run-task" label="Run" done={tasks.reload} action={(data) => post(write(agentId, '/tasks'), { summary: field(data, 'summary') || field(data, 'cmd'), cmd: field(data, 'cmd') })}>
        <label class="grow">
          Command <input name="cmd" required placeholder="make test" />
        </label>
        <label>
          Summary <input name="summary" placeholder="optional" />
        </label>
      </ActionForm>
      <ResourceTable
        resource={tasks}
        rows={(d) => [...d.tasks].reverse()}
        rowKey={(t) => t.task_id}
        empty="No tasks."
        columns={[
          ['Task', (t) => <button type="button" class="link" onClick={() => setOpen(open === t.task_id ? null : t.task_id)}>{t.summary}</button>],
          ['Kind', (t) => t.kind],
          ['Status', (t) => <Status value={t.status} />],
          ['Exit', (t) => t.command?.exit_status ?? ''],
          ['Created', (t) => <Time at={t.created_at} />],
          ['', (t) => (['running', 'queued', 'cancelling'].includes(t.status) ? <ActionButton label="Stop" done={tasks.reload} action={() => post(write(agentId, `/tasks/${enc(t.task_id)}/stop`))} /> : null)],
        ]}
      />
      {open && <TaskOutputView agentId={agentId} taskId={open} version={version} />}
    </section>
  );
}

function TaskOutputView({ agentId, taskId, version }: PanelProps & { taskId: string }) {
  const out = useResource(() => get<TaskOutput>(read(agentId, `/tasks/${enc(taskId)}/output`) + qs({ block: false })), [agentId, taskId, version]);
  return (
    <div class="task-output">
      <h3>Output of {taskId}</h3>
      <ErrorNote error={out.error} />
      {out.data && (
        <>
          {out.data.task.output_truncated && <p class="muted">Only the end of the output is shown.</p>}
          <pre>{out.data.task.output_preview || '(no output yet)'}</pre>
        </>
      )}
    </div>
  );
}

export function TimersPanel({ agentId, version }: PanelProps) {
  const timers = useResource(() => get<{ timers: Timer[] }>(read(agentId, '/timers')), [agentId, version]);
  return (
    <section>
      <ActionForm
        name="create-timer"
        label="Add timer"
        done={timers.reload}
        action={(data) => {
          const ms = Math.round(Number(field(data, 'seconds')) * 1000);
          const every = field(data, 'repeat') === 'on';
          return post(write(agentId, '/timers'), { ...(every ? { interval_ms: ms } : { duration_ms: ms }), summary: field(data, 'summary') || undefined });
        }}
      >
        <label>
          In seconds <input name="seconds" type="number" min="1" step="any" required />
        </label>
        <label>
          <input name="repeat" type="checkbox" /> repeat
        </label>
        <label class="grow">
          Summary <input name="summary" />
        </label>
      </ActionForm>
      <ResourceTable
        resource={timers}
        rows={(d) => d.timers}
        rowKey={(t) => t.timer_id}
        empty="No timers."
        columns={[
          ['Timer', (t) => t.summary ?? t.timer_id],
          ['Status', (t) => <Status value={t.status} />],
          ['Every', (t) => (t.interval_ms ? `${t.interval_ms / 1000} s` : 'once')],
          ['Next', (t) => <Time at={t.next_fire_at} />],
          ['Fired', (t) => t.fire_count],
          ['', (t) => (t.status === 'active' ? <ActionButton label="Cancel" done={timers.reload} action={() => post(write(agentId, `/timers/${enc(t.timer_id)}/cancel`))} /> : null)],
        ]}
      />
    </section>
  );
}

export function WorkPanel({ agentId, version }: PanelProps) {
  const items = useResource(() => get<{ work_items: WorkItem[] }>(read(agentId, '/work-items')), [agentId, version]);
  return (
    <section>
      <ActionForm name="create-work-item" label="Add work item" done={items.reload} action={(data) => post(write(agentId, '/work-items'), { objective: field(data, 'objective') })}>
        <label class="grow">
          Objective <input name="objective" required />
        </label>
      </ActionForm>
      <ResourceTable
        resource={items}
        rows={(d) => d.work_items}
        rowKey={(w) => w.id}
        empty="No work items."
        columns={[
          ['Objective', (w) => w.objective],
          ['State', (w) => <Status value={w.state} />],
          ['Plan', (w) => w.plan_status],
          ['Revision', (w) => w.revision],
          ['Updated', (w) => <Time at={w.updated_at} />],
          [
            '',
            (w) =>
              w.state === 'completed' ? null : (
                <ActionForm name="complete-work-item" label="Complete" done={items.reload} action={(data) => post(write(agentId, `/work-items/${enc(w.id)}/complete`), { report_text: field(data, 'report') })}>
                  <input name="report" required placeholder="report" aria-label="report" />
                </ActionForm>
              ),
          ],
        ]}
      />
    </section>
  );
}
