/** One agent: its state and controls, a prompt box, and tabs over its live event log and resources. */
import { useState } from 'preact/hooks';
import { enc, get, post } from './api.js';
import { EventList, useAgentEvents } from './agent-events.js';
import { BriefsPanel, ConversationPanel, TasksPanel, TimersPanel, WorkPanel } from './agent-panels.js';
import { ToolsPanel } from './tools-panel.js';
import { UsagePanel } from './usage-panel.js';
import { APPROVAL_EVENTS, ApprovalsPanel, newest, PolicyAlerts, PolicyPanel } from './approvals-panel.js';
import type { AgentStatus } from './types.js';
import { ActionButton, ActionForm, ErrorNote, field, href, Status, useResource, useThrottled } from './ui.js';

const TABS = [
  ['events', 'Events'],
  ['conversation', 'Conversation'],
  ['briefs', 'Briefs'],
  ['tasks', 'Tasks'],
  ['timers', 'Timers'],
  ['work', 'Work items'],
  ['tools', 'Tool calls'],
  ['usage', 'Usage'],
  ['policy', 'Policy'],
] as const;

/** Panels reload at most this often while events stream in. */
const RELOAD_MS = 300;

export function AgentPage({ agentId, tab }: { agentId: string; tab: string }) {
  const agent = useResource(() => get<AgentStatus>(`/api/agents/${enc(agentId)}/status`), [agentId]);
  // Every event of the agent bumps `version`, which the open panel reloads on.
  const [version, setVersion] = useState(0);
  const changed = useThrottled(() => {
    setVersion((v) => v + 1);
    agent.reload();
  }, RELOAD_MS);
  const { events, live } = useAgentEvents(agentId, changed);
  const control = (action: 'start' | 'stop') => post(`/api/control/agents/${enc(agentId)}/control`, { action }).then(agent.reload);
  const a = agent.data;
  // Paused by the brake: stopped, with a budget_exceeded newer than the last run control.
  const brake = newest(events, ['budget_exceeded', 'control_applied']);
  const braked = a?.status === 'stopped' && brake?.type === 'budget_exceeded' ? brake : null;
  return (
    <main>
      <p>
        <a href={href()}>Agents</a> /
      </p>
      <h1>
        {agentId} {a && <Status value={a.status} />}
      </h1>
      <ErrorNote error={agent.error} />
      {a && (
        <p class="facts">
          queue <span class="queue">{a.pending_messages}</span> · tasks running {a.active_task_count} · model {a.model} · incarnation {a.incarnation}
          {a.scheduling_posture && <> · {a.scheduling_posture.reason}</>}{' '}
          {a.status !== 'stopped' ? <ActionButton label="Stop" action={() => control('stop')} /> : braked ? null : <ActionButton label="Start" action={() => control('start')} />}
        </p>
      )}
      <PolicyAlerts waiting={a?.current_run?.status === 'waiting_approval'} brake={braked} resume={() => control('start')} />
      <ActionForm
        name="prompt"
        label="Send"
        action={(data) => post(`/api/control/agents/${enc(agentId)}/prompt`, { text: field(data, 'text') })}
      >
        <label class="grow">
          Prompt <textarea name="text" rows={2} required placeholder={`Tell ${agentId} what to do`} />
        </label>
      </ActionForm>
      <ApprovalsPanel agentId={agentId} seq={newest(events, APPROVAL_EVENTS)?.event_seq ?? 0} />
      <nav class="tabs">
        {TABS.map(([id, name]) => (
          <a key={id} href={href('agents', agentId, id)} aria-current={tab === id ? 'page' : undefined}>
            {name}
          </a>
        ))}
      </nav>
      {tab === 'events' && <EventList agentId={agentId} events={events} live={live} />}
      {tab === 'conversation' && <ConversationPanel agentId={agentId} version={version} />}
      {tab === 'briefs' && <BriefsPanel agentId={agentId} version={version} />}
      {tab === 'tasks' && <TasksPanel agentId={agentId} version={version} />}
      {tab === 'timers' && <TimersPanel agentId={agentId} version={version} />}
      {tab === 'work' && <WorkPanel agentId={agentId} version={version} />}
      {tab === 'tools' && <ToolsPanel agentId={agentId} version={version} />}
      {tab === 'usage' && <UsagePanel agentId={agentId} version={version} />}
      {tab === 'policy' && <PolicyPanel agentId={agentId} seq={newest(events, ['policy_changed'])?.event_seq ?? 0} />}
    </main>
  );
}
