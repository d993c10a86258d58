/** The shapes the policy service answers with (docs/security.md#tool-policy). */
import type { PolicyLayer, PolicyLimits, PolicyRule } from '../../config/index.js';
import type { PolicyDecision, ToolClass, TrustLevel } from '../../core/index.js';

export type PolicySource = 'config' | 'template' | 'agent';

/** A rule of the effective policy, with the layer it comes from (rules are tried in this order). */
export type SourcedRule = PolicyRule & { source: PolicySource };

export interface EffectivePolicy {
  classes: Record<TrustLevel, Record<ToolClass, PolicyDecision>>;
  rules: SourcedRule[];
  limits: PolicyLimits;
  approval_timeout_s: number;
}

export interface PolicyLayers {
  config: PolicyLayer;
  template: { name: string; layer: PolicyLayer } | null;
  agent: PolicyLayer | null;
}

/** One tool call as the policy sees it. */
export interface PolicyCall {
  tool: string;
  classes: readonly ToolClass[];
  arguments: Record<string, unknown>;
}

export interface PolicyVerdict {
  decision: PolicyDecision;
  classes: ToolClass[];
  trust: TrustLevel;
  /** How long an `ask` waits for the operator (the effective approval_timeout_s). */
  timeoutS: number;
  /** What decided: a rule (its layer and index among the effective rules) or the class table. */
  source: { kind: 'rule'; layer: PolicySource; index: number } | { kind: 'classes' };
}
