/**
 * Pinned context (docs/context.md#prompt-assembly): what the agent is working on, put in every
 * prompt whatever the history holds: the current work item with its plan and todo list, its open
 * tasks, and the tool calls waiting for an operator's decision. Bounded: past `maxChars` it is cut
 * with a marker.
 */

export interface PinnedFacts {
  workItem: {
    id: string;
    objective: string;
    state: string;
    plan_status: string;
    plan: { path: string; preview: string } | null;
    todo: Array<{ text: string; state: string }>;
  } | null;
  /** The open ones (not ended). */
  tasks: Array<{ task_id: string; kind: string; status: string; summary: string | null; child_agent_id: string | null }>;
  approvals: Array<{ approval_id: string; tool: string; classes: readonly string[]; expires_at: string | null }>;
}

export function pinnedSection(f: PinnedFacts, maxChars: number): string {
  const lines: string[] = [];
  if (f.workItem) {
    const w = f.workItem;
    lines.push(`Current work item ${w.id} (${w.state}, plan ${w.plan_status}): ${w.objective}`);
    if (w.plan) lines.push(`Plan (${w.plan.path}):`, w.plan.preview);
    for (const t of w.todo) lines.push(`- [${t.state === 'completed' ? 'x' : ' '}] ${t.text}${t.state === 'in_progress' ? ' (in progress)' : ''}`);
  }
  if (f.tasks.length > 0) {
    lines.push('Open tasks:');
    for (const t of f.tasks) lines.push(`- ${t.task_id} ${t.kind} ${t.status}${t.child_agent_id ? ` (agent ${t.child_agent_id})` : ''}${t.summary ? `: ${t.summary}` : ''}`);
  }
  if (f.approvals.length > 0) {
    lines.push('Tool calls waiting for an operator decision:');
    for (const a of f.approvals) lines.push(`- ${a.approval_id} ${a.tool} (${a.classes.join('+')})${a.expires_at ? `, expires ${a.expires_at}` : ''}`);
  }
  if (lines.length === 0) return '';
  const text = ['# Pinned context', ...lines].join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n[… pinned context cut at ${maxChars} characters …]` : text;
}
