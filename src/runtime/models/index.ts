/**
 * Which model a ref names: the provider registry, and the models catalog with per-agent model
 * overrides.
 */
export { ModelCatalog } from './models.js';
export { ProviderRegistry } from './registry.js';
export { costAt, ModelSpecs, type ModelSpec } from './specs.js';
