/**
 * `[mcp]`: the MCP servers whose tools models may call (docs/tools.md#mcp-servers). Each
 * `[mcp.servers.NAME]` is either a stdio server (`command`, started by svc) or a streamable-HTTP
 * server (`url`); which agents get it, the class its tools are checked under by the tool policy,
 * and how long svc waits for it. Secrets never sit in this file in clear: an HTTP server's header
 * and a stdio server's secret variables come from credential profiles (`credential_profile`,
 * `env_credentials`). Like every key, read when `svc serve` starts.
 */
import path from 'node:path';
import { z } from 'zod';
import { AGENT_ID_PATTERN, PROFILE_NAME, TOOL_CLASSES } from '../core/index.js';

/** A server name: the prefix of its tools' names as models see them (`NAME__tool`). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

const Profile = z.string().regex(PROFILE_NAME, 'a profile name: letters, digits, . _ : - (at most 64)');
const ToolClass = z.enum(TOOL_CLASSES);

const McpServer = z
  .strictObject({
    // stdio: the program svc starts (no shell), its arguments, working directory and variables.
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    cwd: z.string().refine((d) => d === '' || path.isAbsolute(d), 'must be an absolute path').default(''),
    // Plain values added to the allowlisted environment (docs/security.md#mcp-servers).
    env: z.record(z.string().regex(ENV_NAME, 'an environment variable name'), z.string()).default({}),
    // VAR = "profile": the variable's value is that credential profile's material, read at each start.
    env_credentials: z.record(z.string().regex(ENV_NAME, 'an environment variable name'), Profile).default({}),
    // streamable HTTP: the endpoint, and the header a credential profile fills (never a value here).
    url: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
    credential_profile: Profile.or(z.literal('')).default(''),
    credential_header: z.string().regex(HEADER_NAME, 'an HTTP header name').default('authorization'),
    // Who gets the server's tools: agent ids or "*", and the templates whose agents get them.
    // Neither set: every agent. Only `templates` set: only those templates' agents.
    agents: z.array(z.union([z.literal('*'), z.string().regex(AGENT_ID_PATTERN, 'an agent id or "*"')])).optional(),
    templates: z.array(z.string().min(1).max(64)).default([]),
    // The class the tool policy checks each tool under, and per-tool exceptions (the server's names).
    class: ToolClass.default('exec'),
    tool_classes: z.record(z.string().min(1).max(128), ToolClass).default({}),
    enabled: z.boolean().default(true),
    // A start (spawn or connect, initialize, list the tools) taking longer fails; a call taking longer is mcp_timeout.
    startup_timeout_ms: z.number().int().min(100).max(600_000).default(30_000),
    call_timeout_ms: z.number().int().min(100).max(3_600_000).default(60_000),
  })
  .superRefine((s, ctx) => {
    const issue = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (s.command !== undefined && s.url !== '') issue('url', 'command and url cannot both be set: a server is either stdio (command) or streamable HTTP (url)');
    else if (s.command === undefined && s.url === '') issue('command', 'a server needs command (stdio) or url (streamable HTTP)');
    if (s.url !== '') {
      for (const key of ['args', 'cwd', 'env', 'env_credentials'] as const) {
        if (Object.keys(s[key]).length > 0 || (key === 'cwd' && s.cwd !== '')) issue(key, `only for a stdio server (command): a server with url takes no ${key}`);
      }
    } else if (s.credential_profile !== '') issue('credential_profile', 'only for a streamable-HTTP server (url): a stdio server takes env_credentials');
    if (s.credential_header.toLowerCase() !== 'authorization' && s.credential_profile === '') issue('credential_header', 'needs credential_profile (the header has no value without it)');
  })
  .transform(({ agents, ...s }) => ({ ...s, agents: agents ?? (s.templates.length > 0 ? [] : ['*']) }));

export const McpConfigSchema = z
  .strictObject({
    servers: z
      .record(z.string(), McpServer)
      .superRefine((servers, ctx) => {
        // Checked here rather than as the record's key schema, so the message names the server.
        for (const name of Object.keys(servers)) {
          if (!MCP_SERVER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'a server name: letters, digits, "_" or "-" (at most 32)' });
          else if (name.includes('__')) ctx.addIssue({ code: 'custom', path: [name], message: 'a server name must not contain "__" (it separates the server from the tool in NAME__tool)' });
        }
      })
      .default({}),
  })
  .prefault({});

export type McpConfig = z.infer<typeof McpConfigSchema>;
export type McpServerConfig = McpConfig['servers'][string];
