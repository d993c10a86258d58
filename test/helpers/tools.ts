/**
 * Calling the model's tools on in-process services (testServices) as a turn would: a context with
 * defaults, and checks that an outcome is an ok result or a refusal with a code, its content being
 * the JSON of its data.
 */
import { expect } from 'vitest';
import type { Services } from '../../src/services.js';
import type { Tool, ToolContext, ToolOutcome } from '../../src/runtime/tools/index.js';

export type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const TURN_CTX = { agentId: 'main', turnId: 'turn_T', messageId: 'msg_M', trust: 'trusted_operator', network: false } as const;

export function toolCaller(services: () => Services) {
  const tool = (name: string): Tool => {
    const found = services().tools.find((x) => x.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  const call = (name: string, args: Record<string, unknown>, ctx: Partial<ToolContext> = {}): Promise<ToolOutcome> =>
    tool(name).execute({ ...TURN_CTX, signal: new AbortController().signal, ...ctx }, args);
  return {
    tool,
    call,
    /** The outcome of an ok call (the test fails otherwise). */
    async okOutcome(name: string, args: Record<string, unknown>, ctx: Partial<ToolContext> = {}): Promise<ToolOutcome & { data: Data }> {
      const out = await call(name, args, ctx);
      expect(out.ok, out.content).toBe(true);
      expect(JSON.parse(out.content)).toEqual(out.data);
      return out as ToolOutcome & { data: Data };
    },
    /** The data of a refusal with `code` (the test fails otherwise). */
    async refusal(name: string, args: Record<string, unknown>, code: string, ctx: Partial<ToolContext> = {}): Promise<Data> {
      const out = await call(name, args, ctx);
      expect(out.ok, out.content).toBe(false);
      expect(out.endTurn).toBeUndefined();
      const data = JSON.parse(out.content);
      expect(data).toMatchObject({ ok: false, code, error: expect.any(String) });
      expect(out.data).toEqual(data);
      return data;
    },
  };
}
