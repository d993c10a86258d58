/**
 * The vocabulary of tool policy (docs/security.md#tool-policy): what a tool can do (its class),
 * what the policy answers for a call (a decision), and the built-in answer for each class at each
 * trust level. The config schema, the policy service and every tool use these names; the rules
 * that combine them live in src/runtime/policy/.
 */
import type { TrustLevel } from './provenance.js';

/** What a tool call can do: read state, change it, run a process, reach the network, act on other agents. */
export const TOOL_CLASSES = ['read', 'write', 'exec', 'network', 'agents'] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];

export const POLICY_DECISIONS = ['allow', 'ask', 'deny'] as const;
export type PolicyDecision = (typeof POLICY_DECISIONS)[number];

/**
 * The built-in decisions: the operator and the runtime itself are trusted with everything (inside
 * the workspaces: the command sandbox confines what runs); an integration may read and write but
 * asks before running, reaching out or involving other agents; a stranger may only read.
 */
export const DEFAULT_CLASS_DECISIONS: Readonly<Record<TrustLevel, Readonly<Record<ToolClass, PolicyDecision>>>> = {
  trusted_operator: { read: 'allow', write: 'allow', exec: 'allow', network: 'allow', agents: 'allow' },
  trusted_system: { read: 'allow', write: 'allow', exec: 'allow', network: 'allow', agents: 'allow' },
  trusted_integration: { read: 'allow', write: 'allow', exec: 'ask', network: 'ask', agents: 'ask' },
  untrusted_external: { read: 'allow', write: 'ask', exec: 'ask', network: 'ask', agents: 'ask' },
};

/** The stricter of two decisions (deny > ask > allow). */
export function stricterDecision(a: PolicyDecision, b: PolicyDecision): PolicyDecision {
  return POLICY_DECISIONS.indexOf(a) >= POLICY_DECISIONS.indexOf(b) ? a : b;
}
