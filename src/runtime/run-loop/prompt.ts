/**
 * A turn's prompt within its model's window (docs/context.md#prompt-assembly). Once per turn:
 * the system prompt (who the agent is, its skills, the project instructions, the pinned context
 * and the summary of the compacted history) and the tools' specs are counted against the model's
 * budget (window less output limit); before the first round the history is compacted when it
 * passes `[context] compact_at` of what is left for it. Every round: the turn's own messages
 * (cut to fit when they alone overflow: the oldest tool results first), then the newest history
 * entries that fit what remains. A tool result over `[context] tool_result_share` of the budget is
 * capped when it is made (tool-results.ts), so its whole text stays an artifact.
 */
import { budgetOf, excerpt, fitTools, type Budget } from '../context/index.js';
import type { ChatMessage, ToolSpec } from '../providers/index.js';
import { systemPrompt } from './render.js';
import type { ActiveTurn } from './active-turn.js';
import type { RunLoopDeps } from './types.js';

/** What a turn's rounds share: counted once per turn. */
export interface TurnPrompt {
  modelRef: string;
  budget: Budget;
  system: string;
  tools: ToolSpec[];
  /** Tokens of the system prompt and the tools' specs (counted, with the model's correction). */
  fixedTokens: number;
  /** Where the history starts: entries after this seq (the summary stands for those before). */
  throughSeq: number;
  /** Tool results longer than this many bytes are capped when made. */
  resultMaxBytes: number;
}

/** What the model is told of the tools: their name, description and argument schema. */
export function specsOf(tools: ReadonlyArray<ToolSpec>): ToolSpec[] {
  return tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
}

/** Who the prompt is for. */
export interface PromptSubject {
  agentId: string;
  displayName: string;
  supervisor: string | null;
  modelRef: string;
}

/** Bytes per token used to turn a token share into a byte cap (a conservative average for text). */
const BYTES_PER_TOKEN = 3;
/** The tools' specs take at most this share of the prompt's budget (context/tool-specs.ts). */
const TOOLS_SHARE = 0.5;
/** Offered first when not all tools fit: the prompt itself points the model to them. */
const KEEP_TOOLS = ['read_tool_artifact', 'memory_search', 'memory_get'];

export class PromptBuilder {
  private readonly counted = new WeakMap<ChatMessage, number>();

  constructor(private readonly deps: RunLoopDeps) {}

  /** The turn's fixed part; the summary is the latest compaction's. */
  prepare(s: PromptSubject, offered: ToolSpec[]): TurnPrompt {
    const { specs, tokens, context, config } = this.deps;
    const budget = budgetOf(specs.of(s.modelRef));
    const factor = tokens.factor(s.modelRef);
    const fitted = fitTools(offered, budget.prompt * TOOLS_SHARE, (t) => tokens.countMessages('', [], t, s.modelRef) * factor, KEEP_TOOLS);
    const tools = fitted.tools;
    const state = context.state(s.agentId);
    const summary = state.through_seq > 0 ? (context.latest(s.agentId)?.summary ?? null) : null;
    const system = [
      systemPrompt({ agent_id: s.agentId, display_name: s.displayName, supervisor: s.supervisor }, this.section('skills', s.agentId, this.deps.skillPrompt)),
      this.section('project instructions', s.agentId, this.deps.instructions),
      this.section('pinned context', s.agentId, this.deps.pinned),
      summary ? `# Summary of the earlier conversation (compacted)\n${summary}` : '',
      fitted.omitted.length > 0 ? `Not offered this turn, to fit the model's context window: ${fitted.omitted.join(', ')}.` : '',
    ]
      .filter((p) => p !== '')
      .join('\n\n');
    const fixedTokens = Math.ceil(tokens.countMessages(system, [], tools, s.modelRef) * factor);
    const share = Math.floor((config.values.context.tool_result_share * budget.prompt * BYTES_PER_TOKEN) / factor);
    return {
      modelRef: s.modelRef,
      budget,
      system,
      tools,
      fixedTokens,
      throughSeq: state.through_seq,
      resultMaxBytes: Math.max(1024, Math.min(config.values.tools.result_max_bytes, share)),
    };
  }

