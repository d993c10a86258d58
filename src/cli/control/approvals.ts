/**
 * `svc approvals …` (the tool calls that wait for the operator: list, show, approve, deny) and
 * `svc policy …` (an agent's tool policy: the effective one, and changes to the agent's own layer),
 * docs/security.md#tool-policy. `--agent` defaults to the daemon's default agent.
 */
import fs from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { TOOL_CLASSES, TRUST_LEVELS } from '../../core/index.js';
import type { components } from '../../generated/control-plane.js';
import { ApiError, clientOptions, controlApi, ok, resolveTarget, type ClientFlags, type ControlBody, type Target } from '../client.js';
import { durationArg } from '../duration.js';
import { action, oneLine, print, record, table, type Row } from '../output.js';
import { intArg } from './tasks.js';

type AgentFlags = ClientFlags & { agent?: string };
type PatchBody = ControlBody<'/api/control/agents/{id}/policy', 'patch'>;

const STATUSES = ['pending', 'approved', 'denied', 'expired', 'cancelled', 'all'] as const;
const REMEMBER = ['once', 'turn', 'always'] as const;
const LAYER_KEYS = ['classes', 'rules', 'limits', 'approval_timeout_s'] as const;
const LIMIT_NAMES = ['turns_per_hour', 'runtime_turns_in_a_row', 'rounds_per_turn', 'tool_calls_per_turn', 'max_tokens_per_turn', 'max_tokens_per_day', 'max_cost_per_day'] as const;
const DECISIONS = ['allow', 'ask', 'deny'] as const;

type Approval = components['schemas']['ApprovalRecord'];

/** `--agent`, else the daemon's default agent. */
async function agentOf(target: Target, flags: AgentFlags): Promise<string> {
  return flags.agent ?? (await ok(controlApi(target).GET('/api'))).default_agent;
}

function agentOption(cmd: Command): Command {
  return clientOptions(cmd).option('--agent <agent_id>', 'the agent (default: the default agent)');
}

