/**
 * Agents: the registry (identity, lineage, status, bootstrap), templates, deletion, each agent's
 * durable message queue and the ingress into it. Everything else in the runtime builds on these.
 */
export { AgentDeletion } from './agent-deletion.js';
export { AgentService, BOOTSTRAP_STEPS, type AgentRecord, type AgentStatus } from './agents.js';
export { AGENT_MESSAGE_MAX_CHARS, Ingress, type Admitted } from './ingress.js';
export { bodyText, MessageQueue, provenanceOf, type Message, type MessageBody } from './queue.js';
export { TemplateCatalog } from './template-catalog.js';
