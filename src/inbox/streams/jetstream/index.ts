/** NATS JetStream as the stream backend, shared by several daemons (README.md here is its design). */
export { JetStreamBackend, type JetStreamBackendDeps, type JetStreamSettings } from './backend.js';
