/**
 * The two rows svc writes for one public enqueue, as bare statements on svc's schema: the
 * `messages` row and its `message_enqueued` event. Used by the in-process probe (lib/enqueue-probe.js)
 * and the durable baselines (servers/bare-durable.js), so both write exactly the same rows.
 */

/** Parameters: message_id, agent_id, body (JSON), created_at, updated_at. */
export const MESSAGE_INSERT =
  "INSERT INTO messages (message_id, agent_id, kind, origin, trust, authority_class, priority, priority_rank, body, metadata, text_ids, correlation_id, causation_id, delivery_surface, status, created_at, updated_at) VALUES (?, ?, 'webhook_event', '{\"kind\":\"webhook\",\"source\":\"http\"}', 'trusted_integration', 'integration_signal', 'normal', 2, ?, '{}', NULL, NULL, NULL, 'public_enqueue', 'queued', ?, ?)";

/** Parameters: agent_id, event_seq, id, ts, payload (JSON). */
export const EVENT_INSERT =
  "INSERT INTO events (agent_id, event_seq, id, ts, type, level, payload, text_ids) VALUES (?, ?, ?, ?, 'message_enqueued', 0, ?, NULL)";

/** A `hello` message's body and its event payload, serialised. */
export const BODY = JSON.stringify({ type: 'text', text: 'hello' });
export const EVENT_PAYLOAD = JSON.stringify({
  message_id: 'msg_probe',
  kind: 'webhook_event',
  provenance: { origin: { kind: 'webhook', source: 'http' } },
  body: { type: 'text', text: 'hello' },
});
