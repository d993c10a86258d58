/**
 * `[tools]`: what the built-in tools may touch and how much they may return
 * (docs/tools.md). The file tools stay inside the agent's workspaces; `web_fetch` reaches only the
 * hosts `[tools.web]` allows, never a private address unless the host is listed in
 * `private_hosts`; `attach_workspace` attaches only directories under `workspace_roots`.
 */
import path from 'node:path';
import { z } from 'zod';

const int = (min: number, max: number, dflt: number) => z.number().int().min(min).max(max).default(dflt);

/** A host pattern: a name (`example.com`), a wildcard subdomain (`*.example.com`), an IP literal, or `*`. */
const HOST_PATTERN = /^(\*|(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?|\[?[0-9A-Fa-f:.]+\]?)$/;
const Host = z.string().regex(HOST_PATTERN, 'a host name, *.domain, an IP address, or "*"');

export const ToolsConfigSchema = z
  .strictObject({
    // Directories under which a model may attach a workspace with attach_workspace (absolute
    // paths). Empty: only the operator attaches (the model may still switch among attached ones).
    workspace_roots: z.array(z.string().refine((d) => path.isAbsolute(d), 'must be an absolute path')).default([]),
    // A tool result longer than this reaches the model as its head and tail with a marker; the
    // whole result stays an artifact of the tool execution, which read_tool_artifact reads.
    result_max_bytes: int(1024, 16 * 1024 * 1024, 32 * 1024),
    files: z
      .strictObject({
        // read_file returns at most this many bytes per call (the model asks for the next range).
        max_read_bytes: int(1024, 16 * 1024 * 1024, 256 * 1024),
        // Files larger than this are not written, edited or patched (nor read whole).
        max_file_bytes: int(1024, 1024 * 1024 * 1024, 8 * 1024 * 1024),
        // The unified diff a mutation records in the log (the artifact keeps it up to 4x this).
        max_diff_bytes: int(256, 16 * 1024 * 1024, 64 * 1024),
        // list_files / search_files answer at most this many entries / matches.
        max_entries: int(1, 100_000, 2000),
        max_matches: int(1, 100_000, 500),
      })
      .prefault({}),
    web: z
      .strictObject({
        // Hosts web_fetch may reach ("*" = any public host).
        allowed_hosts: z.array(Host).default(['*']),
        // Hosts allowed to resolve to a loopback, private or link-local address (a server on
        // this machine or the LAN). Empty: every such address is refused. Cloud metadata
        // addresses are refused even for these hosts (docs/tools.md#web-fetch).
        private_hosts: z.array(Host).default([]),
        max_bytes: int(1024, 64 * 1024 * 1024, 2 * 1024 * 1024),
        timeout_ms: int(100, 600_000, 20_000),
        max_redirects: int(0, 20, 5),
      })
      .prefault({}),
  })
  .prefault({});

export type ToolsConfig = z.infer<typeof ToolsConfigSchema>;
