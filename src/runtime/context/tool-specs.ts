/**
 * The tools' specs within their share of the prompt (docs/context.md#prompt-assembly). Thirty-odd
 * built-in tools and an MCP server's take some 30 KB, more than a small model's whole window; so
 * when the specs pass their share they are made shorter, step by step, until they fit: first each
 * description is cut to its first sentence and the argument descriptions are dropped, then the
 * descriptions go entirely (names and argument schemas stay), and last the tools that still do not
 * fit are not offered for this turn: the tools named in `keep` first (those the context machinery
 * itself points the model to: reading a capped result back, searching the memory a compaction
 * summarised), then the smallest, so as many tools as possible stay. Which step was needed and which tools were left out is reported to the caller.
 */
import type { ToolSpec } from '../providers/index.js';

export interface FittedTools {
  tools: ToolSpec[];
  /** 0: whole; 1: first sentences; 2: no descriptions; 3: some left out. */
  level: 0 | 1 | 2 | 3;
  omitted: string[];
}

export function fitTools(specs: ToolSpec[], maxTokens: number, count: (specs: ToolSpec[]) => number, keep: readonly string[] = []): FittedTools {
  if (count(specs) <= maxTokens) return { tools: specs, level: 0, omitted: [] };
  const short = specs.map((s) => ({ ...s, description: firstSentence(s.description), parameters: stripDescriptions(s.parameters) as Record<string, unknown> }));
  if (count(short) <= maxTokens) return { tools: short, level: 1, omitted: [] };
  const bare = short.map((s) => ({ ...s, description: '' }));
  if (count(bare) <= maxTokens) return { tools: bare, level: 2, omitted: [] };
  const first = (s: ToolSpec) => (keep.includes(s.name) ? 0 : 1);
  const bySize = bare.map((s) => ({ s, n: count([s]) })).sort((a, b) => first(a.s) - first(b.s) || a.n - b.n);
  const names = new Set<string>();
  let used = 0;
  for (const { s, n } of bySize) {
    if (used + n > maxTokens) {
      if (first(s) === 0) continue;
      break;
    }
    used += n;
    names.add(s.name);
  }
  return { tools: bare.filter((s) => names.has(s.name)), level: 3, omitted: specs.filter((s) => !names.has(s.name)).map((s) => s.name) };
}

function firstSentence(text: string): string {
  const m = /^[\s\S]*?[.!?](\s|$)/.exec(text);
  const s = (m ? m[0] : text).trim();
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

/** A JSON Schema without its `description` and `examples` members, at every depth. */
function stripDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDescriptions);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === 'description' || k === 'examples' || k === 'title') continue;
    out[k] = k === 'properties' && x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).map(([p, s]) => [p, stripDescriptions(s)])) : stripDescriptions(x);
  }
  return out;
}