  /** Tokens left for the history once the fixed part and the turn's messages are in. */
  historyBudget(tp: TurnPrompt, turnMessages: ChatMessage[]): number {
    return Math.max(0, tp.budget.prompt - tp.fixedTokens - this.countTurn(tp, turnMessages));
  }

  /** The round's messages: the newest history that fits, then the turn's own (cut to fit). */
  messages(turn: Pick<ActiveTurn, 'agentId'>, tp: TurnPrompt, turnMessages: ChatMessage[]): { messages: ChatMessage[]; tokens: number } {
    const room = tp.budget.prompt - tp.fixedTokens;
    const own = this.fitTurn(tp, turnMessages, room);
    const ownTokens = this.countTurn(tp, own);
    const factor = this.deps.tokens.factor(tp.modelRef);
    const history = this.deps.context.newest(turn.agentId, tp.throughSeq, Math.max(0, room - ownTokens), factor);
    // A prompt starts with a user message (some providers refuse anything else).
    while (history.length > 0 && history[0]!.role !== 'user') history.shift();
    const historyTokens = history.reduce((n, e) => n + e.tokens * factor, 0);
    return {
      messages: [...history.map((e) => ({ role: e.role as 'user' | 'assistant', content: e.content })), ...own],
      tokens: Math.ceil(tp.fixedTokens + historyTokens + ownTokens),
    };
  }

  private countTurn(tp: TurnPrompt, messages: ChatMessage[]): number {
    const factor = this.deps.tokens.factor(tp.modelRef);
    let n = 0;
    for (const m of messages) n += this.countOne(tp.modelRef, m) * factor;
    return Math.ceil(n);
  }

  private countOne(modelRef: string, m: ChatMessage): number {
    let n = this.counted.get(m);
    if (n === undefined) this.counted.set(m, (n = this.deps.tokens.countMessages('', [m], [], modelRef)));
    return n;
  }

  /**
   * The turn's messages within `room` tokens: unchanged when they fit; else the tool results,
   * oldest first, then the other messages but the last, are cut to their head and tail.
   */
  private fitTurn(tp: TurnPrompt, messages: ChatMessage[], room: number): ChatMessage[] {
    let over = this.countTurn(tp, messages) - room;
    if (over <= 0) return messages;
    const out = [...messages];
    const order = [...out.keys()].sort((a, b) => Number(out[b]!.role === 'tool') - Number(out[a]!.role === 'tool') || a - b);
    const factor = this.deps.tokens.factor(tp.modelRef);
    for (const i of order) {
      if (over <= 0) break;
      const m = out[i]!;
      if (i === out.length - 1 && m.role !== 'tool') continue;
      const tokens = this.countOne(tp.modelRef, m) * factor;
      const target = Math.max(32, tokens - over);
      if (target >= tokens) continue;
      const content = excerpt(m.content, tokens, target, (n) => `[… ${n} characters left out to fit the model's context window …]`);
      out[i] = { ...m, content } as ChatMessage;
      over -= tokens - this.countOne(tp.modelRef, out[i]!) * factor;
    }
    // Still over (the newest message alone is too long): cut it too.
    if (over > 0) {
      const last = out[out.length - 1]!;
      const tokens = this.countOne(tp.modelRef, last) * factor;
      out[out.length - 1] = { ...last, content: excerpt(last.content, tokens, Math.max(32, tokens - over), (n) => `[… ${n} characters left out to fit the model's context window …]`) } as ChatMessage;
    }
    return out;
  }

  /** A section of the system prompt from an optional source; one that fails costs the turn nothing. */
  private section(what: string, agentId: string, source: ((agentId: string) => string) | undefined): string {
    try {
      return source?.(agentId) ?? '';
    } catch (err) {
      this.deps.logger.warn({ err, agent_id: agentId }, `the ${what} could not be read for the system prompt`);
      return '';
    }
  }
}
