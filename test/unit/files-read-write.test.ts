/**
 * read_file (line ranges, byte caps with a note saying how to read on, binary detection),
 * write_file (create, overwrite atomically keeping the mode, directories only when asked) and
 * edit_file (exactly one occurrence, or replace_all; CRLF files), each change recorded once as
 * `file_changed` with its diff capped at max_diff_bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesFixture, put, tree, type FilesFixture } from '../helpers/files.js';

let f: FilesFixture;
beforeEach(() => {
  f = filesFixture();
});
afterEach(async () => {
  await f.close();
});

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('read_file', () => {
  it('reads a whole file, a range, and past the end', async () => {
    put(f.ws, { 'n.txt': numbered(10), 'last.txt': 'a\nb', 'empty.txt': '' });
    expect(await f.ok('read_file', { path: 'n.txt' })).toEqual({
      path: 'n.txt',
      workspace_id: f.wsId,
      bytes: 71,
      start_line: 1,
      end_line: 10,
      total_lines: 10,
      content: numbered(10),
      truncated: false,
      line_cut: false,
      next_offset_line: null,
    });
    expect(await f.ok('read_file', { path: 'n.txt', offset_line: 3, limit_lines: 2 })).toMatchObject({ start_line: 3, end_line: 4, content: 'line 3\nline 4\n', next_offset_line: 5, truncated: false });
    expect(await f.ok('read_file', { path: 'last.txt', offset_line: 2 })).toMatchObject({ content: 'b', end_line: 2, total_lines: 2, next_offset_line: null });
    expect(await f.ok('read_file', { path: 'empty.txt' })).toMatchObject({ content: '', total_lines: 0, end_line: 0 });
    const past = await f.ok('read_file', { path: 'n.txt', offset_line: 50 });
    expect(past).toMatchObject({ content: '', total_lines: 10, next_offset_line: null, note: expect.stringContaining('past its end') });
  });

  it('cuts at max_bytes on a whole line and says where to read on; following the note reads the whole file', async () => {
    put(f.ws, { 'n.txt': numbered(1000) });
    const first = await f.ok('read_file', { path: 'n.txt', max_bytes: 100 });
    // Lines 1-9 take 7 bytes, the next ones 8: 13 lines are 95 bytes, 14 would be 103.
    expect(first).toMatchObject({ start_line: 1, end_line: 13, total_lines: 1000, truncated: true, next_offset_line: 14 });
    expect(first.note).toContain('offset_line 14');
    let text = first.content;
    for (let next = first.next_offset_line; next; ) {
      const r = await f.ok('read_file', { path: 'n.txt', offset_line: next, max_bytes: 4000 });
      text += r.content;
      next = r.next_offset_line;
    }
    expect(text).toBe(numbered(1000));
  });

  it('keeps an answer within the tool result cap, counting JSON escapes', async () => {
    const g = filesFixture({}, '[tools]\nresult_max_bytes = 4096\n');
    try {
      put(g.ws, { 'q.txt': '"\\"\\"\\"\n'.repeat(2000) });
      const out = await g.call('read_file', { path: 'q.txt' });
      expect(out.ok).toBe(true);
      expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(4096);
      expect(out.data).toMatchObject({ truncated: true, start_line: 1 });
    } finally {
      await g.close();
    }
  });

  it('shows the start of a line longer than the budget, cut at a character boundary', async () => {
    put(f.ws, { 'long.txt': `${'é'.repeat(5000)}\nnext\n` });
    const r = await f.ok('read_file', { path: 'long.txt', max_bytes: 1001 });
    expect(r).toMatchObject({ line_cut: true, truncated: true, start_line: 1, end_line: 1, next_offset_line: 2 });
    expect(r.content).toBe('é'.repeat(500));
    expect(r.note).toContain('longer than one answer');
  });

  it('refuses binary files with their size and media type', async () => {
    fs.writeFileSync(path.join(f.ws, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    fs.writeFileSync(path.join(f.ws, 'latin1.txt'), Buffer.from('caf\xe9 au lait\n', 'latin1'));
    fs.writeFileSync(path.join(f.ws, 'split.txt'), Buffer.concat([Buffer.from('a'.repeat(8191)), Buffer.from('é\n')]));
    expect(await f.refused('read_file', { path: 'img.png' }, 'binary_file')).toMatchObject({ bytes: 12, mime: 'image/png' });
    expect(await f.refused('read_file', { path: 'latin1.txt' }, 'binary_file')).toMatchObject({ mime: 'application/octet-stream' });
    // A character cut by the sniffed block's end is still text.
    expect((await f.ok('read_file', { path: 'split.txt' })).total_lines).toBe(1);
    await f.refused('edit_file', { path: 'latin1.txt', old_text: 'au', new_text: 'o' }, 'binary_file');
  });
});

describe('write_file', () => {
  it('creates a file (directories only with create_dirs) and records the change', async () => {
    await f.refused('write_file', { path: 'deep/new.txt', content: 'x\n' }, 'file_not_found');
    const out = await f.call('write_file', { path: 'deep/new.txt', content: 'hello\n', create_dirs: true });
    expect(out.ok, out.content).toBe(true);
    expect(out.data).toEqual({ changed: true, files: [{ path: 'deep/new.txt', workspace_id: f.wsId, op: 'create', bytes_before: 0, bytes_after: 6, lines_added: 1, lines_removed: 0 }] });
    expect(out.artifacts).toEqual([{ kind: 'diff', name: 'deep/new.txt', media_type: 'text/x-diff', content: '--- /dev/null\n+++ b/deep/new.txt\n@@ -0,0 +1,1 @@\n+hello\n' }]);
    expect(f.changes()).toEqual([
      expect.objectContaining({ path: 'deep/new.txt', op: 'create', bytes_before: 0, bytes_after: 6, tool: 'write_file', tool_execution_id: 'tex_X', turn_id: 'turn_T', diff_truncated: false }),
    ]);
  });

  it('overwrites atomically, keeps the mode, leaves no temporary file, and skips a write that changes nothing', async () => {
    put(f.ws, { 'run.sh': '#!/bin/sh\necho a\n' });
    fs.chmodSync(path.join(f.ws, 'run.sh'), 0o741);
    const inode = fs.statSync(path.join(f.ws, 'run.sh')).ino;
    await f.ok('write_file', { path: 'run.sh', content: '#!/bin/sh\necho b\n' });
    const st = fs.statSync(path.join(f.ws, 'run.sh'));
    expect(st.mode & 0o777).toBe(0o741);
    expect(st.ino).not.toBe(inode); // renamed into place, not written in place
    expect(fs.readdirSync(f.ws)).toEqual(['run.sh']);
    expect(await f.ok('write_file', { path: 'run.sh', content: '#!/bin/sh\necho b\n' })).toEqual({ changed: false, files: [] });
    expect(f.changes()).toHaveLength(1);
  });

  it('caps the diff in the log at max_diff_bytes and the artifact at four times that', async () => {
    const g = filesFixture({}, '[tools.files]\nmax_diff_bytes = 256\n');
    try {
      const out = await g.call('write_file', { path: 'big.txt', content: numbered(200) });
      const [event] = g.changes();
      expect(event.diff_truncated).toBe(true);
      expect(Buffer.byteLength(event.diff)).toBeLessThanOrEqual(256);
      expect(event.diff).toMatch(/… \[diff cut at 256 of \d+ bytes\]\n$/);
      expect(Buffer.byteLength(out.artifacts![0]!.content)).toBeLessThanOrEqual(1024);
      expect(out.artifacts![0]!.content.length).toBeGreaterThan(event.diff.length);
    } finally {
      await g.close();
    }
  });
});

describe('edit_file', () => {
  beforeEach(() => {
    put(f.ws, { 'a.py': 'x = 1\ny = 1\nz = 2\n', 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
  });

  it('replaces exactly one occurrence', async () => {
    expect(await f.ok('edit_file', { path: 'a.py', old_text: 'z = 2', new_text: 'z = 3' })).toMatchObject({ replacements: 1, files: [{ op: 'update', lines_added: 1, lines_removed: 1 }] });
    expect(fs.readFileSync(path.join(f.ws, 'a.py'), 'utf8')).toBe('x = 1\ny = 1\nz = 3\n');
    expect(f.changes()[0]).toMatchObject({ tool: 'edit_file', op: 'update', diff: expect.stringContaining('-z = 2\n+z = 3\n') });
  });

  it('refuses an ambiguous or missing old_text and changes nothing; replace_all replaces every one', async () => {
    const before = tree(f.ws);
    expect(await f.refused('edit_file', { path: 'a.py', old_text: '= 1', new_text: '= 5' }, 'edit_not_unique')).toMatchObject({ count: 2, lines: [1, 2] });
    await f.refused('edit_file', { path: 'a.py', old_text: 'w = 0', new_text: 'w = 1' }, 'edit_not_found');
    await f.refused('edit_file', { path: 'a.py', old_text: '', new_text: 'x' }, 'invalid_arguments');
    await f.refused('edit_file', { path: 'missing.py', old_text: 'a', new_text: 'b' }, 'file_not_found');
    expect(tree(f.ws)).toEqual(before);
    expect(f.changes()).toEqual([]);
    expect(await f.ok('edit_file', { path: 'a.py', old_text: '= 1', new_text: '= $&5', replace_all: true })).toMatchObject({ replacements: 2 });
    expect(fs.readFileSync(path.join(f.ws, 'a.py'), 'utf8')).toBe('x = $&5\ny = $&5\nz = 2\n');
  });

  it('runs concurrent changes of one file one after the other, so neither is lost', async () => {
    const outs = await Promise.all([
      f.call('edit_file', { path: 'a.py', old_text: 'x = 1', new_text: 'x = 10' }),
      f.call('edit_file', { path: 'a.py', old_text: 'z = 2', new_text: 'z = 20' }),
      f.call('apply_patch', { patch: '*** Begin Patch\n*** Update File: a.py\n@@\n-y = 1\n+y = 10\n*** End Patch' }),
    ]);
    expect(outs.map((o) => o.ok)).toEqual([true, true, true]);
    expect(fs.readFileSync(path.join(f.ws, 'a.py'), 'utf8')).toBe('x = 10\ny = 10\nz = 20\n');
    expect(f.changes()).toHaveLength(3);
  });

  it('matches lines copied with bare newlines in a CRLF file, and keeps its CRLF', async () => {
    await f.ok('edit_file', { path: 'win.txt', old_text: 'one\ntwo', new_text: 'one\n2' });
    expect(fs.readFileSync(path.join(f.ws, 'win.txt'), 'utf8')).toBe('one\r\n2\r\nthree\r\n');
  });
});