/** A span of time as one or two units: 45s, 12m, 3h20m, 2d. */
export function span(ms: number, round: (x: number) => number = Math.round): string {
  const s = Math.max(0, round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

/** Where the turn's lowest-trust input came from: `channel_event channel/ci`. */
function taintOf(t: Approval['tainted_by']): string {
  if (!t) return '-';
  const origin = ['kind', 'source', 'channel', 'sender']
    .map((k) => t.origin[k])
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .join('/');
  return origin ? `${t.kind} ${origin}` : t.kind;
}

function approvalRow(a: Approval, now: number): Row {
  const left = Date.parse(a.expires_at) - now;
  return {
    approval_id: a.approval_id,
    status: a.status,
    tool: a.tool,
    classes: a.classes.join(','),
    trust: a.trust,
    tainted_by: taintOf(a.tainted_by),
    age: span(now - Date.parse(a.requested_at)),
    // A countdown never rounds up: 59m59.6s left is 59m, not 1h.
    expires: a.status !== 'pending' ? '-' : left > 0 ? `in ${span(left, Math.floor)}` : 'now',
    arguments: oneLine(JSON.stringify(a.arguments), 60),
  };
}

function showApproval(a: Approval): string {
  const { arguments: args, tainted_by: taint, decision, ...rest } = a;
  const lines = [record({ ...rest, classes: a.classes.join(', '), tainted_by: taint ? `${taintOf(taint)} (${taint.trust}, message ${taint.message_id})` : null })];
  if (decision) lines.push(record({ decision: decision.decision, remember: decision.remember, by: decision.by, note: decision.note }));
  lines.push('', 'arguments:', JSON.stringify(args, null, 2));
  return lines.join('\n');
}

/** `NAME=VALUE` (repeatable flags): collected into [name, value] pairs. */
function pair(what: string) {
  return (v: string, prev: Array<[string, string]> = []): Array<[string, string]> => {
    const at = v.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError(`expected ${what}`);
    return [...prev, [v.slice(0, at), v.slice(at + 1)]];
  };
}

export function registerApprovals(program: Command): void {
  const approvals = program.command('approvals').description('tool calls waiting for the operator: list, show, approve, deny');

  agentOption(approvals.command('list').description('approval requests, newest first (default: the pending ones)'))
    .addOption(new Option('--status <status>', 'requests in this status, or all').choices(STATUSES).default('pending'))
    .option('--limit <n>', 'most records returned', intArg)
    .action(
      action(async (flags: AgentFlags & { status: (typeof STATUSES)[number]; limit?: number }) => {
        const target = resolveTarget(flags);
        const id = await agentOf(target, flags);
        const query = { status: flags.status === 'all' ? undefined : flags.status, limit: flags.limit?.toString() };
        const res = await ok(controlApi(target).GET('/api/agents/{id}/approvals', { params: { path: { id }, query } }));
        const columns = ['approval_id', ...(flags.status === 'pending' ? [] : ['status']), 'tool', 'classes', 'trust', 'tainted_by', 'age', 'expires', 'arguments'];
        const now = Date.now();
        print(res, flags.json, (r) => table(r.approvals.map((a) => approvalRow(a, now)), columns));
      }),
    );

  agentOption(approvals.command('show <approval_id>').description('one approval request, its arguments in full')).action(
    action(async (approvalId: string, flags: AgentFlags) => {
      const target = resolveTarget(flags);
      const id = await agentOf(target, flags);
      const res = await ok(controlApi(target).GET('/api/agents/{id}/approvals/{approval_id}', { params: { path: { id, approval_id: approvalId } } }));
      print(res, flags.json, showApproval);
    }),
  );

  agentOption(approvals.command('approve <approval_id>').description('let the waiting tool call run; the turn continues'))
    .addOption(new Option('--remember <scope>', "once: this call; turn: this tool for the rest of the turn; always: an allow rule in the agent's policy").choices(REMEMBER))
    .option('--match <name=pattern>', 'with --remember always: the rule matches only arguments like this (repeatable; * any run, ? one character)', pair('NAME=PATTERN'))
    .option('--note <text>', 'kept with the decision')
    .action(
      action(async (approvalId: string, flags: AgentFlags & { remember?: (typeof REMEMBER)[number]; match?: Array<[string, string]>; note?: string }, cmd: Command) => {
        if (flags.match && flags.remember !== 'always') cmd.error("error: option '--match' needs '--remember always'");
        const args = flags.match ? Object.fromEntries(flags.match) : undefined;
        await decide(flags, approvalId, { decision: 'approve', remember: flags.remember, note: flags.note, arguments: args });
      }),
    );

  agentOption(approvals.command('deny <approval_id>').description('refuse the waiting tool call; the model gets a tool error with the note'))
    .option('--note <text>', 'told to the model with the refusal')
    .action(action(async (approvalId: string, flags: AgentFlags & { note?: string }) => decide(flags, approvalId, { decision: 'deny', note: flags.note })));

  registerPolicy(program);
}

async function decide(flags: AgentFlags, approvalId: string, body: ControlBody<'/api/control/agents/{id}/approvals/{approval_id}', 'post'>): Promise<void> {
  const target = resolveTarget(flags);
  const id = await agentOf(target, flags);
  const res = await ok(controlApi(target).POST('/api/control/agents/{id}/approvals/{approval_id}', { params: { path: { id, approval_id: approvalId } }, body }));
  print(res, flags.json, (a) => `${a.status} ${a.approval_id} (${a.tool}${a.decision?.remember && a.decision.remember !== 'once' ? `, remember ${a.decision.remember}` : ''})`);
}

type PolicyView = Awaited<ReturnType<typeof getPolicy>>;

function getPolicy(target: Target, id: string) {
  return ok(controlApi(target).GET('/api/agents/{id}/policy', { params: { path: { id } } }));
}

/** The effective policy: the trust x class table (cells set above the config marked with their layer), rules, limits. */
function showPolicy(p: PolicyView): string {
  const { layers, effective } = p;
  const from = (trust: string, cls: string): string => {
    const get = (l: { classes?: Record<string, Record<string, string> | undefined> } | null | undefined) => l?.classes?.[trust]?.[cls];
    if (get(layers.agent) !== undefined) return ' (agent)';
    if (get(layers.template?.layer) !== undefined) return ' (template)';
    return '';
  };
  const classRows = TRUST_LEVELS.map((trust) => ({ trust, ...Object.fromEntries(TOOL_CLASSES.map((c) => [c, `${effective.classes[trust]?.[c] ?? '-'}${from(trust, c)}`])) }));
  const rules = effective.rules.map((r, i) => ({
    n: i + 1,
    source: r.source,
    tool: r.tool,
    trust: r.trust?.join(',') ?? 'all',
    arguments: r.arguments ? Object.entries(r.arguments).map(([k, v]) => `${k}=${v}`).join(' ') : '*',
    decision: r.decision,
  }));
  return [
    `policy of ${p.agent_id} (layers: config${layers.template ? `, template ${layers.template.name}` : ''}${layers.agent ? ', agent' : ''})`,
    '',
    table(classRows, ['trust', ...TOOL_CLASSES]),
    '',
    'rules (tried in order, the first that matches decides):',
    table(rules, ['n', 'source', 'tool', 'trust', 'arguments', 'decision']),
    '',
    record({ ...effective.limits, approval_timeout_s: effective.approval_timeout_s }),
  ].join('\n');
}

interface SetFlags extends AgentFlags {
  file?: string;
  class?: Array<[string, string]>;
  limit?: Array<[string, string]>;
  timeout?: number;
  clear?: string[];
}

/** The PATCH body of `svc policy set`: the file's layer, or the flags merged into the agent's own layer. */
async function patchBody(target: Target, id: string, flags: SetFlags): Promise<PatchBody> {
  if (flags.file !== undefined) {
    const text = flags.file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(flags.file, 'utf8');
    try {
      return JSON.parse(text) as PatchBody;
    } catch (err) {
      throw new ApiError(0, 'invalid_argument', `${flags.file}: not JSON: ${(err as Error).message}`);
    }
  }
  const body: PatchBody = {};
  const own = (await getPolicy(target, id)).layers.agent ?? {};
  if (flags.class) {
    const classes: Record<string, Record<string, string>> = structuredClone(own.classes ?? {});
    for (const [key, decision] of flags.class) {
      const [trust, cls] = key.split('.');
      classes[trust!] = { ...classes[trust!], [cls!]: decision };
    }
    body.classes = classes as PatchBody['classes'];
  }
  if (flags.limit) body.limits = { ...own.limits, ...Object.fromEntries(flags.limit.map(([k, v]) => [k, Number(v)])) };
  if (flags.timeout !== undefined) body.approval_timeout_s = flags.timeout;
  for (const key of flags.clear ?? []) body[key as (typeof LAYER_KEYS)[number]] = null;
  return body;
}

function classArg(v: string, prev: Array<[string, string]> = []): Array<[string, string]> {
  const m = /^([a-z_]+)\.([a-z]+)=([a-z]+)$/.exec(v);
  const ok = m && (TRUST_LEVELS as readonly string[]).includes(m[1]!) && (TOOL_CLASSES as readonly string[]).includes(m[2]!) && (DECISIONS as readonly string[]).includes(m[3]!);
  if (!ok) throw new InvalidArgumentError(`expected TRUST.CLASS=DECISION (trust: ${TRUST_LEVELS.join(', ')}; class: ${TOOL_CLASSES.join(', ')}; decision: ${DECISIONS.join(', ')})`);
  return [...prev, [`${m[1]}.${m[2]}`, m[3]!]];
}

function limitArg(v: string, prev: Array<[string, string]> = []): Array<[string, string]> {
  // A number, whole but for max_cost_per_day (USD); the daemon checks the range.
  const m = /^([a-z_]+)=(\d+(?:\.\d+)?)$/.exec(v);
  if (!m || !(LIMIT_NAMES as readonly string[]).includes(m[1]!)) throw new InvalidArgumentError(`expected NAME=N, NAME one of ${LIMIT_NAMES.join(', ')}`);
  return [...prev, [m[1]!, m[2]!]];
}

function timeoutArg(v: string): number {
  const ms = durationArg(v);
  if (ms % 1000 !== 0) throw new InvalidArgumentError('a whole number of seconds, such as 90s, 10m or 1h');
  return ms / 1000;
}

function clearArg(v: string, prev: string[] = []): string[] {
  if (!(LAYER_KEYS as readonly string[]).includes(v)) throw new InvalidArgumentError(`one of ${LAYER_KEYS.join(', ')}`);
  return [...prev, v];
}

function registerPolicy(program: Command): void {
  const policy = program.command('policy').description("an agent's tool policy: what its tool calls may do at each trust level, and the brake");

  agentOption(policy.command('show').description('the effective policy: trust x class decisions, rules with their layer, limits, approval timeout')).action(
    action(async (flags: AgentFlags) => {
      const target = resolveTarget(flags);
      print(await getPolicy(target, await agentOf(target, flags)), flags.json, showPolicy);
    }),
  );

  const flagsOf = ['class', 'limit', 'timeout', 'clear'];
  agentOption(policy.command('set').description("change the agent's own policy layer (each key given replaces that key of the layer); prints the effective policy"))
    .addOption(new Option('--file <path>', 'a layer as JSON ({classes, rules, limits, approval_timeout_s}; null removes a key; - reads stdin)').conflicts(flagsOf))
    .option('--class <trust.class=decision>', 'one cell of the class table, merged into the layer (repeatable): untrusted_external.exec=deny', classArg)
    .option('--limit <name=n>', `one limit of the brake or a budget, merged into the layer (repeatable): ${LIMIT_NAMES.join(', ')}`, limitArg)
    .option('--timeout <duration>', 'how long an approval request waits before it is denied: 90s, 10m, 1h', timeoutArg)
    .option('--clear <key>', `remove a key from the layer, back to the template's or config's (repeatable): ${LAYER_KEYS.join(', ')}`, clearArg)
    .action(
      action(async (flags: SetFlags, cmd: Command) => {
        if (flags.file === undefined && !flagsOf.some((f) => cmd.getOptionValue(f) !== undefined)) cmd.error('error: nothing to change: give --file, or --class, --limit, --timeout or --clear');
        const target = resolveTarget(flags);
        const id = await agentOf(target, flags);
        const body = await patchBody(target, id, flags);
        const res = await ok(controlApi(target).PATCH('/api/control/agents/{id}/policy', { params: { path: { id } }, body }));
        print(res, flags.json, showPolicy);
      }),
    );
}
