/**
 * The workspace file tools' service (docs/tools.md#files): read, list, search, write, edit and
 * patch files inside an agent's workspaces. Every path goes through confine.ts; reads and writes
 * through file-io.ts; every change is planned whole in memory, written all or nothing
 * (commit.ts) and recorded (changes.ts). Answers are bounded twice: by the `[tools.files]` caps
 * and by what fits the tool result (`tools.result_max_bytes`), so a model sees an answer whole,
 * with a note saying what was cut and how to ask for the rest.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { errors, fileKind, KeyedSerial } from '../../core/index.js';
import { recordChanges, type ChangeSummary, type FileArtifact } from './changes.js';
import { commitChanges } from './commit.js';
import { relativeTo, resolveTarget, rootsOf, shown } from './confine.js';
import { looksBinary, mimeOf, openRegular, readWhole, SNIFF_BYTES, statOf } from './file-io.js';
import { applyHunks } from './patch-apply.js';
import { parsePatch, type FileOp } from './patch-parse.js';
import { readLines, type LineSlice } from './read.js';
import { compilePattern, MatchCollector, type SearchMatch, type SearchSpec } from './search.js';
import { MAX_VISITED, searchJs } from './search-js.js';
import { ripgrepOnPath, searchRg } from './search-rg.js';
import type { ChangeContext, FileServiceDeps, FileServiceOptions, PlannedChange, Root, Target } from './types.js';
import { globFilter, walk } from './walk.js';

const SIZE_KEY = 'tools.files.max_file_bytes';
/** What a result's other fields may take beside its content, lines or matches. */
const RESULT_OVERHEAD = 1024;
const DEFAULT_SEARCH_TIMEOUT_MS = 10_000;
/** A patch may hold this many times max_file_bytes of content (before and after) in memory. */
const PATCH_HOLD_FACTOR = 8;
/** The one key changes are serialised on. */
const CHANGES = 'changes';
/** A listing's time limit. */
const LIST_TIMEOUT_MS = 10_000;

export interface ReadArgs {
  path: string;
  offset_line?: number | undefined;
  limit_lines?: number | undefined;
  max_bytes?: number | undefined;
}

export interface ListArgs {
  path?: string | undefined;
  glob?: string | undefined;
  max_entries?: number | undefined;
  include_ignored?: boolean | undefined;
}

export interface WriteArgs {
  path: string;
  content: string;
  create_dirs?: boolean | undefined;
}

export interface EditArgs {
  path: string;
  old_text: string;
  new_text: string;
  replace_all?: boolean | undefined;
}

export interface SearchArgs {
  pattern: string;
  path?: string | undefined;
  glob?: string | undefined;
  case_insensitive?: boolean | undefined;
  max_matches?: number | undefined;
  context_lines?: number | undefined;
  include_ignored?: boolean | undefined;
}

/** What a change answers: the files changed and their diffs (artifacts of the tool execution). */
export interface ChangeResult {
  files: ChangeSummary[];
  /** False when the event log could not be written (the files did change). */
  recorded: boolean;
  artifacts: FileArtifact[];
}

export class FileService {
  private readonly engine: 'rg' | 'js' | 'auto';
  private readonly changing = new KeyedSerial();

  constructor(
    private readonly deps: FileServiceDeps,
    private readonly opts: FileServiceOptions = {},
  ) {
    this.engine = opts.searchEngine ?? 'auto';
  }

  private get caps() {
    return this.deps.config.values.tools.files;
  }

  /** JSON bytes a result's content may take so the whole result fits the tool result cap. */
  private get budget(): number {
    return Math.max(512, this.deps.config.values.tools.result_max_bytes - RESULT_OVERHEAD);
  }

  private roots(agentId: string): Root[] {
    return rootsOf(this.deps.workspaces, agentId);
  }

  /** The path named, or the active workspace itself. */
  private place(agentId: string, p: string | undefined): Target {
    const roots = this.roots(agentId);
    if (p !== undefined && p !== '') return resolveTarget(roots, p, 'read');
    const root = roots.find((r) => r.active) ?? roots[0]!;
    return { root, abs: root.root, rel: '.', input: '.' };
  }

  // --- reads -----------------------------------------------------------------------------------

