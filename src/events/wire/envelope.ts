/** One event of an agent's log as it goes on the wire (spec/control-plane.md StreamEventEnvelope). No imports: the console shares it. */
export interface EventEnvelope {
  id: string;
  event_seq: number;
  ts: string;
  agent_id: string;
  type: string;
  provenance: Record<string, unknown> | null;
  payload: Record<string, unknown>;
}
