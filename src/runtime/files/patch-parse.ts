/**
 * The `*** Begin Patch` format of Codex's apply_patch (Holon's too), parsed whole before anything
 * is read or written; a syntax error names the patch line. The grammar (docs/tools.md#apply_patch):
 *
 *   patch   := "*** Begin Patch" { add | delete | update } "*** End Patch"
 *   add     := "*** Add File: " path  { "+" line }
 *   delete  := "*** Delete File: " path
 *   update  := "*** Update File: " path  [ "*** Move to: " path ]  { hunk }
 *   hunk    := [ "@@" [ " " anchor ] ]  { (" " | "-" | "+") line }  [ "*** End of File" ]
 *
 * Lenient where models commonly slip, as Codex is: blank lines around the patch and a heredoc
 * wrapper (`<<'EOF'` … `EOF`) are dropped, `\r` line endings are accepted, and an empty line
 * inside a hunk is an empty context line. The first hunk of an update may omit its `@@` line.
 */
import { errors } from '../../core/index.js';
import { MAX_PATH_CHARS } from './confine.js';

export interface HunkLine {
  kind: ' ' | '-' | '+';
  text: string;
}

export interface Hunk {
  /** The `@@ anchor` text: a line the hunk's context follows (a function or class line). */
  anchor: string | null;
  lines: HunkLine[];
  /** `*** End of File`: the hunk's old lines end the file. */
  endOfFile: boolean;
  /** Patch line of the hunk's start (for messages). */
  line: number;
}

export type FileOp =
  | { type: 'add'; path: string; lines: string[]; line: number }
  | { type: 'delete'; path: string; line: number }
  | { type: 'update'; path: string; moveTo: string | null; hunks: Hunk[]; line: number };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

interface Line {
  text: string;
  /** 1-based line number in the patch as sent. */
  no: number;
}

export function parsePatch(patch: string): FileOp[] {
  let lines: Line[] = patch.split('\n').map((text, i) => ({ text: text.endsWith('\r') ? text.slice(0, -1) : text, no: i + 1 }));
  while (lines.length > 0 && lines[0]!.text.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.text.trim() === '') lines.pop();
  if (lines.length >= 2 && /^<<['"]?EOF['"]?$/.test(lines[0]!.text.trim()) && lines[lines.length - 1]!.text.trim() === 'EOF') lines = lines.slice(1, -1);
  if (lines.length === 0 || lines[0]!.text.trim() !== BEGIN) throw errors.patchInvalid(lines[0]?.no ?? 1, `the first line must be "${BEGIN}"`);
  const last = lines[lines.length - 1]!;
  if (lines.length < 2 || last.text.trim() !== END) throw errors.patchInvalid(last.no, `the last line must be "${END}"`);

  const body = lines.slice(1, -1);
  const ops: FileOp[] = [];
  let i = 0;
  const isHeader = (t: string) => t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE);
  const pathOf = (l: Line, prefix: string): string => {
    const p = l.text.slice(prefix.length).trim();
    if (!p) throw errors.patchInvalid(l.no, `"${prefix.trim()}" names no file`);
    if (p.length > MAX_PATH_CHARS) throw errors.patchInvalid(l.no, `the path is longer than ${MAX_PATH_CHARS} characters`);
    return p;
  };
  while (i < body.length) {
    const head = body[i]!;
    if (head.text.startsWith(ADD)) {
      const path = pathOf(head, ADD);
      const content: string[] = [];
      for (i++; i < body.length && !isHeader(body[i]!.text); i++) {
        const l = body[i]!;
        if (!l.text.startsWith('+')) throw errors.patchInvalid(l.no, `a line of an added file must start with "+" (${path})`);
        content.push(l.text.slice(1));
      }
      ops.push({ type: 'add', path, lines: content, line: head.no });
    } else if (head.text.startsWith(DELETE)) {
      ops.push({ type: 'delete', path: pathOf(head, DELETE), line: head.no });
      i++;
    } else if (head.text.startsWith(UPDATE)) {
      const path = pathOf(head, UPDATE);
      i++;
      let moveTo: string | null = null;
      if (i < body.length && body[i]!.text.startsWith(MOVE)) moveTo = pathOf(body[i++]!, MOVE);
      const start = i;
      while (i < body.length && !isHeader(body[i]!.text)) i++;
      const hunks = parseHunks(body.slice(start, i), path);
      if (hunks.length === 0 && moveTo === null) throw errors.patchInvalid(head.no, `"${UPDATE.trim()} ${path}" has no hunk and no "${MOVE.trim()}"`);
      ops.push({ type: 'update', path, moveTo, hunks, line: head.no });
    } else {
      throw errors.patchInvalid(head.no, `expected "${ADD.trim()}", "${UPDATE.trim()}" or "${DELETE.trim()}", found ${JSON.stringify(head.text.slice(0, 80))}`);
    }
  }
  if (ops.length === 0) throw errors.patchInvalid(last.no, 'the patch changes no file');
  return ops;
}

function parseHunks(lines: Line[], path: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | null = null;
  for (const l of lines) {
    const t = l.text;
    if (t === '@@' || t.startsWith('@@ ')) {
      if (current && current.lines.length === 0) throw errors.patchInvalid(current.line, `a hunk of ${path} has no lines`);
      const anchor = t.slice(2).trim();
      current = { anchor: anchor === '' ? null : anchor, lines: [], endOfFile: false, line: l.no };
      hunks.push(current);
      continue;
    }
    if (t.trim() === EOF_MARK) {
      if (!current || current.lines.length === 0) throw errors.patchInvalid(l.no, `"${EOF_MARK}" ends no hunk (${path})`);
      current.endOfFile = true;
      continue;
    }
    if (current?.endOfFile) throw errors.patchInvalid(l.no, `a line after "${EOF_MARK}" must start a new hunk with "@@" (${path})`);
    if (!current) {
      current = { anchor: null, lines: [], endOfFile: false, line: l.no };
      hunks.push(current);
    }
    const kind = t === '' ? ' ' : t[0];
    if (kind !== ' ' && kind !== '-' && kind !== '+') {
      throw errors.patchInvalid(l.no, `a hunk line must start with " " (context), "-" (removed) or "+" (added), found ${JSON.stringify(t.slice(0, 80))} (${path})`);
    }
    current.lines.push({ kind, text: t.slice(1) });
  }
  if (current && current.lines.length === 0) throw errors.patchInvalid(current.line, `a hunk of ${path} has no lines`);
  return hunks;
}