  async read(agentId: string, a: ReadArgs): Promise<LineSlice & { path: string; workspace_id: string; bytes: number; note?: string }> {
    const t = resolveTarget(this.roots(agentId), a.path, 'read');
    const f = openRegular(t);
    try {
      const head = Buffer.alloc(Math.min(f.size, SNIFF_BYTES));
      await f.reader.read(head, 0, head.length, 0);
      if (looksBinary(head, f.size > head.length)) throw errors.binaryFile(t.input, f.size, mimeOf(head));
      const maxBytes = Math.min(a.max_bytes ?? this.caps.max_read_bytes, this.caps.max_read_bytes);
      const slice = await readLines(f.reader, f.size, {
        offsetLine: a.offset_line ?? 1,
        limitLines: a.limit_lines ?? null,
        maxBytes,
        maxEncoded: this.budget,
        countUpTo: this.caps.max_file_bytes,
      });
      const note = readNote(slice, maxBytes);
      return { path: t.rel, workspace_id: t.root.workspace_id, bytes: f.size, ...slice, ...(note ? { note } : {}) };
    } finally {
      f.close();
    }
  }

  async list(agentId: string, a: ListArgs) {
    const t = this.place(agentId, a.path);
    const st = statOf(t);
    if (!st) throw errors.fileNotFound(t.input);
    const head = { workspace_id: t.root.workspace_id, root: t.root.root, path: t.rel };
    if (st.isFile()) return { ...head, entries: [t.rel], truncated: false };
    if (!st.isDirectory()) throw errors.notARegularFile(t.input, fileKind(st));
    const max = Math.min(a.max_entries ?? this.caps.max_entries, this.caps.max_entries);
    const entries: string[] = [];
    let used = 0;
    let cut: 'entries' | 'bytes' | 'visited' | 'time' | null = null;
    const stop = await walk(
      {
        root: t.root.root,
        start: t.abs,
        glob: a.glob,
        includeIgnored: a.include_ignored ?? false,
        directories: true,
        maxVisited: MAX_VISITED,
        deadline: performance.now() + LIST_TIMEOUT_MS,
      },
      (e) => {
        const name = e.rel + (e.kind === 'directory' ? '/' : e.kind === 'symlink' ? '@' : '');
        const size = Buffer.byteLength(JSON.stringify(name)) + 1;
        if (entries.length >= max) cut = 'entries';
        else if (used + size > this.budget) cut = 'bytes';
        if (cut) return false;
        entries.push(name);
        used += size;
        return true;
      },
    );
    cut ??= stop;
    return {
      ...head,
      entries,
      truncated: cut !== null,
      ...(cut ? { truncated_reason: cut, note: listNote(cut, entries.length) } : {}),
    };
  }

  async search(agentId: string, a: SearchArgs, signal: AbortSignal) {
    const t = this.place(agentId, a.path);
    const st = statOf(t);
    if (!st) throw errors.fileNotFound(t.input);
    if (!st.isFile() && !st.isDirectory()) throw errors.notARegularFile(t.input, fileKind(st));
    compilePattern(a.pattern, a.case_insensitive ?? false);
    globFilter(a.glob);
    const spec: SearchSpec = {
      root: t.root.root,
      start: t.abs,
      startIsFile: st.isFile(),
      pattern: a.pattern,
      caseInsensitive: a.case_insensitive ?? false,
      glob: a.glob,
      includeIgnored: a.include_ignored ?? false,
      contextLines: a.context_lines ?? 0,
      maxFileBytes: this.caps.max_file_bytes,
      deadline: performance.now() + (this.opts.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS),
      signal,
    };
    const max = Math.min(a.max_matches ?? this.caps.max_matches, this.caps.max_matches);
    let collector = new MatchCollector(max, this.budget);
    let engine: 'rg' | 'js' = 'js';
    const rg = this.engine === 'js' ? null : (this.opts.rgPath ?? ripgrepOnPath());
    if (rg) {
      engine = 'rg';
      const cwd = spec.startIsFile ? path.dirname(spec.start) : spec.start;
      const relOf = (p: string) => relativeTo(t.root.root, path.join(cwd, p));
      if ((await searchRg(rg, spec, relOf, collector)) === 'unsupported') {
        engine = 'js';
        collector = new MatchCollector(max, this.budget);
      }
    }
    if (engine === 'js') await searchJs(spec, collector);
    const cut = collector.stopped;
    return {
      workspace_id: t.root.workspace_id,
      root: t.root.root,
      path: t.rel,
      engine,
      matches: collector.matches as SearchMatch[],
      truncated: cut !== null,
      ...(cut ? { truncated_reason: cut, note: searchNote(cut, collector.matches.length) } : {}),
    };
  }

  // --- changes ---------------------------------------------------------------------------------

  // Changes run one at a time: each reads files, plans and writes, and two agents working in one
  // directory must not both read a file before either writes it (one change would be lost).

  write(who: ChangeContext, a: WriteArgs): Promise<ChangeResult & { changed: boolean }> {
    return this.changing.run(CHANGES, () => this.writeNow(who, a));
  }

  edit(who: ChangeContext, a: EditArgs): Promise<ChangeResult & { replacements: number }> {
    return this.changing.run(CHANGES, () => this.editNow(who, a));
  }

