/** The tool policy (README.md). */
export { compilePattern, matchesArguments } from './patterns.js';
export { PolicyService, type PolicyDeps } from './policy.js';
export type { EffectivePolicy, PolicyCall, PolicyLayers, PolicySource, PolicyVerdict, SourcedRule } from './types.js';
