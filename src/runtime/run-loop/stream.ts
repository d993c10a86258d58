/**
 * The conversation stream (GET /api/agents/:id/conversation/stream): live SSE frames of turn
 * progress, including streamed model text and thoughts, which are never stored. Frames ride on
 * the event SSE machinery (SseConnection: backpressure, lagging clients disconnected, heartbeats
 * by the HTTP layer); each frame is serialised once whatever the number of subscribers, and
 * nothing is built when nobody listens.
 */
import { sseFrame, type SseConnection } from '../../events/index.js';

export const STREAM_FRAMES = [
  'snapshot',
  'turn_started',
  'text_delta',
  'thought_delta',
  'tool_call',
  'tool_result',
  'turn_interjected',
  'turn_completed',
  'turn_failed',
  'turn_aborted',
] as const;
export type StreamFrame = (typeof STREAM_FRAMES)[number];

export class ConversationHub {
  private readonly subs = new Map<string, Set<SseConnection>>();
  private seq = 0;

  /** Whether anyone follows the agent's conversation (callers skip building frames otherwise). */
  watched(agentId: string): boolean {
    return this.subs.has(agentId);
  }

  publish(agentId: string, type: StreamFrame, data: Record<string, unknown>): void {
    const set = this.subs.get(agentId);
    if (!set) return;
    const frame = sseFrame(String(++this.seq), type, JSON.stringify({ type, agent_id: agentId, ...data }));
    for (const conn of [...set]) conn.deliver(frame);
  }

  /** Send the snapshot frame, then every live frame until the connection closes. */
  follow(conn: SseConnection, agentId: string, snapshot: Record<string, unknown>): void {
    conn.agentId = agentId;
    conn.deliver(sseFrame(String(++this.seq), 'snapshot', JSON.stringify({ type: 'snapshot', agent_id: agentId, ...snapshot })));
    let set = this.subs.get(agentId);
    if (!set) this.subs.set(agentId, (set = new Set()));
    set.add(conn);
    conn.onClose(() => {
      set!.delete(conn);
      if (set!.size === 0 && this.subs.get(agentId) === set) this.subs.delete(agentId);
    });
  }
}
