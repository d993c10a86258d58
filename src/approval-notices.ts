/**
 * Approval notices (docs/security.md#approval-notifications): every approval request becomes one
 * direct item in the inbox of the inbox agent `[policy] notify_inbox` names, the same item
 * `POST /agents/{id}/inbox/items` adds, so that agent's targets (webhook, terminal, runtime) tell
 * a person through their usual aggregation, retries and offline handling. Its text says what is
 * asked and how to decide; its `metadata` carries the same facts for a webhook receiver. When the
 * request is decided (or expires, or its turn ends) the entry is acknowledged.
 *
 * Glue between the runtime and the inbox, so it lives in the composition root: the runtime never
 * imports the inbox. Nothing here can affect a turn: the work runs after the request's commit, and
 * a missing inbox agent or a failed write is logged (once a minute at most) and dropped.
 */
import type { Logger } from 'pino';
import { type Clock, LogLimiter, redactSecrets, redactText } from './core/index.js';
import type { Inbox } from './inbox/index.js';
import type { ApprovalRecord, ApprovalService } from './runtime/approvals/index.js';

/** The arguments as one line in the text and the metadata. */
export const ARGUMENTS_PREVIEW_MAX = 500;
/** The origin of the turn's input, as one line. */
const ORIGIN_MAX = 200;
/** After a restart the entry of a decided request is looked for among this many unacknowledged entries. */
const SCAN_PAGE = 500;
const SCAN_PAGES = 20;
/** Requests announced by this process whose entries are still unacknowledged, bounded. */
const REMEMBERED_MAX = 10_000;
export const NOTICE_SENDER = 'svc approvals';
export const NOTICE_TYPE = 'svc.approval_requested';

export interface ApprovalNoticeDeps {
  clock: Clock;
  logger: Logger;
  approvals: Pick<ApprovalService, 'onRequested' | 'onDecided'>;
  inbox: Pick<Inbox, 'entries' | 'agents'>;
  /** The inbox agent id, read at each request; '' = off. */
  target: () => string;
}

/** One line, capped, secrets redacted (again: the record's arguments already are). */
function oneLine(value: unknown, max: number): string {
  const text = redactText(typeof value === 'string' ? value : JSON.stringify(redactSecrets(value)) ?? String(value));
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The entry of one request: its text and its machine-readable fields. */
export function approvalNotice(a: ApprovalRecord): { message: string; metadata: Record<string, unknown> } {
  const route = `/api/control/agents/${a.agent_id}/approvals/${a.approval_id}`;
  const approve = `svc approvals approve ${a.approval_id} --agent ${a.agent_id}`;
  const deny = `svc approvals deny ${a.approval_id} --agent ${a.agent_id}`;
  const args = oneLine(a.arguments, ARGUMENTS_PREVIEW_MAX);
  const taint = a.tainted_by ? { message_id: a.tainted_by.message_id, kind: a.tainted_by.kind, origin: oneLine(a.tainted_by.origin, ORIGIN_MAX), trust: a.tainted_by.trust } : null;
  const from = taint ? `input from ${taint.kind} ${taint.origin} (message ${taint.message_id})` : 'input from no recorded message';
  const message = [
    `Approval needed: agent ${a.agent_id} asks to run ${a.tool} (${a.classes.join(', ') || 'no class'}).`,
    `Turn trust: ${a.trust}; ${from}.`,
    `Arguments: ${args}`,
    `Expires: ${a.expires_at} (denied if nobody decides).`,
    `Approve: ${approve}`,
    `Deny: ${deny}`,
    `Or: POST ${route} {"decision":"approve"|"deny"}`,
  ].join('\n');
  const metadata = {
    type: NOTICE_TYPE,
    approval_id: a.approval_id,
    agent_id: a.agent_id,
    turn_id: a.turn_id,
    tool: a.tool,
    classes: a.classes,
    trust: a.trust,
    tainted_by: taint,
    arguments_preview: args,
    requested_at: a.requested_at,
    expires_at: a.expires_at,
    decide: { route, approve, deny },
  };
  return { message, metadata };
}

export class ApprovalNotices {
  private readonly limiter: LogLimiter;
  /** approval_id -> where its entry is. */
  private readonly entries = new Map<string, { inboxAgentId: string; entryId: string }>();

  constructor(private readonly deps: ApprovalNoticeDeps) {
    this.limiter = new LogLimiter(deps.clock);
    deps.approvals.onRequested((a) => setImmediate(() => this.announce(a)));
    deps.approvals.onDecided((a) => setImmediate(() => void this.settle(a)));
  }

  /** Add the request's entry to the configured inbox (no throw). */
  announce(a: ApprovalRecord): void {
    const inboxAgentId = this.deps.target();
    if (!inboxAgentId) return;
    try {
      if (!this.deps.inbox.agents.exists(inboxAgentId)) {
        this.warn('missing', { inbox_agent_id: inboxAgentId, approval_id: a.approval_id }, 'policy.notify_inbox names an inbox agent that does not exist; approval requests are not announced');
        return;
      }
      const { message, metadata } = approvalNotice(a);
      const entry = this.deps.inbox.entries.create(inboxAgentId, { kind: 'direct', sender: NOTICE_SENDER, message, metadata });
      if (this.entries.size >= REMEMBERED_MAX) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(a.approval_id, { inboxAgentId, entryId: entry.entryId });
    } catch (err) {
      this.warn('failed', { err, inbox_agent_id: inboxAgentId, approval_id: a.approval_id }, 'an approval request could not be added to the notify_inbox inbox');
    }
  }

  /** Acknowledge the entry of a decided request (no throw; an entry already gone is fine). */
  async settle(a: ApprovalRecord): Promise<void> {
    const where = this.entries.get(a.approval_id) ?? this.find(a.approval_id);
    this.entries.delete(a.approval_id);
    if (!where) return;
    try {
      await this.deps.inbox.entries.ack(where.inboxAgentId, { entryIds: [where.entryId] });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'entry_not_found' || code === 'agent_not_found') return;
      this.warn('ack', { err, inbox_agent_id: where.inboxAgentId, approval_id: a.approval_id }, 'the inbox entry of a decided approval request could not be acknowledged');
    }
  }

  /** The entry of a request announced before a restart: among the configured inbox's unacknowledged entries. */
  private find(approvalId: string): { inboxAgentId: string; entryId: string } | null {
    const inboxAgentId = this.deps.target();
    if (!inboxAgentId) return null;
    let after: string | undefined;
    for (let page = 0; page < SCAN_PAGES; page++) {
      const list = this.deps.inbox.entries.list(inboxAgentId, { afterEntryId: after, limit: SCAN_PAGE });
      const hit = list.find((e) => e.itemKind === 'direct' && e.sender === NOTICE_SENDER && e.metadata?.approval_id === approvalId);
      if (hit) return { inboxAgentId, entryId: hit.entryId };
      if (list.length < SCAN_PAGE) return null;
      after = list[list.length - 1]!.entryId;
    }
    return null;
  }

  private warn(key: string, fields: Record<string, unknown>, msg: string): void {
    this.limiter.limit(key, (suppressed) => this.deps.logger.warn({ ...fields, ...(suppressed ? { suppressed } : {}) }, msg));
  }
}
