/**
 * Every error svc answers with is defined here, once, with its HTTP status and its code
 * (docs/control-plane-api.md#errors). Codes are product: add new ones, never rename or reuse one.
 * The one HTTP error handler (src/http/error-handler.ts) turns an AppError into the envelope
 * `{ok:false, error, code, ...extra}`; anything that is not an AppError is a bug and becomes a 500.
 */
export type ErrorExtra = Record<string, unknown>;

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: ErrorExtra;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, extra: ErrorExtra = {}, headers: Record<string, string> = {}) {
    // An AppError is an answer, not a bug: it carries no stack trace. Capturing one through
    // Fastify's call frames was the largest item of a refused request's CPU (~10 µs of ~45).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
    this.name = 'AppError';
  }
}

export interface Issue {
  path: string;
  message: string;
}

const notFound = (code: string, what: string) => (id: string, extra: ErrorExtra = {}) =>
  new AppError(404, code, `${what} ${JSON.stringify(id)} not found`, extra);

export const errors = {
  // --- request shape -------------------------------------------------------------------------
  invalidJson: (detail: string) => new AppError(400, 'invalid_json', `request body is not valid JSON: ${detail}`),
  invalidRequest: (issues: Issue[], hint?: string) =>
    new AppError(400, 'invalid_request', describeIssues(issues), hint ? { issues, hint } : { issues }),
  payloadTooLarge: (limit: number) =>
    new AppError(413, 'payload_too_large', `request body exceeds the limit of ${limit} bytes`, { limit }),
  unsupportedMediaType: (type: string | undefined) =>
    new AppError(415, 'unsupported_media_type', type ? `content type ${JSON.stringify(type)} is not supported by this route` : 'a request body needs a Content-Type this route reads (application/json)'),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'route_not_found', `no route for ${method} ${url}`),
  /** A parsed body over the nesting limit or with a prototype key (src/core/json-guard.ts). */
  jsonRejected: (path: string, message: string) => new AppError(400, 'invalid_request', message, { issues: [{ path, message }] }),
  malformedUrl: () => new AppError(400, 'invalid_request', 'the request URL is malformed'),
  notHttp: () => new AppError(400, 'invalid_request', 'the request is not valid HTTP'),
  uriTooLong: () => new AppError(414, 'uri_too_long', 'a path segment of the request URL is too long'),
  headersTooLarge: () => new AppError(431, 'headers_too_large', 'the request headers are too large'),
  requestTimeout: () => new AppError(408, 'request_timeout', 'the request did not arrive in time'),

  // --- auth (docs/security.md#authentication) -------------------------------------------------
  unauthorized: () =>
    new AppError(401, 'auth_required', 'a valid control token is required: send Authorization: Bearer <token>', {}, {
      'www-authenticate': 'Bearer',
    }),
  hostNotAllowed: (host: string) =>
    new AppError(403, 'host_not_allowed', `Host ${JSON.stringify(host)} is not allowed; add it to auth.allowed_hosts to accept it`),
  peerUserRejected: (reason: string) =>
    new AppError(403, 'peer_user_rejected', `only the user running svc may use this interface without a credential: ${reason}`),
  crossOriginRejected: (origin: string) =>
    new AppError(403, 'cross_origin_rejected', `Origin ${JSON.stringify(origin)} is not allowed; add it to auth.allowed_origins to accept it`),
  crossSiteRejected: (site: string) =>
    new AppError(
      403,
      'cross_origin_rejected',
      `a web page of another site sent this request (Sec-Fetch-Site: ${site}); pages of origins in auth.allowed_origins are served when they send an Origin (fetch, EventSource)`,
    ),

  // --- provenance (docs/control-plane-api.md#ingress-and-provenance) --------------------------
  provenanceOverrideRejected: (field: string) =>
    new AppError(403, 'provenance_override_rejected', `callers may not set ${field}: provenance is derived by the server`),
  priorityNotAllowed: (priority: string) =>
    new AppError(403, 'priority_not_allowed', `priority ${JSON.stringify(priority)} is not allowed on this route`),
  kindNotAllowed: (kind: string) =>
    new AppError(403, 'kind_not_allowed', `message kind ${JSON.stringify(kind)} is not allowed on this route`),
  originNotAllowed: (kind: string) =>
    new AppError(403, 'origin_not_allowed', `origin kind ${JSON.stringify(kind)} is not allowed on this route; use channel or webhook`),
  kindOriginMismatch: (kind: string, origin: string) =>
    new AppError(400, 'kind_origin_mismatch', `message kind ${JSON.stringify(kind)} contradicts origin kind ${JSON.stringify(origin)}`),
  emptyMessage: () => new AppError(400, 'empty_message', 'the message has no content: send text, json or body'),
  overloaded: (what: string, retryAfterSec = 1) =>
    new AppError(429, 'overloaded', what, {}, { 'retry-after': String(retryAfterSec) }),

  // --- agents (docs/control-plane-api.md#agents) ----------------------------------------------
  invalidAgentId: (id: string) =>
    new AppError(400, 'invalid_agent_id', `agent id ${JSON.stringify(id)} must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`),
  agentNotFound: (id: string) => new AppError(404, 'agent_not_found', `agent ${JSON.stringify(id)} not found`, { agent_id: id }),
  deletionIncomplete: (id: string, jobId: string | null) =>
    new AppError(409, 'deletion_incomplete', `agent ${JSON.stringify(id)} has a deletion that is still in flight or failed`, {
      agent_id: id,
      job_id: jobId,
    }),
  defaultAgentProtected: (id: string) =>
    new AppError(409, 'default_agent_protected', `agent ${JSON.stringify(id)} is the default agent and cannot be deleted`, { agent_id: id }),
  agentPrivate: (id: string) =>
    new AppError(403, 'agent_private', `agent ${JSON.stringify(id)} is a private child agent: it takes messages only from its supervisor, the operator and the runtime`, { agent_id: id }),
  agentDeleting: (id: string) =>
    new AppError(409, 'agent_deleting', `agent ${JSON.stringify(id)} is being deleted`, { agent_id: id }),
  privateChildrenExist: (id: string, children: string[]) =>
    new AppError(409, 'private_children_exist', `agent ${JSON.stringify(id)} has private subagents; pass cascade_private_children=true to delete them too`, {
      agent_id: id,
      children,
    }),
  templateNotFound: (name: string) =>
    new AppError(400, 'template_not_found', `agent template ${JSON.stringify(name)} not found`),
  memorySourceNotFound: (ref: string) =>
    new AppError(404, 'memory_source_not_found', `no search source ${JSON.stringify(ref.slice(0, 200))}: source_ref names a search result (event:<agent_id>:<event_seq>)`),
  /** The same condition on a read of the template itself (GET /api/templates/catalog/:id): 404. */
  templateNotInCatalog: (name: string) =>
    new AppError(404, 'template_not_found', `agent template ${JSON.stringify(name)} not found`),
  parentNotFound: (id: string) => new AppError(400, 'parent_not_found', `parent agent ${JSON.stringify(id)} not found`),
  emptyName: () => new AppError(400, 'empty_name', 'name must not be empty'),
  agentNotRenamable: (id: string) =>
    new AppError(409, 'agent_not_renamable', `agent ${JSON.stringify(id)} cannot be renamed: only public agents that own themselves (no parent) can`, { agent_id: id }),

  // --- events (docs/control-plane-api.md#event-log) -------------------------------------------
  cursorNotFound: (agentId: string, afterSeq: number, head: number, oldest: number) =>
    new AppError(404, 'cursor_not_found', `after_seq ${afterSeq} is outside the replay window ${Math.max(0, oldest - 1)}..${head}`, {
      agent_id: agentId,
      after_seq: afterSeq,
      event_seq: head,
    }),

  // --- jobs ----------------------------------------------------------------------------------
  jobNotFound: notFound('job_not_found', 'job'),

  // --- work items (docs/control-plane-api.md#work-items) --------------------------------------
  workItemNotFound: notFound('work_item_not_found', 'work item'),
  emptyObjective: () => new AppError(400, 'empty_objective', 'objective must not be empty'),
  emptyUpdate: () =>
    new AppError(400, 'empty_update', 'the update changes nothing: send at least one of objective, plan_status, todo_list, blocked_by, recheck_after, plan_artifact'),
  recheckRequiresBlocker: () =>
    new AppError(400, 'recheck_requires_blocker', 'recheck_after needs a non-empty blocked_by (already set, or set in the same update)'),
  workItemNotOpen: (id: string, state: string) =>
    new AppError(409, 'work_item_not_open', `work item ${JSON.stringify(id)} is ${state}, not open`, { work_item_id: id, state }),
  emptyReport: () => new AppError(400, 'empty_report', 'report_text must not be empty'),
  /** A plan file (runtime/workspaces/plan-artifacts.ts) that does not exist where it was looked for. */
  planFileNotFound: (p: string) =>
    new AppError(400, 'plan_file_not_found', `plan file ${JSON.stringify(p)} does not exist`, { path: p }),
  /** A plan path the daemon refuses: it never reads or writes outside the agent's workspaces. */
  planFileNotAllowed: (p: string, reason: 'outside_workspace' | 'not_a_file' | 'invalid' | 'unreadable' | 'changed', detail: string) =>
    new AppError(400, 'plan_file_not_allowed', `plan file ${JSON.stringify(p)} is not allowed: ${detail}`, { path: p, reason }),
  planTooLarge: (what: 'file' | 'text', bytes: number, limit: number) =>
    new AppError(400, 'plan_too_large', `the plan ${what} has ${bytes} bytes; the limit is ${limit}`, { bytes, limit }),

  // --- timers --------------------------------------------------------------------------------
  timerNotFound: notFound('timer_not_found', 'timer'),
  timerCompleted: (id: string) =>
    new AppError(400, 'timer_completed', `timer ${JSON.stringify(id)} has already completed (a one-shot timer fires once) and cannot be cancelled`, { timer_id: id }),
  timerLimitReached: (agentId: string, limit: number) =>
    new AppError(409, 'timer_limit_reached', `agent ${JSON.stringify(agentId)} already has ${limit} active timers (timers.max_active_per_agent); cancel one first`, {
      agent_id: agentId,
      limit,
    }),

  // --- tasks ---------------------------------------------------------------------------------
  taskNotFound: notFound('task_not_found', 'task'),
  workdirNotFound: (workdir: string) =>
    new AppError(400, 'workdir_not_found', `workdir ${JSON.stringify(workdir)} does not exist or is not a directory`, { workdir }),
  /** A sandboxed command's workdir outside its workspace, in a tree the sandbox hides (runtime/tasks/processes/sandbox.ts). */
  workdirNotAllowed: (workdir: string, reason: string) => new AppError(400, 'workdir_not_allowed', `workdir ${JSON.stringify(workdir)} is not allowed: ${reason}`, { workdir }),
  shellNotFound: (shell: string) =>
    new AppError(400, 'shell_not_found', `shell ${JSON.stringify(shell)} was not found or is not executable`, { shell }),
  childAgentExists: (agentId: string) =>
    new AppError(409, 'child_agent_exists', `an agent ${JSON.stringify(agentId)} already exists; choose another child_agent_id or omit it`, { agent_id: agentId }),
  childLimitReached: (agentId: string, limit: number, key: string) =>
    new AppError(409, 'child_limit_reached', `${limit} child agents are already active (${key}); wait for one to finish or stop it`, {
      agent_id: agentId,
      limit,
      config_key: key,
    }),
  childDepthExceeded: (agentId: string, limit: number) =>
    new AppError(409, 'child_depth_exceeded', `agent ${JSON.stringify(agentId)} is ${limit} levels below a root agent (tasks.max_child_depth); it may not delegate further`, {
      agent_id: agentId,
      limit,
    }),
  worktreeUnavailable: (reason: string) => new AppError(400, 'worktree_unavailable', `workspace_mode worktree needs a git repository: ${reason}`),

  // --- triggers and callbacks ----------------------------------------------------------------
  triggerNotFound: () => new AppError(404, 'trigger_not_found', 'no active trigger for this token'),
  /** By id (control routes); the token form above never echoes the token. */
  triggerIdNotFound: notFound('trigger_not_found', 'trigger'),
  deliveryModeMismatch: (route: string, mode: string) =>
    new AppError(403, 'delivery_mode_mismatch', `this trigger delivers by ${mode}; use /api/callbacks/${mode}/ instead of /api/callbacks/${route}/`, {
      delivery_mode: mode,
    }),

  // --- operator bindings ---------------------------------------------------------------------
  bindingNotFound: notFound('binding_not_found', 'binding'),
  bindingMismatch: (bindingId: string, reason: string) =>
    new AppError(403, 'binding_mismatch', `binding ${JSON.stringify(bindingId)} does not admit this message: ${reason}`, { binding_id: bindingId }),
  bindingConflict: (bindingId: string) =>
    new AppError(409, 'binding_conflict', `binding ${JSON.stringify(bindingId)} belongs to another agent`, { binding_id: bindingId }),

  // --- workspaces ----------------------------------------------------------------------------
  workspaceNotFound: notFound('workspace_not_found', 'workspace'),
  invalidWorkspacePath: (p: string, reason: 'not_absolute' | 'not_found' | 'not_directory' | 'invalid') =>
    new AppError(400, 'invalid_workspace_path', {
      not_absolute: `workspace path ${JSON.stringify(p)} must be absolute`,
      not_found: `workspace path ${JSON.stringify(p)} does not exist`,
      not_directory: `workspace path ${JSON.stringify(p)} is not a directory`,
      invalid: `workspace path ${JSON.stringify(p)} is not a valid path`,
    }[reason], { path: p, reason }),
  workspaceActive: (id: string) =>
    new AppError(409, 'workspace_active', `workspace ${JSON.stringify(id)} is the active workspace; exit it (workspace/exit) before detaching`, { workspace_id: id }),
  agentHomeProtected: () =>
    new AppError(409, 'agent_home_protected', 'the agent home workspace (agent_home) cannot be detached', { workspace_id: 'agent_home' }),
  workspaceLimitReached: (limit: number) =>
    new AppError(409, 'workspace_limit_reached', `the agent already has ${limit} attached workspaces; detach one first`, { limit }),
  desktopDenied: (code: string, message: string) => new AppError(403, code, message),
  /** attach_workspace: the directory is outside every root the operator allowed (`tools.workspace_roots`). */
  workspaceNotAllowed: (p: string, detail: string) =>
    new AppError(403, 'workspace_not_allowed', `workspace path ${JSON.stringify(p)} cannot be attached: ${detail}`, { path: p }),

  // --- skills (docs/control-plane-api.md#skills) ----------------------------------------------
  skillNotFound: notFound('skill_not_found', 'skill'),
  skillFileNotAllowed: (name: string, file: string, reason: string) =>
    new AppError(400, 'skill_file_not_allowed', `cannot open ${JSON.stringify(file)} of skill ${JSON.stringify(name)}: ${reason}`, { name, file }),
  invalidSkillSource: (source: string, reason: string) =>
    new AppError(400, 'invalid_skill_source', reason, { source }),
  /** A file the daemon will not take from a skill source: `file` is relative to the source. */
  skillSourceUnsafe: (
    file: string,
    reason: 'outside_source' | 'symlinked_manifest' | 'symlink_outside' | 'symlink_loop' | 'broken_symlink' | 'special_file' | 'changed',
    detail: string,
  ) => new AppError(400, 'skill_source_unsafe', `skill source refused: ${JSON.stringify(file)} ${detail}`, { file, reason }),
  skillTooLarge: (file: string, limit: 'max_bytes' | 'max_files', detail: string) =>
    new AppError(400, 'skill_too_large', `skill source refused: ${JSON.stringify(file)} ${detail}`, { file, limit }),

  // --- credential profiles -------------------------------------------------------------------
  credentialNotFound: notFound('credential_not_found', 'credential profile'),
  credentialStoreUnusable: (reason: string) => new AppError(409, 'credential_store_unusable', reason),

  // --- traces --------------------------------------------------------------------------------
  traceNotFound: (traceId: string) =>
    new AppError(404, 'trace_not_found', `trace ${JSON.stringify(traceId)} not found (neither in the recent ring nor in the diagnostics store)`, { trace_id: traceId }),

  // --- run loop: turns, control, wake, briefs ---------------------------------------------------
  emptyReason: () => new AppError(400, 'empty_reason', 'wake needs a non-empty reason'),
  unknownAction: (action: string) =>
    new AppError(400, 'unknown_action', `unknown control action ${JSON.stringify(action)}; use stop or start`, { action }),
  unknownAbortMode: (mode: string) =>
    new AppError(400, 'unknown_abort_mode', `unknown abort mode ${JSON.stringify(mode)}; use stop_after_abort (alias pause_after_abort)`, { mode }),
  noCurrentRun: (agentId: string) =>
    new AppError(409, 'no_current_run', `agent ${JSON.stringify(agentId)} has no current run to abort`, { agent_id: agentId }),
  turnNotFound: notFound('turn_not_found', 'turn'),
  emptyPrompt: () => new AppError(400, 'empty_prompt', 'the prompt text must not be empty'),

  // --- models and providers ------------------------------------------------------------------
  unknownModel: (model: string, detail: string | null) =>
    new AppError(400, 'unknown_model', `model ${JSON.stringify(model)} is not in the models catalog${detail ? ` (${detail})` : ''}`, {
      model,
      hint: 'GET /api/models lists the known models (POST /api/models/refresh discovers more); a model ref is provider/model, e.g. builtin/echo',
    }),

  // --- brief delivery and tools --------------------------------------------------------------
  // Tool outcomes are read by the model, not sent over HTTP; the status only classifies them.
  invalidToolArguments: (tool: string, issues: Issue[]) =>
    new AppError(400, 'invalid_arguments', `invalid arguments for ${tool}: ${describeIssues(issues).replace(/^invalid request: /, '')}`, { issues }),
  agentInTurn: (agentId: string, turnId: string) =>
    new AppError(409, 'agent_in_turn', `agent ${JSON.stringify(agentId)} is in a turn (${turnId}); compact once it ends`, { agent_id: agentId, turn_id: turnId }),
  toolAborted: (tool: string) => new AppError(409, 'aborted', `${tool} did not run: the run was aborted`),
  toolFailed: (tool: string, detail: string) => new AppError(500, 'tool_failed', `${tool} failed unexpectedly: ${detail}`),
  /** wait_for on something that will never arrive (a cancelled timer). */
  nothingToWaitFor: (detail: string, extra: ErrorExtra = {}) => new AppError(409, 'nothing_to_wait_for', `nothing to wait for: ${detail}`, extra),
  /** send_message to the sending agent itself. */
  messageToSelf: (id: string) =>
    new AppError(400, 'message_to_self', `agent ${JSON.stringify(id)} cannot send a message to itself`, { agent_id: id }),

  // --- web_fetch (docs/tools.md#web-fetch) ----------------------------------------------------
  /** `reason`: invalid_url, scheme, credentials, host_not_allowed, private_address, too_many_redirects. */
  urlRefused: (url: string, reason: string, detail: string, extra: ErrorExtra = {}) =>
    new AppError(403, 'url_refused', `${url} was not fetched: ${detail}`, { reason, ...extra }),
  fetchFailed: (url: string, detail: string) => new AppError(502, 'fetch_failed', `fetching ${url} failed: ${detail}`),
  /** `converting`: the page arrived, but making it readable ran out of the same time. */
  fetchTimeout: (url: string, timeoutMs: number, converting = false) =>
    new AppError(
      504,
      'fetch_timeout',
      converting
        ? `${url} arrived, but making it readable did not finish within ${timeoutMs} ms (tools.web.timeout_ms covers the whole call); format "raw" returns the HTML as it is`
        : `fetching ${url} took longer than ${timeoutMs} ms (tools.web.timeout_ms, redirects and body included)`,
      { timeout_ms: timeoutMs },
    ),
  unsupportedContent: (url: string, contentType: string, bytes: number | null) =>
    new AppError(
      415,
      'unsupported_content',
      `${url} is ${contentType}${bytes === null ? '' : ` (${bytes} bytes)`}: web_fetch returns HTML (as markdown or text), text, JSON and XML only`,
      { content_type: contentType, bytes },
    ),

  // --- workspace file tools (docs/tools.md#files) --------------------------------------------
  pathInvalid: (p: string, reason: string) => new AppError(400, 'path_invalid', `path ${JSON.stringify(p)} is not valid: ${reason}`, { path: p }),
  /** The real path (every symlink followed) lies in none of the agent's workspaces. */
  pathOutsideWorkspace: (p: string, detail: string) =>
    new AppError(403, 'path_outside_workspace', `path ${JSON.stringify(p)} is outside the agent's workspaces: ${detail}`, { path: p }),
  pathProtected: (p: string, reason: string) => new AppError(403, 'path_protected', `path ${JSON.stringify(p)} may not be changed: ${reason}`, { path: p }),
  fileNotFound: (p: string, detail = 'it does not exist') => new AppError(404, 'file_not_found', `${JSON.stringify(p)}: ${detail}`, { path: p }),
  /** `kind` as fileKind (core/private-file.ts) names it: "a fifo", "a directory", … */
  notARegularFile: (p: string, kind: string) =>
    new AppError(400, 'not_a_regular_file', `${JSON.stringify(p)} is ${kind}, not a regular file`, { path: p, kind: kind.replace(/^an? /, '') }),
  fileTooLarge: (p: string, bytes: number, limit: number, key: string) =>
    new AppError(413, 'file_too_large', `${JSON.stringify(p)} would have ${bytes} bytes; the limit is ${limit} (${key})`, { path: p, bytes, limit }),
  binaryFile: (p: string, bytes: number, mime: string) =>
    new AppError(415, 'binary_file', `${JSON.stringify(p)} is binary (${mime}, ${bytes} bytes): it is not read or edited as text`, { path: p, bytes, mime }),
  editNotFound: (p: string) =>
    new AppError(409, 'edit_not_found', `old_text does not occur in ${JSON.stringify(p)}: read the file again and copy the text exactly (whitespace included)`, { path: p }),
  editNotUnique: (p: string, count: number, lines: number[]) =>
    new AppError(409, 'edit_not_unique', `old_text occurs ${count} times in ${JSON.stringify(p)} (lines ${lines.join(', ')}): add surrounding lines to make it unique, or pass replace_all`, { path: p, count, lines }),
  patchInvalid: (line: number, detail: string) =>
    new AppError(400, 'patch_invalid', `the patch is not valid at line ${line}: ${detail}; nothing was changed`, { line }),
  patchDoesNotApply: (file: string, reason: string, detail: string, extra: ErrorExtra = {}) =>
    new AppError(409, 'patch_does_not_apply', `the patch does not apply to ${JSON.stringify(file)}: ${detail}; nothing was changed`, { file, reason, ...extra }),
  fileUnreadable: (p: string, errno: string) => new AppError(403, 'file_unreadable', `${JSON.stringify(p)} cannot be read (${errno})`, { path: p, errno }),
  fileWriteFailed: (p: string, errno: string, detail: string, extra: ErrorExtra = {}) =>
    new AppError(409, 'write_failed', `writing ${JSON.stringify(p)} failed (${errno}): ${detail}`, { path: p, errno, ...extra }),
  invalidPattern: (pattern: string, detail: string) =>
    new AppError(400, 'invalid_pattern', `${JSON.stringify(pattern)} is not a valid regular expression: ${detail}`, { pattern }),

  // --- MCP servers (docs/tools.md#mcp-servers); the call errors are tool outcomes too ---------
  mcpServerNotFound: notFound('mcp_server_not_found', 'MCP server'),
  mcpServerDisabled: (server: string) =>
    new AppError(409, 'mcp_server_disabled', `MCP server ${JSON.stringify(server)} is disabled (enabled = false in [mcp.servers.${server}])`, { server }),
  mcpTimeout: (tool: string, timeoutMs: number) =>
    new AppError(504, 'mcp_timeout', `${tool}: the MCP server did not answer within ${timeoutMs} ms (call_timeout_ms)`, { timeout_ms: timeoutMs }),
  mcpServerUnavailable: (tool: string, server: string, detail: string) =>
    new AppError(503, 'mcp_server_unavailable', `${tool}: MCP server ${JSON.stringify(server)} is unavailable: ${detail}`, { server }),
  mcpToolError: (tool: string, text: string) => new AppError(502, 'mcp_tool_error', `${tool} reported an error: ${text}`),
  mcpCallRefused: (tool: string, detail: string) => new AppError(502, 'mcp_error', `${tool}: the MCP server refused the call: ${detail}`),

  // --- tool policy and approvals (docs/security.md#tool-policy) ------------------------------
  invalidPolicy: (issues: Issue[]) => new AppError(400, 'invalid_policy', `invalid policy: ${describeIssues(issues).replace(/^invalid request: /, '')}`, { issues }),
  approvalNotFound: notFound('approval_not_found', 'approval'),
  taskPeerRejected: (taskId: string) =>
    new AppError(403, 'task_peer_rejected', `the connection comes from a process of command task ${JSON.stringify(taskId)}: what a task runs is not the operator, so it needs the control token like any other client`, { task_id: taskId }),
  approvalDecided: (approvalId: string, status: string) =>
    new AppError(409, 'approval_already_decided', `approval ${JSON.stringify(approvalId)} is already ${status}`, { approval_id: approvalId, status }),
  toolDenied: (tool: string, why: string, extra: ErrorExtra) => new AppError(403, 'tool_denied', `${tool} was not run: ${why}`, extra),

  // --- tool executions (docs/tools.md#tool-executions) -----------------------------------------
  toolExecutionNotFound: notFound('tool_execution_not_found', 'tool execution'),
  toolArtifactNotFound: (executionId: string, index: number) =>
    new AppError(404, 'tool_artifact_not_found', `tool execution ${JSON.stringify(executionId)} has no artifact ${index}`, { tool_execution_id: executionId, artifact_index: index }),

  // --- inbox: hosts, sources, streams, compaction (docs/inbox-api.md#hosts-and-sources) -------
  hostNotFound: notFound('host_not_found', 'host'),
  sourceNotFound: notFound('source_not_found', 'source'),
  streamNotFound: notFound('stream_not_found', 'stream'),
  manualAppendUnsupported: (sourceId: string, sourceType: string) =>
    new AppError(409, 'manual_append_unsupported', `source ${JSON.stringify(sourceId)} is a ${sourceType} source; only local_event sources accept events through this route`, { sourceId, sourceType }),
  invalidSourceConfig: (reason: string, extra: ErrorExtra = {}) => new AppError(400, 'invalid_source_config', `invalid source config: ${reason}`, extra),
  /** `reason` never quotes the file: a load error of a non-module file would echo its lines. */
  invalidSourceModule: (modulePath: string, reason: string) =>
    new AppError(400, 'invalid_source_module', `source module ${JSON.stringify(modulePath)} cannot be loaded: ${reason}`, { modulePath }),
  sourceModuleNotAllowed: (modulePath: string, reason: string, allowedDirs: string[]) =>
    new AppError(
      400,
      'source_module_not_allowed',
      `source module ${JSON.stringify(modulePath)} is not allowed: ${reason}; modules load only from ${allowedDirs.map((d) => JSON.stringify(d)).join(', ')} (relative paths resolve in the first; inbox.module_dirs adds directories)`,
      { modulePath, allowedDirs },
    ),
  /** spec/inbox.md Errors: the fields survive into the CLI's error output. */
  historyUnavailable: (f: { streamId: string; requested: unknown; retainedFromOffset: number; highWatermarkOffset: number }) =>
    new AppError(409, 'history_unavailable', `history of stream ${JSON.stringify(f.streamId)} before offset ${f.retainedFromOffset} is no longer available (compacted or expired)`, { ...f }),
  compactionUnsupported: (streamId: string, backend: string) =>
    new AppError(501, 'compaction_unsupported', `the ${backend} stream backend of stream ${JSON.stringify(streamId)} does not support compaction`, { streamId, backend }),
  eventTooLarge: (streamId: string, eventId: string, bytes: number, limit: number) =>
    new AppError(413, 'payload_too_large', `event ${JSON.stringify(eventId)} is ${bytes} bytes; the stream backend of stream ${JSON.stringify(streamId)} stores events of at most ${limit} bytes (nothing of the append was stored)`, { streamId, eventId, bytes, limit }),
  streamBackendUnavailable: (streamId: string, reason: string) =>
    new AppError(503, 'stream_backend_unavailable', `the stream backend cannot store events of stream ${JSON.stringify(streamId)} now: ${reason}`, { streamId }, { 'retry-after': '1' }),
  sourcePollFailed: (sourceId: string, reason: string) =>
    new AppError(502, 'source_poll_failed', `the module of source ${JSON.stringify(sourceId)} failed: ${reason}`, { sourceId }),
  sourceHasSubscriptions: (sourceId: string, subscriptionCount: number) =>
    new AppError(409, 'source_has_subscriptions', `source ${JSON.stringify(sourceId)} has ${subscriptionCount} subscription(s); remove them first or delete with with_subscriptions=true`, { sourceId, subscriptionCount }),
  /** GitHub webhooks (POST /api/inbox/github/webhook/:source_id): the HMAC is the caller's authentication. */
  webhookSignatureRequired: () =>
    new AppError(401, 'webhook_signature_required', 'the delivery has no X-Hub-Signature-256 header: give the GitHub webhook a secret (the one stored in the source\'s webhookSecretRef profile)'),
  webhookSignatureInvalid: () =>
    new AppError(403, 'webhook_signature_invalid', 'the X-Hub-Signature-256 of the delivery does not match its body and the source\'s webhook secret'),
  webhookRepositoryMismatch: (sourceId: string, expected: string, named: string | null) =>
    new AppError(
      400,
      'webhook_repository_mismatch',
      `the delivery is for repository ${named === null ? '(none)' : JSON.stringify(named)}, not ${JSON.stringify(expected)} of source ${JSON.stringify(sourceId)}`,
      { sourceId, repository: named },
    ),
  sourceNotManaged: (sourceId: string, sourceType: string) =>
    new AppError(409, 'source_not_managed', `source ${JSON.stringify(sourceId)} is a ${sourceType} source; pause and resume apply only to managed sources (remote_source, github)`, { sourceId, sourceType }),
  /** POST /streams/schema-preview (docs/agentinbox.md#hosts-sources-and-streams). */
  unknownSourceKind: (sourceRef: string, known: string[]) =>
    new AppError(400, 'unknown_source_kind', `unknown source kind ${JSON.stringify(sourceRef)}; svc serves ${known.join(', ')} and remote:<module name>`, { sourceRef, known }),
  /** POST /follow (docs/agentinbox.md#follow). */
  unknownFollowTemplate: (providerOrKind: string, template: string, known: string[]) =>
    new AppError(400, 'unknown_follow_template', `unknown follow template ${JSON.stringify(`${providerOrKind}.${template}`)}; svc serves ${known.join(', ')}`, { providerOrKind, template, known }),

  // --- inbox: agents, subscriptions, entries --------------------------------------------------
  /**
   * Inbox agents answer with camelCase fields (docs/inbox-api.md#routes), unlike the control
   * plane's agent_not_found.
   */
  inboxAgentNotFound: (agentId: string) => new AppError(404, 'agent_not_found', `agent ${JSON.stringify(agentId)} not found`, { agentId }),
  subscriptionNotFound: (subscriptionId: string) =>
    new AppError(404, 'subscription_not_found', `subscription ${JSON.stringify(subscriptionId)} not found`, { subscriptionId }),
  entryNotFound: (entryId: string, agentId: string) =>
    new AppError(404, 'entry_not_found', `entry ${JSON.stringify(entryId)} not found in the inbox of ${JSON.stringify(agentId)}`, { entryId, agentId }),
  invalidFilter: (reason: string, extra: ErrorExtra = {}) => new AppError(400, 'invalid_filter', `invalid filter: ${reason}`, extra),
  /** A CEL filter whose cost is known at creation to be over the limit (src/inbox/subscriptions/cel.ts). */
  filterTooCostly: (reason: string, extra: ErrorExtra = {}) => new AppError(400, 'filter_too_costly', `filter too costly: ${reason}`, extra),
  /** A terminal registration would move a binding (a terminal to another agent, or an agent to another terminal) without forceRebind. */
  registrationConflict: (message: string, extra: { agentId: string; targetId: string; boundAgentId: string }) =>
    new AppError(409, 'registration_conflict', `${message}; register again with forceRebind: true to rebind`, extra),
  /** svc types into tmux panes only (AgentInbox's iTerm2 backend drives a macOS app). */
  terminalBackendUnsupported: (backend: string) =>
    new AppError(400, 'terminal_backend_unsupported', `terminal backend ${JSON.stringify(backend)} is not supported: svc types into tmux panes only (run the client inside tmux, or register {agentId, webhook: {url}})`, { backend }),

  // --- inbox: targets, delivery, timers -------------------------------------------------------
  targetNotFound: (targetId: string, agentId: string) =>
    new AppError(404, 'target_not_found', `target ${JSON.stringify(targetId)} not found for agent ${JSON.stringify(agentId)}`, { targetId, agentId }),
  /** A runtime target names a control-plane agent that does not exist: bad input in the body, hence 400. */
  runtimeAgentNotFound: (runtimeAgentId: string) =>
    new AppError(400, 'runtime_agent_not_found', `control-plane agent ${JSON.stringify(runtimeAgentId)} not found; create it first (svc agents create)`, {
      runtimeAgentId,
    }),
  inboxTimerNotFound: (scheduleId: string) =>
    new AppError(404, 'timer_not_found', `timer ${JSON.stringify(scheduleId)} not found`, { scheduleId }),
  inboxTimerCompleted: (scheduleId: string) =>
    new AppError(409, 'timer_completed', `timer ${JSON.stringify(scheduleId)} has completed (its one occurrence fired); it can only be deleted`, { scheduleId }),
  invalidTimezone: (timezone: string) =>
    new AppError(400, 'invalid_timezone', `${JSON.stringify(timezone)} is not a valid IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`, { timezone }),
  invalidCron: (cron: string, reason: string) =>
    new AppError(400, 'invalid_cron', `invalid cron expression ${JSON.stringify(cron)}: ${reason}`, { cron }),

  // --- inbox: outbound deliveries through delivery handles (src/inbox/outbound/) ---------------
  /** A provider, surface or operation svc does not deliver to (`offered`: what the handle offers). */
  deliveryUnsupported: (message: string, extra: ErrorExtra = {}) => new AppError(400, 'delivery_unsupported', message, extra),
  /** The handle names a repository no github source of svc follows (or not the one the named source follows). */
  deliveryTargetNotFollowed: (message: string, extra: ErrorExtra = {}) => new AppError(400, 'delivery_target_not_followed', message, extra),
  deliverySourceAmbiguous: (repository: string, sourceIds: string[]) =>
    new AppError(409, 'delivery_source_ambiguous', `several github sources with different hosts or credentials follow ${JSON.stringify(repository)}: name one with sourceId`, { repository, sourceIds }),
  /** Writing to GitHub needs a token; `reason` names the profile or where one is set, never a secret. */
  deliveryCredentialMissing: (sourceId: string, reason: string) =>
    new AppError(409, 'delivery_credential_missing', `source ${JSON.stringify(sourceId)} has no credential to deliver with: ${reason}`, { sourceId }),
  /** An inbox entry whose event names no conversation svc can answer on (reply_to_entry). */
  deliveryHandleMissing: (entryId: string) =>
    new AppError(409, 'delivery_handle_missing', `entry ${JSON.stringify(entryId)} has no delivery handle: only entries of GitHub issues, pull requests and their comments can be answered`, { entryId }),
  /** The provider refused or could not be reached; nothing is retried. `upstreamStatus` is its HTTP status (null: no answer). */
  deliveryFailed: (message: string, extra: ErrorExtra) => new AppError(502, 'delivery_failed', message, extra),

  // --- runtime management --------------------------------------------------------------------
  shuttingDown: () => new AppError(503, 'shutting_down', 'the daemon is shutting down', {}, { 'retry-after': '5' }),
  /** The disk holding the database is full (src/store/faults.ts): nothing of the request was written. */
  insufficientStorage: () =>
    new AppError(507, 'insufficient_storage', 'the disk holding the database is full: nothing was written; retry once space is freed', {}, { 'retry-after': '5' }),

  // --- browser sign-in: OIDC and sessions (src/auth/) ----------------------------------------
  // Never quote a code, a state, a token or a session id: these messages reach logs and browsers.
  oidcNotConfigured: () =>
    new AppError(404, 'oidc_not_configured', 'browser sign-in is not configured: set [auth.oidc] issuer, client_id and redirect_url'),
  tokenSignInUnavailable: () =>
    new AppError(404, 'token_sign_in_unavailable', 'the daemon runs in local mode (no control token): there is nothing to sign in with, and no sign-in is needed'),
  sessionRequired: () =>
    new AppError(401, 'session_required', 'a valid session is required: sign in at /api/auth/login'),
  oidcStateInvalid: () =>
    new AppError(400, 'oidc_state_invalid', 'this sign-in is unknown, expired, already used or was started in another browser: start again at /api/auth/login'),
  oidcLoginFailed: (reason: string) =>
    new AppError(400, 'oidc_login_failed', `the identity provider's answer was refused: ${reason}`),
  oidcProviderUnavailable: () =>
    new AppError(502, 'oidc_provider_unavailable', 'the identity provider could not be reached; try again later'),
  oidcSubjectNotAllowed: () =>
    new AppError(403, 'oidc_subject_not_allowed', 'this account is not allowed to use svc: list its subject in auth.oidc.allowed_subjects or one of its groups in auth.oidc.allowed_groups'),
};

export function describeIssues(issues: Issue[]): string {
  if (issues.length === 0) return 'invalid request';
  const first = issues[0]!;
  const where = first.path ? `${first.path}: ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `invalid request: ${where}${first.message}${more}`;
}
