/**
 * apply_patch (docs/tools.md#apply_patch): the parser (syntax errors name the patch line), the
 * hunk matcher (context, anchors, whitespace-tolerant passes, uniqueness, end of file, CRLF), and
 * the tool over real files: add, update, delete, move, several files at once; a hunk that does
 * not apply, or a write that fails midway, leaves every file as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyHunks } from '../../src/runtime/files/patch-apply.js';
import { parsePatch, type FileOp } from '../../src/runtime/files/patch-parse.js';
import { filesFixture, put, tree, type FilesFixture } from '../helpers/files.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function parseError(text: string): { code: string; line: number; message: string } {
  try {
    parsePatch(text);
  } catch (err) {
    const e = err as { code: string; extra: { line: number }; message: string };
    return { code: e.code, line: e.extra.line, message: e.message };
  }
  throw new Error('the patch parsed');
}

describe('the patch parser', () => {
  it('reads add, update with move and hunks, and delete', () => {
    const ops = parsePatch(
      patch('*** Add File: n.txt', '+one', '+', '*** Update File: a.txt', '*** Move to: b.txt', '@@ def f():', ' ctx', '-old', '+new', '@@', '', '-x', '*** End of File', '*** Delete File: gone.txt'),
    );
    expect(ops).toEqual([
      { type: 'add', path: 'n.txt', lines: ['one', ''], line: 2 },
      {
        type: 'update',
        path: 'a.txt',
        moveTo: 'b.txt',
        line: 5,
        hunks: [
          { anchor: 'def f():', endOfFile: false, line: 7, lines: [{ kind: ' ', text: 'ctx' }, { kind: '-', text: 'old' }, { kind: '+', text: 'new' }] },
          { anchor: null, endOfFile: true, line: 11, lines: [{ kind: ' ', text: '' }, { kind: '-', text: 'x' }] },
        ],
      },
      { type: 'delete', path: 'gone.txt', line: 15 },
    ]);
  });

  it('accepts what models commonly send: CRLF, blank lines around, a heredoc wrapper, a first hunk without @@', () => {
    const ops = parsePatch(`\n<<'EOF'\r\n${patch('*** Update File: a.txt', ' ctx', '-a', '+b').replace(/\n/g, '\r\n')}\r\nEOF\n\n`);
    expect(ops).toEqual([{ type: 'update', path: 'a.txt', moveTo: null, line: 4, hunks: [{ anchor: null, endOfFile: false, line: 5, lines: [{ kind: ' ', text: 'ctx' }, { kind: '-', text: 'a' }, { kind: '+', text: 'b' }] }] }]);
  });

  it('names the line of every syntax error', () => {
    expect(parseError('*** Update File: a\n-x\n*** End Patch')).toMatchObject({ code: 'patch_invalid', line: 1 });
    expect(parseError('*** Begin Patch\n*** Add File: a\n+x')).toMatchObject({ line: 3, message: expect.stringContaining('*** End Patch') });
    expect(parseError(patch('*** Add File: a', '+x', 'y'))).toMatchObject({ line: 4, message: expect.stringContaining('must start with "+"') });
    expect(parseError(patch('*** Update File: a', '@@', ' ctx', '!bad'))).toMatchObject({ line: 5, message: expect.stringContaining('found "!bad"') });
    expect(parseError(patch('*** Update File: a'))).toMatchObject({ line: 2, message: expect.stringContaining('no hunk') });
    expect(parseError(patch('*** Update File: a', '@@', '@@', '-x'))).toMatchObject({ line: 3, message: expect.stringContaining('has no lines') });
    expect(parseError(patch('*** Copy File: a'))).toMatchObject({ line: 2 });
    expect(parseError(patch('*** Delete File:   '))).toMatchObject({ line: 2, message: expect.stringContaining('names no file') });
    expect(parseError(patch())).toMatchObject({ line: 2, message: expect.stringContaining('changes no file') });
    expect(parseError(patch('*** Update File: a', '-x', '*** End of File', '-y'))).toMatchObject({ line: 5 });
  });
});

function apply(text: string, ...hunks: string[][]) {
  const ops = parsePatch(patch('*** Update File: f', ...hunks.flatMap((h) => ['@@' + (h[0]!.startsWith('@@') ? h[0]!.slice(2) : ''), ...(h[0]!.startsWith('@@') ? h.slice(1) : h)])));
  return applyHunks(text, (ops[0] as Extract<FileOp, { type: 'update' }>).hunks);
}

describe('the hunk matcher', () => {
  const file = ['import a', '', 'def f():', '    return 1', '', 'def g():', '    return 1', ''].join('\n');

  it('replaces the lines its context finds, and keeps the rest byte for byte', () => {
    expect(apply('a\nb\nc\n', [' a', '-b', '+B', ' c'])).toEqual({ ok: true, text: 'a\nB\nc\n' });
    expect(apply('a\nb\nc', [' a', '-b', '+B'])).toEqual({ ok: true, text: 'a\nB\nc' });
    expect(apply('', ['+first'])).toEqual({ ok: true, text: 'first\n' });
    expect(apply('a\n', ['+b'])).toEqual({ ok: true, text: 'a\nb\n' });
  });

  it('refuses context that occurs twice, and takes an @@ anchor to tell them apart', () => {
    const ambiguous = apply(file, ['-    return 1', '+    return 2']);
    expect(ambiguous).toMatchObject({ ok: false, failure: { hunk: 1, reason: 'ambiguous_context', detail: expect.stringContaining('2 times (from lines 4, 7)') } });
    expect(apply(file, ['@@ def g():', '-    return 1', '+    return 2'])).toEqual({ ok: true, text: file.replace('g():\n    return 1', 'g():\n    return 2') });
    expect(apply(file, ['@@ def h():', '-    return 1', '+    return 2'])).toMatchObject({ ok: false, failure: { reason: 'anchor_not_found' } });
  });

  it('applies hunks in file order, each after the previous one', () => {
    expect(apply(file, [' def f():', '-    return 1', '+    return 10'], [' def g():', '-    return 1', '+    return 20'])).toEqual({
      ok: true,
      text: file.replace('f():\n    return 1', 'f():\n    return 10').replace('g():\n    return 1', 'g():\n    return 20'),
    });
    const backwards = apply(file, [' def g():', '-    return 1', '+    return 20'], [' def f():', '-    return 1', '+    return 10']);
    expect(backwards).toMatchObject({ ok: false, failure: { hunk: 2, reason: 'context_not_found', detail: expect.stringContaining('after the previous hunk') } });
  });

  it('tolerates whitespace and typographic differences in context, keeping the file\'s own lines', () => {
    const text = 'if (x) {\n\tcall(“a” – b);   \n}\n';
    expect(apply(text, ['  if (x) {', '-    call("a" - b);', '+\tcall(c);', ' }'])).toEqual({ ok: true, text: 'if (x) {\n\tcall(c);\n}\n' });
    expect(apply('a  b\nc\n', [' a b', '-c', '+d'])).toEqual({ ok: true, text: 'a  b\nd\n' });
    expect(apply('a\nb\n', [' a', '-z', '+y'])).toMatchObject({ ok: false, failure: { reason: 'context_not_found' } });
  });

  it('pins an End of File hunk to the end, drops a blank last context line the file lacks, keeps CRLF', () => {
    expect(apply('x\ny\nx\n', ['-x', '+z', '*** End of File'])).toEqual({ ok: true, text: 'x\ny\nz\n' });
    expect(apply('a\nb\n', [' a', '-b', '+c', ' '])).toEqual({ ok: true, text: 'a\nc\n' });
    expect(apply('a\r\nb\r\n', [' a', '-b', '+c'])).toEqual({ ok: true, text: 'a\r\nc\r\n' });
  });
});

describe('apply_patch on files', () => {
  let f: FilesFixture;
  beforeEach(() => {
    f = filesFixture();
    put(f.ws, { 'src/a.ts': 'export const a = 1;\nexport const b = 2;\n', 'src/old.ts': 'old\n', 'README.md': '# p\n\ntext\n', 'gone.txt': 'bye\n' });
    fs.chmodSync(path.join(f.ws, 'src/old.ts'), 0o750);
  });
  afterEach(async () => {
    await f.close();
  });

  const multi = patch(
    '*** Add File: docs/new/guide.md',
    '+# guide',
    '+',
    '*** Update File: src/a.ts',
    '@@',
    ' export const a = 1;',
    '-export const b = 2;',
    '+export const b = 3;',
    '*** Update File: src/old.ts',
    '*** Move to: src/renamed.ts',
    '@@',
    '-old',
    '+new',
    '*** Delete File: gone.txt',
  );

  it('adds, updates, moves and deletes in one call, with one file_changed event and one diff artifact per file', async () => {
    const out = await f.call('apply_patch', { patch: multi });
    expect(out.ok, out.content).toBe(true);
    expect(tree(f.ws)).toEqual({ 'README.md': '# p\n\ntext\n', 'docs/new/guide.md': '# guide\n\n', 'src/a.ts': 'export const a = 1;\nexport const b = 3;\n', 'src/renamed.ts': 'new\n' });
    expect(fs.statSync(path.join(f.ws, 'src/renamed.ts')).mode & 0o777).toBe(0o750);
    expect((out.data as { files: unknown[] }).files).toEqual([
      { path: 'docs/new/guide.md', workspace_id: f.wsId, op: 'create', bytes_before: 0, bytes_after: 9, lines_added: 2, lines_removed: 0 },
      { path: 'src/a.ts', workspace_id: f.wsId, op: 'update', bytes_before: 40, bytes_after: 40, lines_added: 1, lines_removed: 1 },
      { path: 'src/old.ts', workspace_id: f.wsId, op: 'move', moved_to: 'src/renamed.ts', moved_to_workspace_id: f.wsId, bytes_before: 4, bytes_after: 4, lines_added: 1, lines_removed: 1 },
      { path: 'gone.txt', workspace_id: f.wsId, op: 'delete', bytes_before: 4, bytes_after: 0, lines_added: 0, lines_removed: 1 },
    ]);
    const events = f.changes();
    expect(events.map((e) => [e.op, e.path])).toEqual([['create', 'docs/new/guide.md'], ['update', 'src/a.ts'], ['move', 'src/old.ts'], ['delete', 'gone.txt']]);
    expect(events[1]).toMatchObject({ tool: 'apply_patch', turn_id: 'turn_T', tool_execution_id: 'tex_X', diff_truncated: false, summary: 'update src/a.ts (+1 −1)' });
    expect(events[1].diff).toBe('--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n export const a = 1;\n-export const b = 2;\n+export const b = 3;\n');
    expect(events[0].diff).toContain('--- /dev/null\n+++ b/docs/new/guide.md\n');
    expect(events[2].diff).toContain('--- a/src/old.ts\n+++ b/src/renamed.ts\n');
    expect(out.artifacts?.map((a) => [a.kind, a.name, a.media_type])).toEqual([
      ['diff', 'docs/new/guide.md', 'text/x-diff'],
      ['diff', 'src/a.ts', 'text/x-diff'],
      ['diff', 'src/renamed.ts', 'text/x-diff'],
      ['diff', 'gone.txt', 'text/x-diff'],
    ]);
    expect(out.artifacts![1]!.content).toBe(events[1].diff);
  });

  it('changes nothing when one hunk of one file does not apply, and names the file and the hunk', async () => {
    const before = tree(f.ws);
    const bad = multi.replace('-old', '-not in the file');
    const data = await f.refused('apply_patch', { patch: bad }, 'patch_does_not_apply');
    expect(data).toMatchObject({ file: 'src/old.ts', reason: 'context_not_found', hunk: 1, patch_line: 12 });
    expect(data.error).toContain('hunk 1 (patch line 12)');
    expect(tree(f.ws)).toEqual(before);
    expect(fs.existsSync(path.join(f.ws, 'docs'))).toBe(false);
    expect(f.changes()).toEqual([]);
  });

  it('refuses adding a file that exists, moving onto one, a missing file, and a file named twice', async () => {
    const before = tree(f.ws);
    expect(await f.refused('apply_patch', { patch: patch('*** Add File: README.md', '+x') }, 'patch_does_not_apply')).toMatchObject({ reason: 'file_exists' });
    await f.refused('apply_patch', { patch: patch('*** Update File: src/old.ts', '*** Move to: src/a.ts') }, 'patch_does_not_apply');
    await f.refused('apply_patch', { patch: patch('*** Delete File: nope.txt') }, 'file_not_found');
    await f.refused('apply_patch', { patch: patch('*** Update File: nope.txt', '-a', '+b') }, 'file_not_found');
    const twice = await f.refused('apply_patch', { patch: patch('*** Delete File: gone.txt', '*** Update File: ./gone.txt', '-bye', '+hi') }, 'patch_invalid');
    expect(twice).toMatchObject({ line: 3 });
    await f.refused('apply_patch', { patch: 'not a patch' }, 'patch_invalid');
    expect(tree(f.ws)).toEqual(before);
  });

  it('undoes what it wrote when a write fails midway: every file as it was, created directories gone', async () => {
    const before = tree(f.ws);
    const modes = fs.statSync(path.join(f.ws, 'src/old.ts')).mode;
    // A name the filesystem refuses (over 255 bytes) fails only when it is written, after the
    // files before it in the patch were already changed.
    const failing = patch(
      '*** Update File: src/a.ts',
      '-export const b = 2;',
      '+export const b = 99;',
      '*** Delete File: gone.txt',
      '*** Update File: src/old.ts',
      '-old',
      '+new',
      '*** Add File: newdir/deeper/ok.txt',
      '+ok',
      `*** Add File: newdir/${'n'.repeat(300)}.txt`,
      '+x',
    );
    const data = await f.refused('apply_patch', { patch: failing }, 'write_failed');
    expect(data).toMatchObject({ errno: 'ENAMETOOLONG' });
    expect(data.error).toContain('every file was left as it was');
    expect(tree(f.ws)).toEqual(before);
    expect(fs.existsSync(path.join(f.ws, 'newdir'))).toBe(false);
    expect(fs.statSync(path.join(f.ws, 'src/old.ts')).mode).toBe(modes);
    expect(fs.readdirSync(path.join(f.ws, 'src')).sort()).toEqual(['a.ts', 'old.ts']); // no temporary file left
    expect(f.changes()).toEqual([]);
  });

  it('writes nothing for an update that changes nothing', async () => {
    const out = await f.ok('apply_patch', { patch: patch('*** Update File: README.md', ' # p', '-', '+') });
    expect(out.files).toEqual([]);
    expect(f.changes()).toEqual([]);
  });
});
