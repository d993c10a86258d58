/**
 * The tool policy: for a tool call made in a turn of a given trust, allow it, ask the operator, or
 * deny it. Three layers, each shaped by src/config/policy.ts: `[policy]` in config.toml (complete,
 * with the built-in defaults), the agent's template's `[policy.templates.NAME]`, and the agent's
 * own layer (PATCH /api/control/agents/:id/policy, or an approval remembered `always`). A later
 * layer wins per class cell, limit and timeout; rules are tried agent first, then template, then
 * config, and the first whose tool, trust and argument patterns match decides. Without a matching
 * rule, the call's classes decide at the turn's trust: the strictest of them wins.
 *
 * Only the operator changes a policy: no tool writes it, and its routes are control-authorized.
 */
import type { ResolvedConfig } from '../../config/index.js';
import { PolicyLayerSchema, type PolicyLayer, type PolicyRule } from '../../config/index.js';
import { errors, isoAt, stricterDecision, TRUST_LEVELS, type Clock, type PolicyDecision, type TrustLevel } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import { TxCache, type Store } from '../../store/index.js';
import type { AgentService } from '../agents/index.js';
import type { ResourceService } from '../deps.js';
import { matchesArguments } from './patterns.js';
import type { EffectivePolicy, PolicyCall, PolicyLayers, PolicySource, PolicyVerdict, SourcedRule } from './types.js';

export interface PolicyDeps {
  config: ResolvedConfig;
  clock: Clock;
  store: Store;
  events: EventLog;
  agents: AgentService;
}

/** The keys of an agent layer a PATCH may set (null removes one). */
const LAYER_KEYS = ['classes', 'rules', 'limits', 'approval_timeout_s'] as const;

export class PolicyService implements ResourceService {
  private readonly stmt;
  private readonly agentLayers: TxCache<PolicyLayer | null>;
  /** The last effective policy per agent, with the three layers it was built from (compared by identity). */
  private readonly built = new Map<string, { base: object; template: PolicyLayer | null; agent: PolicyLayer | null; effective: EffectivePolicy }>();

  constructor(private readonly deps: PolicyDeps) {
    const db = deps.store.db;
    this.stmt = {
      get: db.prepare('SELECT policy FROM agent_policies WHERE agent_id = ?').pluck(),
      put: db.prepare(
        'INSERT INTO agent_policies (agent_id, policy, updated_at) VALUES (?, ?, ?) ON CONFLICT(agent_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at',
      ),
      remove: db.prepare('DELETE FROM agent_policies WHERE agent_id = ?'),
    };
    this.agentLayers = new TxCache(deps.store);
  }

  layers(agentId: string): PolicyLayers {
    const agent = this.deps.agents.get(agentId);
    // notify_inbox says where approval requests are announced, not what a call may do.
    const { templates, notify_inbox: _notify, ...base } = this.deps.config.values.policy;
    const template = agent.template && Object.hasOwn(templates, agent.template) ? { name: agent.template, layer: templates[agent.template]! } : null;
    return { config: base, template, agent: this.agentLayer(agentId) };
  }

  /** The merged policy; rebuilt only when a layer changed (every tool call asks for it). */
  effective(agentId: string): EffectivePolicy {
    const { config, template, agent } = this.layers(agentId);
    const base = this.deps.config.values.policy;
    const last = this.built.get(agentId);
    if (last && last.base === base && last.template === (template?.layer ?? null) && last.agent === agent) return last.effective;
    const effective = this.merge(config, template, agent);
    this.built.set(agentId, { base, template: template?.layer ?? null, agent, effective });
    return effective;
  }

