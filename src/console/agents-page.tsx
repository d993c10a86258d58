/** The agents: status, queue, model; live through the all-agents stream; create one. */
import { enc, get, post } from './api.js';
import { useEventSource } from './live.js';
import type { AgentRow } from './types.js';
import { ActionForm, field, href, Status, ResourceTable, Time, useResource, useThrottled } from './ui.js';

/** Reload at most this often while events stream in. */
const RELOAD_MS = 500;

export function AgentsPage({ defaultAgent }: { defaultAgent: string }) {
  const agents = useResource(() => get<AgentRow[]>('/api/agents/list'), []);
  const reload = useThrottled(agents.reload, RELOAD_MS);
  useEventSource('/api/events/stream', { onEvent: reload, onOpen: reload });
  return (
    <main>
      <h1>Agents</h1>
      <ResourceTable
        resource={agents}
        rows={(d) => d}
        rowKey={(a) => a.agent_id}
        empty="No agents."
        columns={[
          ['Agent', (a) => <a href={href('agents', a.agent_id)}>{a.agent_id}{a.agent_id === defaultAgent ? ' (default)' : ''}</a>],
          ['Name', (a) => a.display_name],
          ['Status', (a) => <Status value={a.status} />],
          ['Queue', (a) => <span class="queue">{a.pending}</span>],
          ['Now', (a) => a.scheduling_posture?.reason ?? a.waiting_reason ?? ''],
          ['Model', (a) => a.model.effective_model],
          ['Created', (a) => <Time at={a.identity.created_at} />],
        ]}
      />
      <h2>New agent</h2>
      <ActionForm
        name="create-agent"
        label="Create"
        action={async (data) => {
          const id = field(data, 'agent_id');
          await post(`/api/control/agents/${enc(id)}/create`, {});
          location.hash = href('agents', id);
        }}
      >
        <label>
          Agent id <input name="agent_id" required pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" />
        </label>
      </ActionForm>
    </main>
  );
}