  applyPatch(who: ChangeContext, patch: string): Promise<ChangeResult> {
    return this.changing.run(CHANGES, () => this.applyPatchNow(who, patch));
  }

  private async writeNow(who: ChangeContext, a: WriteArgs): Promise<ChangeResult & { changed: boolean }> {
    const t = resolveTarget(this.roots(who.agentId), a.path, 'write');
    const size = Buffer.byteLength(a.content);
    if (size > this.caps.max_file_bytes) throw errors.fileTooLarge(t.input, size, this.caps.max_file_bytes, SIZE_KEY);
    const after = Buffer.from(a.content, 'utf8');
    const st = statOf(t);
    if (st && !st.isFile()) throw errors.notARegularFile(t.input, fileKind(st));
    if (!st) await this.parentReady(t, a.create_dirs ?? false);
    const old = st ? await readWhole(t, this.caps.max_file_bytes, SIZE_KEY) : null;
    if (old && old.bytes.equals(after)) return { changed: false, files: [], recorded: true, artifacts: [] };
    const change: PlannedChange = { op: old ? 'update' : 'create', target: t, before: old?.bytes ?? null, mode: old?.mode ?? null, after };
    return { changed: true, ...(await this.commit(who, [change])) };
  }

  private async editNow(who: ChangeContext, a: EditArgs): Promise<ChangeResult & { replacements: number }> {
    const t = resolveTarget(this.roots(who.agentId), a.path, 'write');
    const { bytes, mode } = await readWhole(t, this.caps.max_file_bytes, SIZE_KEY);
    const text = textOf(t, bytes);
    let [oldText, newText] = [a.old_text, a.new_text];
    let at = positions(text, oldText);
    // The model copied a CRLF file's lines with bare newlines: match them as the file has them.
    if (at.length === 0 && text.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r\n')) {
      [oldText, newText] = [oldText.replace(/\n/g, '\r\n'), newText.replace(/\n/g, '\r\n')];
      at = positions(text, oldText);
    }
    if (at.length === 0) throw errors.editNotFound(t.input);
    if (at.length > 1 && !a.replace_all) throw errors.editNotUnique(t.input, at.length, linesOf(text, at.slice(0, 10)));
    // The size is known before the new text is built (a replace_all could otherwise build gigabytes).
    const size = bytes.length + at.length * (Buffer.byteLength(newText) - Buffer.byteLength(oldText));
    if (size > this.caps.max_file_bytes) throw errors.fileTooLarge(t.input, size, this.caps.max_file_bytes, SIZE_KEY);
    let out = '';
    let from = 0;
    for (const i of at) {
      out += text.slice(from, i) + newText;
      from = i + oldText.length;
    }
    const after = Buffer.from(out + text.slice(from), 'utf8');
    if (after.equals(bytes)) return { replacements: at.length, files: [], recorded: true, artifacts: [] };
    return { replacements: at.length, ...(await this.commit(who, [{ op: 'update', target: t, before: bytes, mode, after }])) };
  }

  private async applyPatchNow(who: ChangeContext, patch: string): Promise<ChangeResult> {
    const size = Buffer.byteLength(patch);
    if (size > this.caps.max_file_bytes) throw errors.patchInvalid(1, `the patch has ${size} bytes; the limit is ${this.caps.max_file_bytes} (${SIZE_KEY})`);
    const ops = parsePatch(patch);
    const roots = this.roots(who.agentId);
    const claimed = new Map<string, FileOp>();
    const claim = (t: Target, op: FileOp) => {
      const first = claimed.get(t.abs);
      if (first) throw errors.patchInvalid(op.line, `${shown(op.path)} is changed again (first at line ${first.line}): put all of a file's hunks under one "*** Update File:"`);
      claimed.set(t.abs, op);
    };
    const plan: PlannedChange[] = [];
    // Every planned file is held in memory, before and after: a patch touching many large files
    // is refused before it holds more than PATCH_HOLD_FACTOR files of the largest size.
    const hold = PATCH_HOLD_FACTOR * this.caps.max_file_bytes;
    let held = 0;
    for (const op of ops) {
      const t = resolveTarget(roots, op.path, 'write');
      claim(t, op);
      const change = await this.planOp(op, t, roots, claim);
      if (!change) continue;
      held += (change.before?.length ?? 0) + (change.after?.length ?? 0);
      if (held > hold) throw errors.patchInvalid(op.line, `the patch changes more than ${hold} bytes of files at once (${PATCH_HOLD_FACTOR} × ${SIZE_KEY}); split it`);
      plan.push(change);
    }
    return this.commit(who, plan);
  }