  private merge(config: PolicyLayer, template: PolicyLayers['template'], agent: PolicyLayer | null): EffectivePolicy {
    const ordered: Array<[PolicySource, PolicyLayer]> = [['config', config]];
    if (template) ordered.push(['template', template.layer]);
    if (agent) ordered.push(['agent', agent]);
    const base = this.deps.config.values.policy;
    const classes = Object.fromEntries(TRUST_LEVELS.map((t) => [t, { ...base.classes[t] }])) as EffectivePolicy['classes'];
    const limits = { ...base.limits };
    let timeout = base.approval_timeout_s;
    const rules: SourcedRule[] = [];
    for (const [source, layer] of ordered) {
      for (const t of TRUST_LEVELS) Object.assign(classes[t], layer.classes?.[t] ?? {});
      Object.assign(limits, layer.limits ?? {});
      timeout = layer.approval_timeout_s ?? timeout;
      rules.unshift(...(layer.rules ?? []).map((r) => ({ ...r, source })));
    }
    return { classes, rules, limits, approval_timeout_s: timeout };
  }

  /** The decision for one call in a turn of `trust`. */
  decide(agentId: string, call: PolicyCall, trust: TrustLevel): PolicyVerdict {
    const policy = this.effective(agentId);
    const classes = [...new Set(call.classes)];
    const index = policy.rules.findIndex((r) => r.tool === call.tool && (!r.trust || r.trust.includes(trust)) && matchesArguments(r.arguments, call.arguments));
    if (index >= 0) {
      const rule = policy.rules[index]!;
      return { decision: rule.decision, classes, trust, timeoutS: policy.approval_timeout_s, source: { kind: 'rule', layer: rule.source, index } };
    }
    const decision = classes.reduce<PolicyDecision>((d, c) => stricterDecision(d, policy.classes[trust][c]), 'allow');
    return { decision, classes, trust, timeoutS: policy.approval_timeout_s, source: { kind: 'classes' } };
  }

  /**
   * Change the agent's own layer: each key present replaces that key (null removes it); the
   * result is validated whole. Inside its own transaction; appends `policy_changed`.
   */
  patchAgent(agentId: string, patch: Record<string, unknown>): EffectivePolicy {
    const unknown = Object.keys(patch).filter((k) => !(LAYER_KEYS as readonly string[]).includes(k));
    if (unknown.length > 0) throw errors.invalidPolicy(unknown.map((k) => ({ path: k, message: 'unknown policy key' })));
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const next: Record<string, unknown> = { ...(this.agentLayer(agentId) ?? {}) };
      for (const [k, v] of Object.entries(patch)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      const parsed = PolicyLayerSchema.safeParse(next);
      if (!parsed.success) throw errors.invalidPolicy(parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
      this.write(agentId, parsed.data);
      this.deps.events.append(agentId, 'policy_changed', { changed: Object.keys(patch), by: 'operator' });
      return this.effective(agentId);
    });
  }

  /** Inside a transaction: put `rule` first among the agent's rules (an approval remembered `always`). */
  prependAgentRule(agentId: string, rule: PolicyRule): void {
    const layer = this.agentLayer(agentId) ?? {};
    const rules = [rule, ...(layer.rules ?? [])].slice(0, 256);
    this.write(agentId, { ...layer, rules });
    this.deps.events.append(agentId, 'policy_changed', { changed: ['rules'], by: 'approval', rule });
  }

  /** The agent is being deleted: its layer goes with it. */
  stopAgent(agentId: string): void {
    this.deps.store.tx(() => {
      this.stmt.remove.run(agentId);
      this.agentLayers.delete(agentId);
      this.built.delete(agentId);
    });
  }

  /** The policy is read per call; the state page shows it through GET /api/agents/:id/policy. */
  stateFor(): unknown[] {
    return [];
  }

  private agentLayer(agentId: string): PolicyLayer | null {
    return this.agentLayers.get(agentId, () => {
      const raw = this.stmt.get.get(agentId) as string | undefined;
      return raw ? (JSON.parse(raw) as PolicyLayer) : null;
    });
  }

  private write(agentId: string, layer: PolicyLayer): void {
    if (Object.keys(layer).length === 0) this.stmt.remove.run(agentId);
    else this.stmt.put.run(agentId, JSON.stringify(layer), isoAt(this.deps.clock.now()));
    this.agentLayers.set(agentId, Object.keys(layer).length === 0 ? null : layer);
  }
}

