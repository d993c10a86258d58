/**
 * Compaction's summary (docs/context.md#compaction): the entries after the previous compaction,
 * oldest first, are given to the agent's model with the compaction prompt (prompts/compaction.md,
 * or the file `[context] compaction_prompt` names), together with the previous summary; the
 * answer is the new summary. Entries that do not fit one request are summarised in chunks, each
 * call carrying the summary so far. An entry larger than a chunk is cut to its head and tail. The
 * summary is capped; a longer answer is cut with a marker. Failures are the caller's to handle
 * (it falls back to dropping the entries); nothing here writes anything.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { excerpt } from './budget.js';

/** The built-in prompt, shipped with svc. */
export const BUILTIN_COMPACTION_PROMPT = fileURLToPath(new URL('../../../prompts/compaction.md', import.meta.url));

const cache = new Map<string, { mtimeMs: number; size: number; text: string }>();

/**
 * The compaction prompt: the configured file, else the built-in one. Read again when the file
 * changes. A configured file that cannot be read is an error (the caller records it and drops).
 */
export function compactionPrompt(configured: string): string {
  const file = configured || BUILTIN_COMPACTION_PROMPT;
  const st = fs.statSync(file);
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.text;
  if (!st.isFile() || st.size > 64 * 1024) throw new Error(`the compaction prompt ${file} is not a regular file of at most 64 KiB`);
  const text = fs.readFileSync(file, 'utf8');
  cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, text });
  return text;
}

export interface SummaryEntry {
  seq: number;
  role: string;
  content: string;
  tokens: number;
}

export interface SummaryInput {
  prompt: string;
  previous: string | null;
  entries: SummaryEntry[];
  /** Tokens one request may take (its prompt, the summary so far and a chunk of entries). */
  requestBudget: number;
  /** The summary's cap, in tokens. */
  summaryMax: number;
  count: (text: string) => number;
  /** One model call: the system prompt and the user message; the answer's text. */
  complete: (system: string, user: string) => Promise<string>;
  /** Model calls at most; entries beyond them (the oldest chunks) are not summarised. */
  maxCalls: number;
}

export async function summarise(input: SummaryInput): Promise<{ summary: string; calls: number; skipped: number }> {
  const { prompt, count } = input;
  const fixed = count(prompt) + input.summaryMax + 64;
  const chunkBudget = Math.max(256, input.requestBudget - fixed);
  const chunks = chunk(input.entries, chunkBudget);
  // Too many chunks for the calls allowed: the oldest are left out (said in the summary).
  const skippedChunks = Math.max(0, chunks.length - input.maxCalls);
  const skipped = chunks.slice(0, skippedChunks).reduce((n, c) => n + c.length, 0);
  let summary = input.previous;
  if (skipped > 0) summary = `${summary ? `${summary}\n` : ''}[${skipped} older entries could not be summarised and were dropped]`;
  let calls = 0;
  for (const c of chunks.slice(skippedChunks)) {
    const user = [
      summary ? `Summary so far:\n${summary}` : 'There is no earlier summary.',
      '',
      `Entries to add (${c.length}), oldest first:`,
      ...c.map((e) => `[#${e.seq} ${e.role}]\n${e.content}`),
    ].join('\n');
    const answer = (await input.complete(prompt, user)).trim();
    calls++;
    if (answer === '') throw new Error('the model answered the compaction with an empty summary');
    summary = excerpt(answer, count(answer), input.summaryMax, (n) => `[… ${n} characters of the summary cut …]`);
  }
  return { summary: summary ?? '', calls, skipped };
}

/** Entries in chunks of at most `budget` tokens; a larger entry alone, cut to its head and tail. */
function chunk(entries: SummaryEntry[], budget: number): SummaryEntry[][] {
  const out: SummaryEntry[][] = [];
  let current: SummaryEntry[] = [];
  let used = 0;
  for (const e of entries) {
    const cost = e.tokens + 8;
    if (current.length > 0 && used + cost > budget) {
      out.push(current);
      current = [];
      used = 0;
    }
    const fitted = cost > budget ? { ...e, content: excerpt(e.content, e.tokens, budget - 16, (n) => `[… ${n} characters left out …]`), tokens: budget - 16 } : e;
    current.push(fitted);
    used += Math.min(cost, budget);
  }
  if (current.length > 0) out.push(current);
  return out;
}