  /** One file of a patch, computed in memory; null when it changes nothing. */
  private async planOp(op: FileOp, t: Target, roots: Root[], claim: (t: Target, op: FileOp) => void): Promise<PlannedChange | null> {
    const limit = this.caps.max_file_bytes;
    if (op.type === 'add') {
      if (statOf(t)) throw errors.patchDoesNotApply(op.path, 'file_exists', 'it already exists (use "*** Update File:" to change it)');
      const after = Buffer.from(op.lines.map((l) => `${l}\n`).join(''), 'utf8');
      if (after.length > limit) throw errors.fileTooLarge(t.input, after.length, limit, SIZE_KEY);
      return { op: 'create', target: t, before: null, mode: null, after };
    }
    const { bytes, mode } = await readWhole(t, limit, SIZE_KEY);
    if (op.type === 'delete') return { op: 'delete', target: t, before: bytes, mode, after: null };
    let after = bytes;
    if (op.hunks.length > 0) {
      const r = applyHunks(textOf(t, bytes), op.hunks);
      if (!r.ok) {
        const hunk = op.hunks[r.failure.hunk - 1]!;
        throw errors.patchDoesNotApply(op.path, r.failure.reason, `hunk ${r.failure.hunk} (patch line ${hunk.line}): ${r.failure.detail}`, { hunk: r.failure.hunk, patch_line: hunk.line });
      }
      after = Buffer.from(r.text, 'utf8');
      if (after.length > limit) throw errors.fileTooLarge(t.input, after.length, limit, SIZE_KEY);
    }
    if (op.moveTo !== null) {
      const to = resolveTarget(roots, op.moveTo, 'write');
      claim(to, op);
      if (statOf(to)) throw errors.patchDoesNotApply(op.moveTo, 'file_exists', 'the file to move to already exists');
      return { op: 'move', target: t, movedTo: to, before: bytes, mode, after };
    }
    return after.equals(bytes) ? null : { op: 'update', target: t, before: bytes, mode, after };
  }

  /** A new file's directory must exist unless the call asks to create it. */
  private async parentReady(t: Target, createDirs: boolean): Promise<void> {
    try {
      const st = await fsp.stat(path.dirname(t.abs));
      if (!st.isDirectory()) throw errors.pathInvalid(t.input, 'its parent is not a directory');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (!createDirs) throw errors.fileNotFound(t.input, 'its directory does not exist (pass create_dirs: true to create it)');
    }
  }

  private async commit(who: ChangeContext, plan: PlannedChange[]): Promise<ChangeResult> {
    if (plan.length === 0) return { files: [], recorded: true, artifacts: [] };
    await commitChanges(plan, this.deps.logger);
    return recordChanges(this.deps, who, plan, this.caps.max_diff_bytes);
  }
}

/**
 * A file's text, to be changed: all of it must be UTF-8 (decoding anything else would replace
 * the bytes it cannot read, and writing that back would change them).
 */
function textOf(t: Target, bytes: Buffer): string {
  if (!looksBinary(bytes, false)) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // not UTF-8 past its first block
    }
  }
  throw errors.binaryFile(t.input, bytes.length, mimeOf(bytes));
}

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
function positions(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** 1-based line numbers of ascending offsets. */
function linesOf(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let nl = text.indexOf('\n');
  for (const o of offsets) {
    while (nl !== -1 && nl < o) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    out.push(line);
  }
  return out;
}

function readNote(s: LineSlice, maxBytes: number): string | undefined {
  const of = s.total_lines === null ? '' : ` of ${s.total_lines}`;
  if (s.line_cut) {
    return `line ${s.start_line} is longer than one answer may be (${maxBytes} bytes, or what fits the tool result): only its start is shown; read parts of it with search_files or run_command` +
      (s.next_offset_line ? `, and go on with offset_line ${s.next_offset_line}` : '');
  }
  if (s.truncated) return `cut after line ${s.end_line}${of} (${maxBytes} bytes, or what fits the tool result): call read_file with offset_line ${s.next_offset_line} to read on`;
  if (s.end_line < s.start_line && s.total_lines !== null) return `the file has ${s.total_lines} lines; offset_line ${s.start_line} is past its end`;
  return undefined;
}

const STOPS: Record<string, string> = {
  entries: 'max_entries',
  matches: 'max_matches',
  bytes: 'what fits the tool result',
  visited: `the ${MAX_VISITED} directory entries one call reads`,
  time: 'the time one call may take',
  aborted: 'the run was aborted',
};

function listNote(cut: string, n: number): string {
  return `stopped after ${n} entries (${STOPS[cut] ?? cut}): list a subdirectory (path) or narrow with glob to see the rest`;
}

function searchNote(cut: string, n: number): string {
  return `stopped after ${n} matches (${STOPS[cut] ?? cut}): narrow the pattern, the path or the glob to see the rest`;
}
