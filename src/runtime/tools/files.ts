/**
 * The workspace file tools (docs/tools.md#files): `read_file`, `list_files`, `search_files`
 * (class read) and `write_file`, `edit_file`, `apply_patch` (class write), each a call to
 * FileService, confined to the agent's workspaces. A change answers with the files it changed;
 * their unified diffs stay with the tool execution as artifacts, and the agent's log gets one
 * `file_changed` event per file.
 */
import { z } from 'zod';
import { FileService, MAX_PATH_CHARS, type ChangeResult } from '../files/index.js';
import { defineTool, withArtifacts } from './define.js';
import type { ToolContext, ToolDeps } from './types.js';

const Path = z.string().min(1).max(MAX_PATH_CHARS);
const PathArg = Path.describe("a path relative to the agent's active workspace, or an absolute path inside one of its workspaces");
const Glob = z.string().min(1).max(1024);
const Count = (max: number) => z.number().int().min(1).max(max);

export function fileTools(deps: ToolDeps) {
  const { logger, config } = deps;
  const files = new FileService(deps);
  const caps = config.values.tools.files;
  const who = (ctx: ToolContext, tool: string) => ({ agentId: ctx.agentId, turnId: ctx.turnId, executionId: ctx.executionId || null, tool });
  /** A change's answer: the files for the model, the diffs as artifacts. */
  const changed = (r: ChangeResult, extra: Record<string, unknown> = {}) =>
    withArtifacts({ ...extra, files: r.files, ...(r.recorded ? {} : { recorded: false }) }, r.artifacts);

  return [
    defineTool(
      {
        name: 'read_file',
        class: 'read',
        description:
          'Read a text file of your workspaces by lines. Returns content (the lines as they are, newlines included), start_line, end_line, total_lines ' +
          `and next_offset_line when there is more. At most ${caps.max_read_bytes} bytes per call (less if the tool result would not hold them): ` +
          'a cut says so (truncated, note) and names the offset_line to read on. Binary files are refused (binary_file).',
        args: z.strictObject({
          path: PathArg,
          offset_line: z.number().int().min(1).optional().describe('first line to read, 1-based (default 1)'),
          limit_lines: Count(1_000_000).optional().describe('most lines to read (default: as many as fit)'),
          max_bytes: Count(1024 * 1024 * 1024).optional().describe('most bytes of content to return (capped by the configuration)'),
        }),
        run: (ctx, a) => files.read(ctx.agentId, a),
      },
      logger,
    ),
    defineTool(
      {
        name: 'list_files',
        class: 'read',
        description:
          'List the files and directories under a directory of your workspaces (default: the active workspace), breadth first. Paths are relative ' +
          'to the workspace root; directories end with "/", symlinks with "@". .git is skipped and .gitignore is honoured (include_ignored: true lists ' +
          `ignored paths too). glob filters (e.g. "*.ts", "src/**/*.test.ts", "!dist"). At most ${caps.max_entries} entries; a cut says so.`,
        args: z.strictObject({
          path: PathArg.optional(),
          glob: Glob.optional().describe('a glob on paths relative to `path`; without "/" it matches names at any depth; "!glob" excludes'),
          max_entries: Count(100_000).optional().describe('most entries to return (capped by the configuration)'),
          include_ignored: z.boolean().optional().describe('list what .gitignore ignores too'),
        }),
        run: (ctx, a) => files.list(ctx.agentId, a),
      },
      logger,
    ),
    defineTool(
      {
        name: 'search_files',
        class: 'read',
        description:
          'Search the text files of your workspaces for a regular expression (ripgrep when installed). Returns matches {path, line, text} ' +
          '(with before/after lines when context_lines is set), paths relative to the workspace root. Skips .git, what .gitignore ignores, ' +
          `binary files and symlinks. At most ${caps.max_matches} matches, long lines cut; a cut says so.`,
        args: z.strictObject({
          pattern: z.string().min(1).max(4096).describe('a regular expression (JavaScript / Rust regex syntax)'),
          path: PathArg.optional().describe('a directory or a file to search (default: the active workspace)'),
          glob: Glob.optional().describe('only files matching this glob (e.g. "*.ts"); "!glob" excludes'),
          case_insensitive: z.boolean().optional(),
          max_matches: Count(100_000).optional().describe('most matches to return (capped by the configuration)'),
          context_lines: z.number().int().min(0).max(10).optional().describe('lines of context before and after each match (default 0)'),
          include_ignored: z.boolean().optional().describe('search what .gitignore ignores too'),
        }),
        run: (ctx, a) => files.search(ctx.agentId, a, ctx.signal),
      },
      logger,
    ),
    defineTool(
      {
        name: 'write_file',
        class: 'write',
        description:
          'Create a file or replace its whole content (atomically; an existing file keeps its mode). For a change inside a file prefer edit_file ' +
          "or apply_patch. The file's directory must exist unless create_dirs is true. Files inside .git are refused.",
        args: z.strictObject({
          path: PathArg,
          content: z.string().describe(`the whole new content (UTF-8, at most ${caps.max_file_bytes} bytes)`),
          create_dirs: z.boolean().optional().describe('create missing parent directories'),
        }),
        run: async (ctx, a) => {
          const r = await files.write(who(ctx, 'write_file'), a);
          return changed(r, { changed: r.changed });
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'edit_file',
        class: 'write',
        description:
          'Replace old_text with new_text in a file. old_text must occur exactly once (copy it from read_file, whitespace included, with enough ' +
          'surrounding lines to be unique); replace_all: true replaces every occurrence. Refused with edit_not_found or edit_not_unique otherwise.',
        args: z.strictObject({
          path: PathArg,
          old_text: z.string().min(1).describe('the exact text to replace'),
          new_text: z.string().describe('the text to put in its place'),
          replace_all: z.boolean().optional().describe('replace every occurrence'),
        }),
        run: async (ctx, a) => {
          const r = await files.edit(who(ctx, 'edit_file'), a);
          return changed(r, { replacements: r.replacements });
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'apply_patch',
        class: 'write',
        description: [
          'Change several files at once with a patch; all files change or none does. Format:',
          '*** Begin Patch',
          '*** Add File: path/new.txt',
          '+a line of the new file',
          '*** Update File: path/old.txt',
          '*** Move to: path/renamed.txt   (optional)',
          '@@ def function_or_class_line_above_the_change   (optional anchor; "@@" alone separates hunks)',
          ' a context line (3 before and after each change)',
          '-a removed line',
          '+an added line',
          '*** Delete File: path/gone.txt',
          '*** End Patch',
          'Context and removed lines must match the file (whitespace differences are tolerated) and occur once after the previous hunk.',
        ].join('\n'),
        args: z.strictObject({
          patch: z.string().min(1).describe('the whole patch, from *** Begin Patch to *** End Patch'),
        }),
        run: async (ctx, a) => changed(await files.applyPatch(who(ctx, 'apply_patch'), a.patch)),
      },
      logger,
    ),
  ];
}
