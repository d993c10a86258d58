/**
 * Run control (spec "Control plane" rows debug-prompt, wake, control, current-run/abort;
 * docs/control-plane-api.md#run-control). Auth `control`; a deleting agent answers 409
 * agent_deleting. Below them, the tool policy and approvals (docs/security.md#tool-policy):
 * reads need read access; changing a policy and deciding an approval are the operator's (control
 * auth). No tool reaches these routes, so a model cannot change its own policy or approve its own
 * calls.
 */
import type { Services } from '../../services.js';
import { QUEUE_FULL } from '../error-responses.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AbortBody,
  AbortResponse,
  CompactResponse,
  Admitted,
  AgentIdParams,
  ApprovalList,
  ApprovalListQuery,
  ApprovalParams,
  ApprovalRecord,
  ControlBody,
  DecideApprovalBody,
  PolicyPatchBody,
  PolicyView,
  ControlResponse,
  DebugPromptBody,
  WakeBody,
  WakeResponse,
} from '../schemas/index.js';

const tags = ['run-control'];

export function runControlRoutes(s: Services): AnyRoute[] {
  const { control } = s.runLoop;
  return [
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/debug-prompt',
      errors: { 400: ['empty_prompt'], ...QUEUE_FULL },
      bodyExample: { text: 'Re-read AGENT.md and list what changed' },
      auth: 'control',
      tags,
      summary: 'Debug-mode prompt: internal_followup, origin system, trusted_system, runtime_instruction, priority interject',
      description: 'Provenance is runtime-internal whatever the caller sends; a given authority_class is kept in the message metadata as requested_authority_class. Blank text: 400 empty_prompt.',
      params: AgentIdParams,
      body: DebugPromptBody,
      responses: { 202: { description: 'Queued', schema: Admitted } },
      handler: async ({ params, body, reply }) => {
        const admitted = await control.debugPrompt(params.id, body);
        reply.code(202);
        return admitted;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/wake',
      errors: { 400: ['empty_reason'] },
      bodyExample: { reason: 'the CI run it waits for finished' },
      auth: 'control',
      tags,
      summary: 'Wake the agent: woken (idle, a system_tick queued), coalesced (running or a wake tick pending), ignored (stopped)',
      description: 'Always emits wake_requested {reason, source, disposition, message_id}. Blank reason: 400 empty_reason. The tick comes through the control_wake surface (origin system, trusted_system, priority next).',
      params: AgentIdParams,
      body: WakeBody,
      responses: { 200: { description: 'Disposition', schema: WakeResponse } },
      handler: ({ params, body }) => control.wake(params.id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/control',
      errors: { 400: ['unknown_action'] },
      bodyExample: { action: 'stop' },
      auth: 'control',
      tags,
      summary: 'Control action: stop (abort the current run, take no messages, status stopped) or start (status idle, resume)',
      description: 'Emits control_applied {action, authority_class, previous_status, status, turn_id}. Another action: 400 unknown_action. Answers once an aborted run has ended.',
      params: AgentIdParams,
      body: ControlBody,
      responses: { 200: { description: 'Applied', schema: ControlResponse } },
      handler: ({ params, body }) => control.control(params.id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/current-run/abort',
      errors: { 400: ['unknown_abort_mode'], 409: ['no_current_run'] },
      bodyExample: { mode: 'stop_after_abort' },
      auth: 'control',
      tags,
      summary: 'Abort the current run: the provider request and tool waits are cancelled, the turn ends aborted, the agent is stopped',
      description:
        'mode stop_after_abort (default); pause_after_abort is accepted as its alias (the answer and run_aborted carry requested_mode). The message fails with reason "aborted"; events message_failed and run_aborted {turn_id, mode}. No running turn: 409 no_current_run. Resume with control start.',
      params: AgentIdParams,
      body: AbortBody,
      bodyOptional: true,
      responses: { 200: { description: 'Aborted', schema: AbortResponse } },
      handler: ({ params, body }) => control.abort(params.id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/compact',
      errors: { 409: ['agent_in_turn', 'agent_deleting'] },
      auth: 'control',
      tags,
      summary: "Compact the agent's history now: older entries become a summary made by the agent's model (docs/context.md#compaction)",
      description:
        'Keeps at most the last two entries since the previous compaction verbatim; the rest is summarised (or dropped, with `method: dropped` and the reason, when the summary fails) and recorded with a `context_compacted` event. During a turn: 409 agent_in_turn (try again when it ends). Nothing to compact: `compacted: false`. The raw history stays in the log.',
      params: AgentIdParams,
      responses: { 200: { description: 'Compacted, or nothing to compact', schema: CompactResponse } },
      handler: ({ params }) => control.compact(params.id),
    }),
  ];
}

export function policyRoutes(s: Services): AnyRoute[] {
  const tags = ['policy'];
  const view = (agentId: string) => ({ ok: true as const, agent_id: agentId, effective: s.policy.effective(agentId), layers: s.policy.layers(agentId) });
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/policy',
      auth: 'read',
      tags,
      summary: "The agent's effective tool policy and the layers it is made of (config, template, agent)",
      params: AgentIdParams,
      responses: { 200: { description: 'Policy', schema: PolicyView } },
      handler: ({ params }) => view(params.id),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/control/agents/:id/policy',
      errors: { 400: ['invalid_policy'] },
      bodyExample: { classes: { trusted_integration: { exec: 'allow' } }, rules: [{ tool: 'run_command', arguments: { cmd: 'npm test*' }, decision: 'allow' }] },
      auth: 'control',
      tags,
      summary: "Change the agent's own policy layer; emits policy_changed",
      description:
        'Each key present replaces that key of the agent layer (null removes it). An unknown class, trust level or key, or a malformed argument pattern, ' +
        'answers 400 naming it and changes nothing. The answer is the effective policy after the change.',
      params: AgentIdParams,
      body: PolicyPatchBody,
      responses: { 200: { description: 'Policy', schema: PolicyView } },
      handler: async ({ params, body }) => {
        await s.store.write(() => s.policy.patchAgent(params.id, body));
        return view(params.id);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/approvals',
      auth: 'read',
      tags,
      summary: 'Approval requests of the agent, newest first',
      params: AgentIdParams,
      query: ApprovalListQuery,
      responses: { 200: { description: 'Approvals', schema: ApprovalList } },
      handler: ({ params, query }) => ({ ok: true as const, agent_id: params.id, approvals: s.approvals.list(params.id, query) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/approvals/:approval_id',
      auth: 'read',
      tags,
      summary: 'One approval request; 404 approval_not_found',
      params: ApprovalParams,
      responses: { 200: { description: 'Approval', schema: ApprovalRecord } },
      handler: ({ params }) => s.approvals.get(params.id, params.approval_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/approvals/:approval_id',
      errors: { 409: ['approval_already_decided'] },
      bodyExample: { decision: 'approve', remember: 'once', note: 'looks fine' },
      auth: 'control',
      tags,
      summary: 'Approve or deny a pending tool call; the waiting turn continues; emits tool_approval_decided',
      description:
        "`remember`: 'once' (default) this call only; 'turn' the same tool for the rest of the turn; 'always' puts an allow rule for the tool at the turn's trust " +
        "first in the agent's policy (with `arguments` patterns when given). A denial reaches the model as a tool error carrying `note`. " +
        'Unknown approval: 404 approval_not_found; one already decided (or expired, or cancelled): 409 approval_already_decided; nothing changes.',
      params: ApprovalParams,
      body: DecideApprovalBody,
      responses: { 200: { description: 'The decided request', schema: ApprovalRecord } },
      handler: ({ params, body }) => s.approvals.decide(params.id, params.approval_id, body),
    }),
  ];
}
