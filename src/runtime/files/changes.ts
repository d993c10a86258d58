/**
 * What a file change leaves behind once it is on the disk: one `file_changed` event per file in
 * the agent's log (docs/tools.md#the-file_changed-event) with the unified diff cut to
 * `max_diff_bytes`, and the same diff, cut at four times that, as an artifact of the tool
 * execution. The diff is computed with a time limit (a diff of two large, very different files
 * could hold the event loop); a binary side gets a one-line note instead.
 */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import type { Logger } from 'pino';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import { looksBinary } from './file-io.js';
import { cutUtf8 } from './read.js';
import type { ChangeContext, PlannedChange } from './types.js';

/** Longest a diff may take to compute before it is given up (ms, on the event loop). */
const DIFF_TIMEOUT_MS = 250;
/** The artifact keeps the diff up to this many times max_diff_bytes. */
export const ARTIFACT_DIFF_FACTOR = 4;

export interface FileArtifact {
  kind: 'diff';
  name: string;
  media_type: string;
  content: string;
}

/** One changed file as the model reads it. */
export interface ChangeSummary {
  path: string;
  workspace_id: string;
  op: PlannedChange['op'];
  moved_to?: string;
  moved_to_workspace_id?: string;
  bytes_before: number;
  bytes_after: number;
  lines_added: number;
  lines_removed: number;
}

interface Diff {
  text: string;
  added: number;
  removed: number;
}

export function diffOf(c: PlannedChange): Diff {
  const oldName = c.before === null ? '/dev/null' : `a/${c.target.rel}`;
  const newName = c.after === null ? '/dev/null' : `b/${(c.movedTo ?? c.target).rel}`;
  const binary = (b: Buffer | null) => b !== null && looksBinary(b, false);
  if (binary(c.before) || binary(c.after)) return { text: `Binary files ${oldName} and ${newName} differ\n`, added: 0, removed: 0 };
  const before = c.before?.toString('utf8') ?? '';
  const after = c.after?.toString('utf8') ?? '';
  const patch = structuredPatch(oldName, newName, before, after, undefined, undefined, { context: 3, timeout: DIFF_TIMEOUT_MS });
  if (!patch) return { text: `--- ${oldName}\n+++ ${newName}\n(no diff: computing it took longer than ${DIFF_TIMEOUT_MS} ms)\n`, added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return { text: formatPatch(patch, FILE_HEADERS_ONLY), added, removed };
}

/** `text` cut to `max` bytes at a line end, with a line saying what was cut. */
export function capDiff(text: string, max: number): { text: string; truncated: boolean } {
  const bytes = Buffer.byteLength(text);
  if (bytes <= max) return { text, truncated: false };
  const head = cutUtf8(Buffer.from(text), Math.max(0, max - 100)).toString('utf8');
  const end = head.lastIndexOf('\n');
  return { text: `${end === -1 ? head : head.slice(0, end + 1)}… [diff cut at ${max} of ${bytes} bytes]\n`, truncated: true };
}

export function summaryOf(c: PlannedChange, d: Diff): ChangeSummary {
  return {
    path: c.target.rel,
    workspace_id: c.target.root.workspace_id,
    op: c.op,
    ...(c.movedTo ? { moved_to: c.movedTo.rel, moved_to_workspace_id: c.movedTo.root.workspace_id } : {}),
    bytes_before: c.before?.length ?? 0,
    bytes_after: c.after?.length ?? 0,
    lines_added: d.added,
    lines_removed: d.removed,
  };
}

export interface RecordDeps {
  store: Store;
  events: EventLog;
  logger: Logger;
}

/**
 * Append one `file_changed` per change (one transaction) and build the artifacts. The files are
 * already written: a log that cannot be written (a full disk) is logged and reported as
 * `recorded: false`, never as a failed change.
 */
export async function recordChanges(
  deps: RecordDeps,
  who: ChangeContext,
  changes: PlannedChange[],
  maxDiffBytes: number,
): Promise<{ files: ChangeSummary[]; artifacts: FileArtifact[]; recorded: boolean }> {
  const summaries: ChangeSummary[] = [];
  const artifacts: FileArtifact[] = [];
  const payloads: Array<Record<string, unknown>> = [];
  for (const c of changes) {
    const d = diffOf(c);
    const s = summaryOf(c, d);
    summaries.push(s);
    const logged = capDiff(d.text, maxDiffBytes);
    const kept = capDiff(d.text, maxDiffBytes * ARTIFACT_DIFF_FACTOR);
    artifacts.push({ kind: 'diff', name: s.moved_to ?? s.path, media_type: 'text/x-diff', content: kept.text });
    payloads.push({
      ...s,
      diff: logged.text,
      diff_truncated: logged.truncated,
      summary: `${s.op} ${s.path}${s.moved_to ? ` → ${s.moved_to}` : ''} (+${d.added} −${d.removed})`,
      turn_id: who.turnId,
      tool_execution_id: who.executionId,
      tool: who.tool,
    });
  }
  try {
    await deps.store.write(() => {
      for (const p of payloads) deps.events.append(who.agentId, 'file_changed', p);
    });
    return { files: summaries, artifacts, recorded: true };
  } catch (err) {
    deps.logger.error({ err, agent_id: who.agentId, files: summaries.map((s) => s.path) }, 'file changes could not be recorded in the event log');
    return { files: summaries, artifacts, recorded: false };
  }
}
