// Generated from openapi/control-plane.json by `npm run openapi:write` (openapi-typescript); do not edit.
export interface paths {
    "/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service root: the default agent id */
        get: operations["getServiceRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/handshake": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Protocol, auth mode, capabilities and runtime facts */
        get: operations["getHandshake"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/method": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Browser authentication method: oidc when [auth.oidc] is configured (sign in at /api/auth/login), else local */
        get: operations["getAuthMethod"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API reference (Swagger UI) for the control plane and the inbox */
        get: operations["listDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of the API reference page */
        get: operations["getDocsAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/inbox.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The inbox's OpenAPI document (the inbox is served on the Unix socket) */
        get: operations["getDocsInboxJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console: agents, live event streams, conversation, tasks, timers, work items, inbox */
        get: operations["get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/assets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of the console (the bundled app and its stylesheet) */
        get: operations["getConsoleAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with the OpenID provider (browser navigation)
         * @description Redirects to the provider (authorization code flow with PKCE S256, state and nonce). Sets a short-lived cookie that binds the sign-in to this browser. 404 oidc_not_configured without [auth.oidc].
         */
        get: operations["getAuthLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect back: creates the session
         * @description Validates the answer (state once only, PKCE, ID token and nonce), admits the account if auth.oidc.allowed_subjects or allowed_groups lists it (else 403 oidc_subject_not_allowed), sets the HttpOnly session cookie and redirects to return_to.
         */
        get: operations["getAuthCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: revoke the session and clear its cookie */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current browser session's account and expiry (401 session_required without one) */
        get: operations["getAuthSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a browser in with the control token (the console's sign-in form): sets a session cookie
         * @description Bearer mode only (404 token_sign_in_unavailable in local mode, where no sign-in is needed). The token is compared in constant time and not kept: the answer sets an HttpOnly, SameSite=Strict session cookie (svc_console_<port>) that stands in for the token until it expires (auth.token_session_ttl_s) or POST /api/auth/logout. A session signed in from this machine (over loopback or another of its addresses) is bound to the signing user: from another user's connection it counts for nothing. After 10 wrong tokens in a minute from one peer (a local user, or a remote address) the route answers that peer 429 overloaded until the minute is over.
         */
        post: operations["signInWithToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Lightweight agent entries for selection and navigation
         * @description A bare JSON array (the real system's shape, which the Holon web GUI reads). Each entry keeps svc's fields (agent_id, display_name, status, visibility, parent_agent_id, is_default) beside the real system's (identity, scheduling_posture, lifecycle, pending, current_run_id, waiting_reason, model, active_workspace_entry).
         */
        get: operations["getAgentsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** AgentSummary of the named agent */
        get: operations["getAgentStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bounded bootstrap page: summary, session, tasks, timers, work items, intents, triggers, workspaces */
        get: operations["getAgentState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an agent whose id is the path id (idempotent for an active agent)
         * @description 201 with created:true for a new agent (after a completed deletion: a new incarnation); 200 with created:false for an existing active agent; 409 deletion_incomplete while a deletion is in flight or failed. `template` names a built-in template (`default`) or a directory under <home>/templates, copied into the agent home except its INITIAL_MESSAGE.md, whose text is enqueued to the new agent once. A bootstrap step that fails leaves the agent created with the step in `bootstrap.pending_steps`, for repair.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public agents with their subagents, each with its lineage */
        get: operations["getAgentsTree"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Canonical projection: identity, display name, incarnation, model, state, lineage */
        get: operations["getAgentDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename the display name; agent_id unchanged
         * @description Only a public agent that owns itself (no parent) can be renamed: 409 agent_not_renamable otherwise. Emits agent_renamed.
         */
        patch: operations["updateAgentName"];
        trace?: never;
    };
    "/api/control/agents/{id}/repair": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry incomplete post-create bootstrap without recreating identity
         * @description Runs the bootstrap steps still pending, in order: home_dir, template (files), workspace (binding), initial_message (the template's INITIAL_MESSAGE.md, enqueued once as an internal_followup from origin system/bootstrap). `completed` lists the steps this call finished, `pending` those still open, `error` why the first pending one failed. Emits agent_repaired when a step completed. The initial message is never sent twice: the step is recorded done in the transaction that enqueues it.
         */
        post: operations["repairAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Schedule asynchronous deletion; returns the deletion job
         * @description Phases: stopping, purging_queue, purging_events, removing_files, finalizing. The default agent answers 409 default_agent_protected; an agent with private subagents needs cascade_private_children=true (else 409 private_children_exist).
         */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/delete-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress of the latest deletion job of the agent */
        get: operations["getAgentDeleteStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/enqueue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enqueue an external message for an agent
         * @description Rules, in order, nothing queued on rejection: trust/trust_level/authority_class -> 403 provenance_override_rejected; priority interject -> 403 priority_not_allowed; kind operator_prompt or runtime-owned -> 403 kind_not_allowed; origin kind other than channel/webhook -> 403 origin_not_allowed; kind contradicting origin -> 400 kind_origin_mismatch; no content -> 400 empty_message; the agent already has queue.max_pending queued messages from external senders (public enqueue, webhooks, callbacks, inbox notifications; operator and runtime messages are not counted) -> 429 overloaded with Retry-After.
         */
        post: operations["enqueueAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enqueue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enqueue an external message for the default agent
         * @description Rules, in order, nothing queued on rejection: trust/trust_level/authority_class -> 403 provenance_override_rejected; priority interject -> 403 priority_not_allowed; kind operator_prompt or runtime-owned -> 403 kind_not_allowed; origin kind other than channel/webhook -> 403 origin_not_allowed; kind contradicting origin -> 400 kind_origin_mismatch; no content -> 400 empty_message; the agent already has queue.max_pending queued messages from external senders (public enqueue, webhooks, callbacks, inbox notifications; operator and runtime messages are not counted) -> 429 overloaded with Retry-After.
         */
        post: operations["enqueueDefaultAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/generic/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generic webhook: any JSON becomes a webhook_event (origin generic_webhook, priority normal)
         * @description Fields named origin, trust or priority in the payload are payload, not provenance. Counts against the public budget (queue.max_pending queued messages from external senders per agent): past it, 429 overloaded with Retry-After.
         */
        post: operations["receiveGenericWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operator prompt: operator_prompt, trusted_operator, operator_instruction, priority interject
         * @description Never refused because external senders filled the queue: operator messages are counted apart from public ingress, against queue.max_pending_operator (default 100000) queued operator messages per agent; past that, 429 overloaded with Retry-After.
         */
        post: operations["promptAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the durable event log
         * @description Cursors are exclusive; with both, after_seq < event_seq < before_seq. An unknown cursor yields an empty page.
         */
        get: operations["listAgentEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SSE of the raw event log: backlog after the cursor, then live
         * @description Frames: id = event_seq, event = type, data = envelope. Last-Event-ID is honoured when after_seq is absent; with both, the later of the two is the cursor, so a browser EventSource reconnecting to its first URL (?after_seq=N) resumes after the last event it received. The replay window is the retained log (events.retain_days, events.retain_max_events). A client that falls too far behind is disconnected, and a stream whose unsent backlog retention pruned is closed; page from the last id, then reconnect.
         */
        get: operations["getAgentEventsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live-only SSE across public agents; no cursor or replay; closed when the receiver lags */
        get: operations["getEventsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/briefs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent briefs (acknowledgements, progress, results, failures with failure_artifact), newest first
         * @description A turn ends with a `result` brief (the reply text) or a `failure` brief carrying failure_artifact {category, kind, summary, provider, model_ref, status}. Page with `before` = the last brief_id seen.
         */
        get: operations["listAgentBriefs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/conversation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversation overview: status, effective model, current turn, pending count, visible history
         * @description History holds user messages (as rendered for the model), tool results and final replies, oldest first. current_turn is null when no turn runs.
         */
        get: operations["getAgentConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/conversation/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SSE of turn progress: snapshot, then live turn frames, streamed model text and thoughts
         * @description Live SSE of turn progress (nothing is replayed; durable history is GET conversation and the event log). Every frame: `id` = a per-process frame counter, `event` = frame type, `data` = JSON object with `type` and `agent_id` plus: `snapshot` (first frame) {status, current_turn: CurrentTurn|null, streaming_text, pending}; `turn_started` {turn: CurrentTurn, kind, priority, model_ref}; `text_delta` / `thought_delta` {turn_id, round, text} (streamed model answer text / model thoughts, never stored); `tool_call` {turn_id, round, tool_call_id, name, arguments}; `tool_result` {turn_id, round, tool_call_id, name, ok, content}; `turn_interjected` {turn_id, round, message_id, kind, priority} (an interject message admitted at the safe point between rounds); `turn_completed` {turn_id, message_id, rounds, text, brief_id}; `turn_failed` {turn_id, message_id, reason, failure_artifact, brief_id}; `turn_aborted` {turn_id, message_id, mode}. Comment heartbeats every events.heartbeat_ms. A client that falls too far behind is disconnected.
         */
        get: operations["getAgentConversationStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/turns/{turn_id}/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Model rounds, tool calls and results, interjections of one turn (404 turn_not_found) */
        get: operations["listAgentTurnActivities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/transcript": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Transcript entries of the current turn (live), else of the last turn; turn null when there was none */
        get: operations["getAgentTranscript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/debug-prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Debug-mode prompt: internal_followup, origin system, trusted_system, runtime_instruction, priority interject
         * @description Provenance is runtime-internal whatever the caller sends; a given authority_class is kept in the message metadata as requested_authority_class. Blank text: 400 empty_prompt.
         */
        post: operations["debugPromptAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/wake": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Wake the agent: woken (idle, a system_tick queued), coalesced (running or a wake tick pending), ignored (stopped)
         * @description Always emits wake_requested {reason, source, disposition, message_id}. Blank reason: 400 empty_reason. The tick comes through the control_wake surface (origin system, trusted_system, priority next).
         */
        post: operations["wakeAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/control": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Control action: stop (abort the current run, take no messages, status stopped) or start (status idle, resume)
         * @description Emits control_applied {action, authority_class, previous_status, status, turn_id}. Another action: 400 unknown_action. Answers once an aborted run has ended.
         */
        post: operations["controlAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/current-run/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Abort the current run: the provider request and tool waits are cancelled, the turn ends aborted, the agent is stopped
         * @description mode stop_after_abort (default); pause_after_abort is accepted as its alias (the answer and run_aborted carry requested_mode). The message fails with reason "aborted"; events message_failed and run_aborted {turn_id, mode}. No running turn: 409 no_current_run. Resume with control start.
         */
        post: operations["abortAgentCurrentRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Daemon health: configured models, control token status, activity markers */
        get: operations["getRuntimeStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Effective configuration (secrets redacted) and the path of the persisted config file */
        get: operations["getRuntimeConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Write supported keys to the config file (effect after restart); refuse start-up-only and unknown keys per key */
        patch: operations["updateRuntimeConfig"];
        trace?: never;
    };
    "/api/control/runtime/shutdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Graceful shutdown of the runtime and the daemon */
        post: operations["shutdownRuntime"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics: OpenMetrics text (ends with # EOF), or the Prometheus text format when asked; label-free series
         * @description OpenMetrics 1.0.0 by default (`application/openmetrics-text; version=1.0.0; charset=utf-8`). The classic Prometheus text format 0.0.4 (`text/plain; version=0.0.4; charset=utf-8`) when `Accept` prefers it: `text/plain` with or without `version=0.0.4`, ranked by q-value against `application/openmetrics-text`. A tie, `*\/*`, no Accept, or an Accept that accepts neither gets OpenMetrics; the response varies on Accept. The two formats name a counter differently: family `svc_x` with the sample `svc_x_total` in OpenMetrics, family and sample `svc_x_total` in the text format.
         */
        get: operations["listRuntimeMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent trace summaries (newest first); with trace_id, that trace and its spans
         * @description Completed traces (HTTP requests on both surfaces, task runs, timer firings) from the in-memory ring of recent traces, or with source=diagnostics from the local diagnostics store (slow, failed, cancelled and sampled traces, bounded). With `trace_id`, `trace` and `spans` describe that trace (404 trace_not_found when it is in neither).
         */
        get: operations["listRuntimeTraces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/traces/{trace_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One trace and its spans (recent ring, else the diagnostics store) */
        get: operations["getRuntimeTrace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress of a background job */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credential profiles: stored ones and those the config names, without their material */
        get: operations["listRuntimeCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/runtime/credentials/{profile}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Store (or replace) a credential profile
         * @description Writes `<home>/credentials.json` (0600, atomically). A provider naming the profile with `credential_profile` uses it from its next request, without a restart; the OTLP exporter reads its profile at start.
         */
        put: operations["putRuntimeCredential"];
        post?: never;
        /** Remove a credential profile (404 credential_not_found when it is not stored) */
        delete: operations["deleteRuntimeCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The cached models catalog (no provider contact)
         * @description builtin/echo, each configured provider's static `models`, and models found by earlier discoveries (kept across restarts). `model_availability` is false for the models of a provider whose last discovery failed.
         */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discover models of providers whose cache is missing, failed or expired
         * @description Discovery (GET {base_url}/models) runs in parallel, one attempt per provider with a 10 s timeout; a successful discovery is reused for 10 minutes unless `force` is true. A failing provider appears in `errors` and does not hide the others.
         */
        post: operations["refreshModels"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the agent's model override
         * @description The model must be in the catalog; a model of a configured provider that is not listed triggers one discovery of that provider first. Otherwise 400 unknown_model. Appends model_changed.
         */
        post: operations["setAgentModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/model/clear": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clear the model override: back to model.default
         * @description Appends model_changed.
         */
        post: operations["clearAgentModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/work-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent's work items, oldest first
         * @description `?limit=N` (the real system's form, which the Holon web GUI sends) answers a bare array of at most N items, open ones first, newest first; without it `{ok, work_items}` with every item, oldest first.
         */
        get: operations["listAgentWorkItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/work-items/{work_item_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One work item (404 work_item_not_found) */
        get: operations["getAgentWorkItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/work-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a durable work item (state open, plan_status draft, revision 1)
         * @description A legacy_inline_plan is written to a file in the agent home and attached as plan_artifact; 400 plan_too_large when over the limit.
         */
        post: operations["createAgentWorkItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/work-items/{work_item_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update objective, plan_status, todo_list, blocked_by, recheck_after or plan_artifact; revision + 1
         * @description 409 work_item_not_open on a completed item; 400 empty_update, recheck_requires_blocker, empty_objective, plan_file_not_found, plan_file_not_allowed, plan_too_large; 404 workspace_not_found for an unknown plan workspace.
         */
        patch: operations["updateAgentWorkItem"];
        trace?: never;
    };
    "/api/control/agents/{id}/work-items/{work_item_id}/pick": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the work item the agent's current focus
         * @description switch_kind initial_pick | same_work_item | focus_switch; current_focus_mode is inspection when the item is not runnable (blocked or waiting for the operator), with a warning. 409 work_item_not_open on a completed item.
         */
        post: operations["pickAgentWorkItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/work-items/{work_item_id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete the work item with a report (also the result brief); revision + 1
         * @description 400 empty_report for a blank report; 409 work_item_not_open when already completed. A legacy `completing` record is finalised. The completion intent (completed_by operator, the result brief id, the plan hash) is stored as `completion` and carried by work_item_completed.
         */
        post: operations["completeAgentWorkItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/timers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent timer records: active timers first, then cancelled and completed ones, newest first */
        get: operations["listAgentTimers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/timers/{timer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One timer record; 404 timer_not_found when the agent has no such timer */
        get: operations["getAgentTimer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/timers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a persistent delayed or recurring timer that delivers a timer tick
         * @description The timer first fires `duration_ms` after creation; with `interval_ms` > 0 it then fires every `interval_ms` on that original grid. A firing enqueues a system_tick (origin {kind:"timer", timer_id}, trusted_system, runtime_instruction, priority next) and emits `timer_fired`. Timers survive restarts: an overdue one-shot fires once at start; an interval timer fires once for all missed periods, then keeps its cadence. A timer keeps at most one tick waiting in the queue: while its previous tick has not been taken (the agent is stopped or busy), its next firing waits, then fires once for all the periods it missed. The body is strict: `after_ms`/`every_ms` answer 400 invalid_request with a hint naming duration_ms/interval_ms. `interval_ms` between 1 and 999 answers 400 invalid_request (an interval timer fires at most once a second). An agent has at most `timers.max_active_per_agent` (default 256) active timers: past it, 409 timer_limit_reached (with agent_id and limit) until one completes or is cancelled.
         */
        post: operations["createAgentTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/timers/{timer_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a timer; emits timer_cancelled
         * @description active -> cancelled (event timer_cancelled); cancelled -> 200 with the same record; completed -> 400 timer_completed; unknown -> 404 timer_not_found.
         */
        post: operations["cancelAgentTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active and recent tasks with status, kind and timing, newest first */
        get: operations["listAgentTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Structured task lifecycle snapshot (TaskStatusSnapshot); 404 task_not_found */
        get: operations["getAgentTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/tasks/{task_id}/output": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * TaskOutputResult: the tail of the output and the outcome
         * @description block=false (default): `success` for a finished task, `not_ready` for one still queued or running (with the output so far). block=true waits until the task finishes (`success`) or timeout_ms passes (`timeout`); timeout_ms defaults to 30000 and is clamped to 300000.
         */
        get: operations["getAgentTaskOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a task: a background command (`<shell> -c <cmd>` in its own process group) or a supervised child agent (kind child_agent)
         * @description Command (kind absent or `command`): defaults: shell /bin/sh, workdir the agent's active workspace. `login` runs `<shell> -lc <cmd>`; `accepts_input` gives it a stdin pipe. `tty: true` runs it in a pseudo-terminal (`cols`x`rows`, default 120x40) whose output goes to the same file and which takes task input. Combined stdout+stderr goes to command.output_path under the agent home. Beyond tasks.max_concurrent_per_agent running tasks a new one is `queued`. Exit status 0 -> completed, else failed; a finished task enqueues a task_result message (origin task, trusted_system). Child agent (kind `child_agent`): creates a private child agent (parent = this agent), its workspace (`inherit` or a git `worktree`), optionally a work item, and sends it initial_message; answers 201 once the child is set up (status running, or failed with a failure_artifact if the set-up failed). The task completes with the child's answer (its result brief, when the child waits for nothing of its own), which also reaches this agent as a task_result message; task input sends the child a follow-up (a finished task runs again), stop deletes the child. Limits: tasks.max_active_children_per_agent (409 child_limit_reached), tasks.max_child_depth (409 child_depth_exceeded).
         */
        post: operations["createAgentTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/tasks/{task_id}/input": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write text to the stdin of a running command task created with accepts_input, type it into the terminal of a tty task, or send a child agent task a follow-up
         * @description Command task: a task without accepts_input, or not running, answers 200 with accepted_input:false and a summary_text saying why. `eof: true` closes the stdin after writing; for a tty task (input_target `tty`) it sends the EOF character Ctrl-D instead. Child agent task: the text is enqueued to the child (input_target `child_followup`); a finished task goes back to running until the child answers again. Refused (accepted_input:false) when the child is gone or its worktree was removed.
         */
        post: operations["sendAgentTaskInput"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/tasks/{task_id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a task: SIGTERM to its process group (cancelling -> cancelled); a second stop SIGKILLs it
         * @description running -> cancelling (SIGTERM to the group), cancelled once it exits; a stop on a cancelling task answers force_stop_requested:true and SIGKILLs the group; a queued task is cancelled at once; a finished command task answers 200 with its unchanged snapshot. A child agent task is cancelled at once and its child deleted (its run aborted, its worktree and branch removed); on a finished child task, stop discards what is left (the child, a retained worktree).
         */
        post: operations["stopAgentTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/external-triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's external triggers (never their tokens) */
        get: operations["listAgentExternalTriggers"];
        put?: never;
        /**
         * Issue an external trigger: a callback capability token for enqueue or wake
         * @description The token (32 random bytes, base64url) is returned only in this response and stored only as a sha256 hash. callback_path is where the holder posts: /api/callbacks/<delivery_mode>/<token>.
         */
        post: operations["createAgentExternalTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/external-triggers/{trigger_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an external trigger (idempotent); its token stops working at once */
        post: operations["revokeAgentExternalTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/operator-bindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's operator bindings (credentials redacted) */
        get: operations["listAgentOperatorBindings"];
        put?: never;
        /**
         * Create or update an operator transport binding
         * @description transport accepts hyphen or underscore spellings (stored with underscores); delivery_auth accepts {kind:"bearer", bearer_token} or {type:"bearer", token} and is answered as {kind:"bearer", bearer_token:"[redacted]"} with has_credential. A binding_id of another agent: 409 binding_conflict.
         */
        post: operations["createAgentOperatorBinding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/operator-bindings/{binding_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One operator binding (credential redacted) */
        get: operations["getAgentOperatorBinding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/operator-ingress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operator ingress through a binding: operator_prompt, trusted_operator, operator_instruction, priority interject
         * @description Missing binding: 404 binding_not_found. A binding of another agent, an inactive binding, actor_id other than the binding's operator_actor_id, or a provider other than the binding's: 403 binding_mismatch. The message metadata carries the transport, binding_id, reply_route_id (default: the binding's default_route_id) and provider. Never refused because external senders filled the queue: counted with the operator's prompts against queue.max_pending_operator, not queue.max_pending.
         */
        post: operations["sendOperatorIngress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/workspace/attach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach a directory as a workspace of the agent and make it the active workspace
         * @description `path` must be an existing absolute directory (else 400 invalid_workspace_path with `reason` not_absolute | not_found | not_directory | invalid). Idempotent by real path: the same directory keeps its `ws_` workspace_id (`created:false`). Attaching the agent home itself selects `agent_home`. `kind` is `git` when the directory is in a git work tree. At most 256 attached workspaces per agent (409 workspace_limit_reached). Emits workspace_attached when the registry or the active workspace changed.
         */
        post: operations["attachAgentWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/workspace/exit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Return to the agent home workspace (agent_home)
         * @description The attached workspace stays registered. `changed:false` (and no event) when agent_home is already active; otherwise emits workspace_exited.
         */
        post: operations["exitAgentWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/workspace/detach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a workspace registration without switching
         * @description Unknown workspace: 404 workspace_not_found. The active workspace: 409 workspace_active (exit first). agent_home: 409 agent_home_protected. Emits workspace_detached. Files are never touched.
         */
        post: operations["detachAgentWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/worktree-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Git worktree entries of the agent's active workspace
         * @description Runs `git worktree list --porcelain` (no shell, 5 s limit) in the active workspace (or `workspace_id`). A directory outside any git work tree answers is_git:false with no worktrees; `error` says why git could not answer (not installed, timed out), else null.
         */
        get: operations["getAgentWorktreeSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/file-references/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve file references to locations inside the registered workspace roots of an agent
         * @description At most 64 references (more: 400 invalid_request); results come in request order. Reference types: `{type:"workspace_uri", workspace_uri}` with the form `workspace://<workspace_id>/<relative path>` (path percent-encoded per RFC 3986; `workspace://<workspace_id>` names the root; no query or fragment; `agent_home` names the agent home); `{type:"absolute_path", absolute_path}`; `{type:"relative_path", relative_path, base_path?, workspace_id?}`: relative to the directory of the known base file `base_path` (absolute; a directory base is used as is), else to the root of `workspace_id`, else to the active workspace. Workspaces are those of `agent_id` (default: the default agent). A reference resolves only when its real path (symlinks followed) lies inside a registered root; `..` never climbs out of a root. `execution_root_id` equals `workspace_id` (one execution root per workspace); `path` is relative to it (`.` for the root itself). Unresolved reasons: unknown_workspace, outside_workspace, not_found, invalid_reference.
         */
        post: operations["resolveFileReferences"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/desktop/capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Desktop integration available to this connection
         * @description reveal_in_file_manager is true only when desktop integration is enabled, the daemon runs on macOS or Windows, and this connection is direct loopback (no proxy headers) with an Origin that is a loopback origin matching the Host. Always false on Linux.
         */
        get: operations["listDesktopCapabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/desktop/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the desktop file manager on a file of a registered workspace root
         * @description Denied with 403 desktop_integration_disabled, desktop_platform_unsupported (only macOS and Windows) or desktop_loopback_required (see capabilities), in that order; an unknown workspace or execution root answers 404 workspace_not_found; a path that is not an existing file strictly within the root (not the root itself, never through `..` or a symlink) answers 403 desktop_path_outside_root.
         */
        post: operations["revealDesktopFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The catalog: the user library and the repository-local skills of an agent's active workspace */
        get: operations["getSkillsCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/{skill_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Skill detail: frontmatter, SKILL.md content, files, lock entry
         * @description skill_id is `user:<name>` or `workspace:<name>`; a bare name finds the workspace skill first, then the library one.
         */
        get: operations["getCatalogSkill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a skill to the user library (a background skill_install job)
         * @description 202 {ok, job_id}: follow the job at GET /api/jobs/:job_id. 200 {ok, created:false, skill} when the skill is already in the library (no job). 400 invalid_skill_source for a source that cannot be used (not absolute, not a git URL or owner/repo shorthand; a local directory without a valid SKILL.md; mode link with a git source); 400 skill_source_unsafe when the SKILL.md of a local directory is a symlink or not a regular file. The job walks every file of the skill before anything is copied or linked, and fails (status failed, error naming the file relative to the source and the reason) on a symlink whose real target is outside the source, a broken or looping symlink, a symlinked SKILL.md, a fifo, socket or device, or a skill past 10000 files and directories or 50 MiB; nothing is left in the library then. Symlinks inside the source are copied as the files they point to. A git source that turns out to hold no valid skill fails its job too.
         */
        post: operations["addSkillsCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove a skill from the library (and its lock entry) */
        post: operations["removeSkillsCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rescan the library and the workspace roots; counts and invalid skill directories */
        post: operations["refreshSkillsCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Compare .skill-lock.json with the library: missing and extra skills */
        post: operations["reconcileSkillsCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Each locked skill against its source (git ls-remote; content hash for local copies)
         * @description `{name}` (the real system's form) answers the summary of that skill alone (404 skill_not_found when no locked skill has the name).
         */
        post: operations["checkSkillsCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/catalog/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-install locked skills whose source changed (a background skill_update job)
         * @description The job's result lists updated, up_to_date, skipped (linked) and failed skills.
         */
        post: operations["updateSkillsCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a skill install job the real system's way ({kind: "skill.install", params: {kind: <source>}})
         * @description A source `{kind: local, path, mode?}` or `{kind: remote, package: owner/repo[@ref], skill?: path}` is added to the library as by POST /api/skills/catalog/add (202 with the job). A skill already in the library answers 200 with a job that is already completed. `builtin` and `named` sources: 400 invalid_skill_source (svc has none).
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Skills enabled for the agent: name, scope (agent/workspace/user), source */
        get: operations["listAgentSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/skills/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a skill for the agent
         * @description Resolves the name in the agent's active workspace (.svc/skills, then skills) and then the user library; 404 skill_not_found otherwise. copy:true makes a private copy under the agent home (scope agent) with the rules of an install: 400 skill_source_unsafe (a symlink out of the skill directory, a symlinked SKILL.md, a special file) or skill_too_large (past 10000 files and directories or 50 MiB), naming the file, and nothing copied. Enabling again is a no-op (changed:false). A change appends skill_enabled {name, scope, source, previous_scope} to the agent's log.
         */
        post: operations["enableAgentSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/skills/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a skill for the agent
         * @description changed:false when the skill exists but was not enabled; 404 skill_not_found when no skill has the name. A private copy (scope agent) is deleted. A change appends skill_disabled {name, scope, reason: disabled} to the agent's log (removing a library skill appends it with reason removed_from_library for each agent that had it).
         */
        post: operations["disableAgentSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Skills enabled for the agent: name, scope (agent/workspace/user), source (spec spelling, without /api) */
        get: operations["listAgentSkillsAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/control/agents/{id}/skills/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a skill for the agent (spec spelling, without /api)
         * @description Resolves the name in the agent's active workspace (.svc/skills, then skills) and then the user library; 404 skill_not_found otherwise. copy:true makes a private copy under the agent home (scope agent) with the rules of an install: 400 skill_source_unsafe (a symlink out of the skill directory, a symlinked SKILL.md, a special file) or skill_too_large (past 10000 files and directories or 50 MiB), naming the file, and nothing copied. Enabling again is a no-op (changed:false). A change appends skill_enabled {name, scope, source, previous_scope} to the agent's log.
         */
        post: operations["enableAgentSkillAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/control/agents/{id}/skills/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a skill for the agent (spec spelling, without /api)
         * @description changed:false when the skill exists but was not enabled; 404 skill_not_found when no skill has the name. A private copy (scope agent) is deleted. A change appends skill_disabled {name, scope, reason: disabled} to the agent's log (removing a library skill appends it with reason removed_from_library for each agent that had it).
         */
        post: operations["disableAgentSkillAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/skills/{skill_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One skill enabled for the agent, with its SKILL.md body (404 skill_not_found)
         * @description skill_id is `<scope>:<name>` as the agent's skill list shows it, or the bare name. The real system's route (README "Holon GUI compatibility").
         */
        get: operations["getAgentSkill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/skills/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deprecated: add to the library and enable (use catalog/add and skills/enable)
         * @deprecated
         * @description {source, mode?, copy?}: add (a skill_install job that enables the skill when installed: 202 with job_id; 200 when already in the library) then enable. {name, copy?}: enable only.
         */
        post: operations["installAgentSkills"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/agents/{id}/skills/uninstall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deprecated: disable for the agent (use skills/disable, and catalog/remove for the library)
         * @deprecated
         */
        post: operations["uninstallAgentSkills"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/messages:batchGet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The agent's messages by id (POST /api/agents/{id}/messages:batchGet) */
        post: operations["batchGetAgentMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/transcript:batchGet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The agent's transcript entries by id (a row of the visible conversation history, id `hst_<seq>`) (POST /api/agents/{id}/transcript:batchGet) */
        post: operations["batchGetAgentTranscript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/briefs:batchGet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The agent's briefs by id (POST /api/agents/{id}/briefs:batchGet) */
        post: operations["batchGetAgentBriefs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/projection-snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One agent's canonical projection at its event head
         * @description The handshake does not list the agents.roster-snapshot.v1 / agents.projection-snapshot.v1 capabilities, so the Holon web GUI keeps its event-page path (README "Holon GUI compatibility").
         */
        get: operations["getAgentProjectionSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every public agent with its event window and latest brief
         * @description The handshake does not list the agents.roster-snapshot.v1 / agents.projection-snapshot.v1 capabilities, so the Holon web GUI keeps its event-page path (README "Holon GUI compatibility").
         */
        get: operations["getAgentsSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Find text in agents' event logs: messages, briefs, tool output, task and work item text
         * @description Newest first, at most `limit` (default 20). Every result is of type `message`; `kind` names the event kind, `locator.event_seq` the event. Unknown agent_ids: 404 agent_not_found.
         */
        post: operations["search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/memory/get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The whole text of a search result (source_ref event:<agent_id>:<event_seq>)
         * @description 404 memory_source_not_found for any other source_ref.
         */
        post: operations["getMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agent templates: the built-in ones and the directories under <home>/templates */
        get: operations["getTemplatesCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/catalog/{catalog_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One template with its instructions (404 template_not_found) */
        get: operations["getTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["inboxGetHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service status with counts: sources by state and their errors, subscriptions, agents, targets, pending notifications, unacknowledged entries, timers */
        get: operations["inboxGetStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every host, oldest first */
        get: operations["inboxListHosts"];
        put?: never;
        /**
         * Register a host (idempotent by hostType + hostKey)
         * @description A host record is {hostId, hostType, hostKey, config, createdAt}. hostType (local_event | remote_source | github) is the type of every source on the host. config is checked against the type's JSON Schema (GET /hosts/{hostId}/schema): 400 invalid_request naming the field. A credentialRef names a credential profile (GET /api/control/runtime/credentials on the control plane) whose secret reaches the modules of the host's sources, never a response. 201 for a new host; 200 with the existing record (config unchanged) when hostType + hostKey already exist.
         */
        post: operations["inboxCreateHost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/hosts/{hostId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One host (404 host_not_found) */
        get: operations["inboxGetHost"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/hosts/{hostId}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Schemas of the host config and of source configs for its type
         * @description For remote_source hosts sourceConfigSchema describes {modulePath, moduleConfig, pollIntervalMs, pollTimeoutMs} (each module's own configSchema: GET /sources/{sourceId}/schema); github hosts: {apiBaseUrl, credentialRef} and {owner, repo, resources, since, perPage, maxPages, pollIntervalMs, pollTimeoutMs, webhookSecretRef}; local_event configs are free-form objects.
         */
        get: operations["inboxGetHostSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every source, oldest first (optionally of one host) */
        get: operations["inboxListSources"];
        put?: never;
        /**
         * Register a source/stream on a host (idempotent by hostId + streamKind + streamKey)
         * @description A source record is {sourceId, hostId, sourceType, streamKind, streamKey, config, configRef, state: active|paused|error, error, idleState, cursor (remote_source), createdAt, updatedAt}; sourceType is the host's hostType and sourceId is also the public stream id. 201 for a new source, 200 with the existing record (unchanged) for the same identity. remote_source: config.modulePath must be a regular file inside <home>/source-modules/ (relative paths resolve there) or a directory of inbox.module_dirs, after resolving symlinks, owned by the daemon's user and not writable by others, else 400 source_module_not_allowed (checked again before every load); it is loaded in a worker thread, moduleConfig checked against the module's configSchema (400 invalid_request naming the field) and its validate(moduleConfig) run: 400 invalid_source_config / invalid_source_module (a load error names the error class and line, never the file's text). github: config checked against the github schema (400 invalid_request); owner and repo default to a streamKey owner/repo. A credential named by the host's credentialRef or a configRef `credential:<profile>` that is not stored does not refuse the source: it starts in state error, naming the profile. Unknown host: 404 host_not_found.
         */
        post: operations["inboxCreateSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/sources/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One source with its streamStats (404 source_not_found) */
        get: operations["inboxGetSource"];
        put?: never;
        post?: never;
        /**
         * Delete a source and its stream (with withSubscriptions: also its subscriptions)
         * @description A source that still has subscriptions is kept, 409 source_has_subscriptions, unless withSubscriptions=true (AgentInbox: with_subscriptions), which removes them with it.
         */
        delete: operations["inboxDeleteSource"];
        options?: never;
        head?: never;
        /**
         * Replace config and/or configRef
         * @description An active or error source is re-ensured (a remote module is checked, loaded and validated again, as at creation; 400 source_module_not_allowed / invalid_source_config / invalid_source_module change nothing) and becomes active; a paused source stays paused until resumed.
         */
        patch: operations["inboxUpdateSource"];
        trace?: never;
    };
    "/api/inbox/sources/{sourceId}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schemas of the source config for its type (with a remote module's own configSchema) and of an appended event */
        get: operations["inboxGetSourceSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/sources/{sourceId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a managed remote source (stops polling; binding and stream kept)
         * @description Pause, resume and poll apply only to managed sources (remote_source, github): others answer 409 source_not_managed. Pausing a paused source changes nothing.
         */
        post: operations["inboxPauseSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/sources/{sourceId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a managed remote source (normal ensure path: active, error cleared, polling scheduled) */
        post: operations["inboxResumeSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/sources/{sourceId}/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one poll of a managed remote source now
         * @description Appends what the module returns exactly like a manual append (idempotent by id) and persists its cursor. A paused source stays paused. A failing module (throws, times out, bad result) marks the source error and answers 502 source_poll_failed.
         */
        post: operations["inboxPollSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/sources/{sourceId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Append one event or {events: [...]} to a local_event source
         * @description Offsets are per stream, start at 1 and are contiguous. An event whose id is already stored on the stream is counted in deduped and stored once. Answered after the events are durable. Other source types: 409 manual_append_unsupported.
         */
        post: operations["inboxAppendSourceEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/streams/{streamId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stream (by its public id, the source id) with its streamStats
         * @description streamStats is null until the first event is appended. eventCount counts identity rows including pruned events; retainedFromOffset is the first offset whose payload is kept. Pruned events read back as identity stubs (offset, id, type, subject, time, appendedAt kept; data null, metadata {}, pruned true). 404 stream_not_found.
         */
        get: operations["inboxGetStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/streams/{streamId}/compaction-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bounded read-only preview of a compaction
         * @description Scans at most scanLimit events from retainedFromOffset. Eligible: appended at least retentionMs ago, in offset order up to the first event that is not. Never initialises a missing stream or calls a module: 404 stream_not_found for an unknown id or a stream without events; 501 compaction_unsupported for a backend without compaction.
         */
        post: operations["inboxPreviewStreamCompaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/streams/{streamId}/compaction-apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prune old payloads to identity stubs (irreversible without a backup)
         * @description Short batches, each a transaction, with eligibility (age, consumers) rechecked per batch. batchSize, maxEvents and maxPayloadBytes are defaults and hard upper bounds. A stream without consumers is skipped (stopReason no_consumers); an event larger than maxPayloadBytes stops the run (oversized); a retry continues where the last one stopped. Offsets and identity stubs remain; nothing is vacuumed. 400 for unknown options or a missing/false apply.
         */
        post: operations["inboxApplyStreamCompaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbox agents, by id (with includeTargets: each with its targets, as AgentInbox clients list them) */
        get: operations["inboxListAgents"];
        put?: never;
        /**
         * Create an inbox agent (generated agt_ id), or register one AgentInbox's way (chosen agentId with a webhook target, or bound to a tmux pane)
         * @description A webhook registration is idempotent: the same agentId and webhook URL again answer 200 with the same agent and target; a webhook URL the agent has no target for adds one; existing targets are never changed. A terminal registration {backend: "tmux", tmuxPaneId, …} binds the terminal to an agent (the given agentId, else the one it is bound to, else a new one) through a terminal target typing into that pane; moving a binding needs forceRebind (else 409 registration_conflict). A refused registration changes nothing.
         */
        post: operations["inboxCreateAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One inbox agent (404 agent_not_found) */
        get: operations["inboxGetAgent"];
        put?: never;
        post?: never;
        /**
         * Delete an inbox agent with its subscriptions, entries, targets and timers
         * @description Open watch streams of the agent are closed.
         */
        delete: operations["inboxDeleteAgent"];
        options?: never;
        head?: never;
        /**
         * Set the agent's aggregation policy (null: the default)
         * @description immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window (never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; none when nothing is new. A target follows its own policy, else its agent's. 400 invalid_request / invalid_cron / invalid_timezone change nothing. The agent record shows aggregation while the agent has a policy of its own.
         */
        patch: operations["inboxUpdateAgent"];
        trace?: never;
    };
    "/api/inbox/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscriptions, optionally of one agent and/or one source */
        get: operations["inboxListSubscriptions"];
        put?: never;
        /**
         * Subscribe an agent to a source (or, with the host shortcut, to every source of a host)
         * @description Answers {subscriptions: [...]} always: one element for sourceId, one per source for the host shortcut. Events from the start position (startPolicy) are materialised at creation; a start below the retained range is 409 history_unavailable. Invalid filters (match paths, CEL) are 400 invalid_filter; a CEL expr known to be too costly (comprehensions nested more than 2 deep, or over the cost limit on an empty event) is 400 filter_too_costly. At run time an event the expr goes over its cost limit on is not matched, and filterError of the subscription says so.
         */
        post: operations["inboxCreateSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One subscription (404 subscription_not_found) */
        get: operations["inboxGetSubscription"];
        put?: never;
        post?: never;
        /** Remove a subscription; its inbox entries stay */
        delete: operations["inboxDeleteSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/subscriptions/{subscriptionId}/lag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Consumer offset against the stream bounds; lag = highWatermarkOffset - consumedOffset */
        get: operations["inboxGetSubscriptionLag"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/subscriptions/{subscriptionId}/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Catch the subscription up to the high watermark now (matching is pushed; this is for after a reset) */
        post: operations["inboxPollSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/subscriptions/{subscriptionId}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reposition to {offset} or a start policy and materialise from there
         * @description Offsets that still have an entry for this subscription are not duplicated; offsets whose entries were acknowledged and compacted come back as new entries. Below the retained range: 409 history_unavailable.
         */
        post: operations["inboxResetSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbox summary: unacknowledged count, latest entry, delivery pause */
        get: operations["inboxGetAgentInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of entries in entry order (unacknowledged only unless includeAcked)
         * @description nextCursor is the last entry id of a full page (pass it as after), null at the end.
         */
        get: operations["inboxListAgentInboxItems"];
        put?: never;
        /** Add a direct text item to the inbox */
        post: operations["inboxCreateAgentInboxItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The same list under AgentInbox's path (its clients read entries here)
         * @description nextCursor is the last entry id of a full page (pass it as after), null at the end.
         */
        get: operations["inboxListAgentInboxEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox/watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SSE of inbox entries in AgentInbox frames: the backlog after the cursor (from the start without one), then live
         * @description Frames: `event: items`, data `{event:"items", agentId, entries:[InboxEntry]}`, `id:` = the last entry id of the frame. The first frame is the backlog (sent even when empty, then without an id); live frames follow as entries are created. The cursor is the later of after (after_entry_id) and Last-Event-ID, so a reconnect that repeats the first URL still resumes. heartbeatMs (heartbeat_ms) adds `event: heartbeat` frames {event:"heartbeat", agentId, timestamp}. A client that falls too far behind is disconnected; reconnect with Last-Event-ID.
         */
        get: operations["inboxWatchAgentInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox/ack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge entries: exactly one of {throughEntryId}, {entryIds}, {all: true}
         * @description acked counts entries newly acknowledged; durable before the answer. Unknown entry ids: 404 entry_not_found, nothing acknowledged.
         */
        post: operations["inboxAckAgentInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete the agent's acknowledged entries (unacknowledged ones are never removed) */
        post: operations["inboxCompactAgentInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's activation targets (never their secrets) */
        get: operations["inboxListAgentTargets"];
        put?: never;
        /**
         * Add an activation target: webhook, terminal (tmux pane) or runtime (control-plane agent queue)
         * @description Notifications (under the default aggregation policy, coalesce 250 ms; see PATCH /agents/{agentId}): entries arriving within 250 ms become one notification per target, a JSON body `{type:"inbox.entries", notificationId, agentId, targetId, reason, entryCount, firstEntryId, lastEntryId, truncated, entries, createdAt}` (at most 50 entries listed; `entryCount` counts all). Webhooks are signed with the Standard Webhooks scheme (`webhook-id` = notificationId, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`); the secret is returned once, here. Terminal targets get one line typed into the tmux pane, then Enter. Runtime targets get a webhook_event with origin {kind:"webhook", source:"inbox"} in the control-plane agent queue. A new target is notified of entries created after it.
         */
        post: operations["inboxCreateAgentTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/targets/{targetId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a target and its pending notifications */
        delete: operations["inboxDeleteAgentTarget"];
        options?: never;
        head?: never;
        /**
         * Set a target's own aggregation policy (null: follow the agent's)
         * @description immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window (never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; none when nothing is new. A target follows its own policy, else its agent's. 400 invalid_request / invalid_cron / invalid_timezone change nothing.
         */
        patch: operations["inboxUpdateAgentTarget"];
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/targets/{targetId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recover one target: offline -> active, backoff reset; never clears the agent delivery pause
         * @description While the agent is not paused, also queues one catch-up notification of the entries this target was never notified of.
         */
        post: operations["inboxResumeAgentTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause proactive delivery (persisted): no notification, retry, timer or catch-up goes out; entries keep arriving */
        post: operations["inboxPauseAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume delivery: `{deliveryOnly:true}` catches up active targets only; `{}` also recovers offline targets
         * @description deliveryOnly true: in one transaction, one catch-up notification per active target listing the unacknowledged entries it was never notified of is persisted, then the pause is cleared; offline targets and pending backoff are kept; no entries are created; repeated calls queue nothing already notified and retry due pending notifications. Absent body, `{}` or deliveryOnly false: every offline target is recovered (backoff reset), then the same catch-up, and the pause is cleared, whether or not the agent was paused. Resumes of one agent run one at a time.
         */
        post: operations["inboxResumeAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/timers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbox timers, oldest first */
        get: operations["inboxListTimers"];
        put?: never;
        /**
         * Create an inbox timer (at | every | cron) that puts a reminder entry in the agent inbox per occurrence
         * @description Exactly one of at, every (>= 1000 ms), cron (5 fields, evaluated in `timezone`, default the daemon host zone, across DST changes). Each occurrence creates exactly one entry `{kind:"timer", sender, message, scheduleId}`. A timer overdue at start (or resumed late) fires once for all missed occurrences, then continues with the next future one. 400 invalid_timezone, 400 invalid_cron.
         */
        post: operations["inboxCreateTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/timers/{scheduleId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a timer (no occurrences fire); a completed timer: 409 timer_completed */
        post: operations["inboxPauseTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/timers/{scheduleId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused timer at its next occurrence after now (a past `at` fires once now) */
        post: operations["inboxResumeTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/timers/{scheduleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a timer */
        delete: operations["inboxDeleteTimer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/gc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run housekeeping now and report what was removed: expired subscriptions, old or orphaned acknowledged entries, old notifications */
        post: operations["inboxRunGc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/agents/{agentId}/inbox/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's aggregation policy, its targets' effective policies and digest schedules (AgentInbox's `inbox policy show`) */
        get: operations["inboxGetAgentInboxPolicy"];
        put?: never;
        /**
         * Change the agent's aggregation policy, AgentInbox's way (`inbox policy set`) or with svc's {aggregation}
         * @description AgentInbox's {enabled?, windowMs?, maxItems?, maxThreadAgeMs?}: enabled false sets immediate; enabled true, windowMs or maxItems set coalesce {windowMs, maxEntries: maxItems}, keeping what is not sent (a new window: 30000 ms, AgentInbox's default); maxThreadAgeMs has no effect. {aggregation} sets svc's policy as PATCH /agents/{agentId} does. immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window (never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; none when nothing is new. A target follows its own policy, else its agent's. 400 invalid_request / invalid_cron / invalid_timezone change nothing.
         */
        post: operations["inboxSetAgentInboxPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/callbacks/enqueue/{callback_token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Callback enqueue: the body becomes a callback_event (trusted_integration, integration_signal, priority normal)
         * @description Authorized by the capability token in the path. Body (at most 256 KB, else 413 payload_too_large): application/json or *\/*+json is parsed (400 invalid_json when malformed); text/* is read as text in its charset; any other content type (a body without one counts as application/octet-stream) is kept as base64. Unknown or revoked token: 404 trigger_not_found; a token of the other delivery mode: 403 delivery_mode_mismatch. Counts against the public budget (queue.max_pending queued messages from external senders per agent): past it, 429 overloaded with Retry-After. JSON objects are queued as {type:"json", value}, other JSON values as {type:"json", value:{payload}}, text as {type:"text", text}, other types as {type:"json", value:{content_type, body_base64}}, an empty body as {type:"json", value:{}}.
         */
        post: operations["callbackEnqueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/callbacks/wake/{callback_token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Callback wake: enqueue a runtime-owned inspection tick (system_tick, priority next); the payload is untrusted evidence
         * @description Authorized by the capability token in the path. Body (at most 256 KB, else 413 payload_too_large): application/json or *\/*+json is parsed (400 invalid_json when malformed); text/* is read as text in its charset; any other content type (a body without one counts as application/octet-stream) is kept as base64. Unknown or revoked token: 404 trigger_not_found; a token of the other delivery mode: 403 delivery_mode_mismatch. Counts against the public budget (queue.max_pending queued messages from external senders per agent): past it, 429 overloaded with Retry-After. The tick's body is {reason:"callback_wake", trigger_id, evidence:{trust:"untrusted_external", content_type, text | value}}.
         */
        post: operations["callbackWake"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inbox/github/webhook/{source_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A GitHub webhook delivery for a github source (the source's stream gets the event)
         * @description Needs no control token: the X-Hub-Signature-256 HMAC-SHA256 of the raw body with the secret of the source's webhookSecretRef credential profile is the authentication (missing: 401 webhook_signature_required; wrong: 403 webhook_signature_invalid; nothing is appended). A source that does not exist, is not a github source, has no webhookSecretRef or whose secret is not stored answers the same 404 source_not_found. Content type application/json or application/x-www-form-urlencoded (payload=…), at most 4194304 bytes (413). X-GitHub-Event and X-GitHub-Delivery are required (400); neither is signed, so the body decides what the event is. repository.full_name must be the source's repository (400 webhook_repository_mismatch). issues, pull_request, issue_comment and workflow_run bodies become the events polling gives for the same state (same ids), a push is keyed by its ref and the commits it moved, other events become github.<event> keyed by a hash of the payload; ping appends nothing. An event name of those five on a body that is not one is 400 invalid_request. A signed body sent again, whatever its delivery id or event name, is deduplicated (deduped: 1). The Host header must be a loopback name or listed in auth.allowed_hosts (a tunnel that keeps the public host name needs it there).
         */
        post: operations["receiveGithubWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        RootResponse: {
            /** @enum {boolean} */
            ok: true;
            default_agent: string;
        };
        ErrorResponse: {
            /** @enum {boolean} */
            ok: false;
            error: string;
            code: string;
            hint?: string;
            agent_id?: string;
            after_seq?: number;
            event_seq?: number;
            issues?: {
                path: string;
                message: string;
            }[];
        } & {
            [key: string]: unknown;
        };
        Handshake: {
            /** @enum {boolean} */
            ok: true;
            protocol: {
                /** @enum {string} */
                name: "svc-control";
                /** @enum {number} */
                version: 1;
            };
            auth: {
                /** @enum {string} */
                mode: "bearer" | "local";
                required: boolean;
                /**
                 * @description Present when browsers may also sign in (GET /api/auth/login) and use the HttpOnly session cookie in place of the token
                 * @enum {string}
                 */
                session?: "oidc";
            };
            capabilities: string[];
            runtime: {
                default_agent: string;
                workspace_dir: string;
                home_dir: string;
                listen: string;
                advertise_url: string | null;
            };
        };
        AuthMethod: {
            /** @enum {string} */
            mode: "local" | "oidc";
        };
        LogoutResponse: {
            /** @enum {boolean} */
            ok: true;
            /** @description Whether a live session was revoked */
            revoked: boolean;
        };
        SessionInfo: {
            /** @enum {boolean} */
            ok: true;
            /**
             * @description oidc: an OpenID sign-in; token: the console signed in with the control token
             * @enum {string}
             */
            kind: "oidc" | "token";
            /** @description The `sub` of the signed-in account (oidc); `uid:N` or `remote` (token: whom the session is bound to) */
            subject: string;
            /** @description The provider's issuer URL (oidc); `control-token` (token) */
            issuer: string;
            created_at: string;
            /** @description Fixed at sign-in; a session is never extended */
            expires_at: string;
        };
        TokenLoginResponse: {
            /** @enum {boolean} */
            ok: true;
            /** @description Fixed at sign-in; a session is never extended */
            expires_at: string;
        };
        TokenLoginBody: {
            /** @description The control token */
            token: string;
        };
        /** @description a bare array of entries, as the real system answers (README "Holon GUI compatibility") */
        AgentList: components["schemas"]["AgentListEntry"][];
        AgentListEntry: {
            agent_id: string;
            display_name: string;
            /** @enum {string} */
            status: "idle" | "running" | "stopped" | "deleting";
            /** @enum {string} */
            visibility: "public" | "private";
            parent_agent_id: string | null;
            is_default: boolean;
            identity: components["schemas"]["AgentIdentity"];
            scheduling_posture: components["schemas"]["SchedulingPosture"];
            lifecycle: components["schemas"]["AgentLifecycleHint"];
            /** @description queued messages (as pending_messages elsewhere) */
            pending: number;
            /** @description the turn in progress, or null */
            current_run_id: string | null;
            /** @enum {string|null} */
            waiting_reason: "awaiting_operator_input" | "awaiting_external_change" | "awaiting_task_result" | "awaiting_timer" | null;
            model: components["schemas"]["AgentModelState"];
            active_workspace_entry: components["schemas"]["ActiveWorkspaceEntry"];
        };
        AgentIdentity: {
            agent_id: string;
            incarnation: number;
            created_at: string;
            /** @enum {string} */
            kind: "default" | "named" | "child";
            /** @enum {string} */
            visibility: "public" | "private";
            /** @enum {string} */
            ownership: "self_owned" | "parent_supervised";
            /** @enum {string} */
            profile_preset: "public_named" | "private_child";
            is_default_agent: boolean;
            /**
             * @description the identity: active, or being deleted
             * @enum {string}
             */
            status: "active" | "deleting";
            parent_agent_id: string | null;
            lineage_parent_agent_id: string | null;
            /** @description for a supervised child: the parent task supervising it */
            delegated_from_task_id: string | null;
        };
        /** @description what the agent does next, derived from live state on every read */
        SchedulingPosture: {
            /** @enum {string} */
            posture: "stopped" | "active_turn" | "has_queued_input" | "has_runnable_work" | "waiting_for_task" | "waiting_for_external" | "waiting_for_operator" | "blocked" | "idle";
            reason: string;
            run_id: string | null;
            task_id: string | null;
            work_item_id: string | null;
        };
        AgentLifecycleHint: {
            accepts_external_messages: boolean;
            operator_hint: string | null;
        };
        AgentModelState: {
            /** @enum {string} */
            source: "runtime_default" | "agent_override";
            effective_model: string;
            active_model: string | null;
            requested_model: string | null;
            override_model: string | null;
            /** @description always null: svc has no reasoning-effort setting */
            override_reasoning_effort: string | null;
            runtime_default_model: string;
            effective_fallback_models: string[];
            fallback_active: boolean;
        };
        ActiveWorkspaceEntry: {
            workspace_id: string;
            workspace_alias: string | null;
            /** @description the workspace root */
            workspace_anchor: string;
            execution_root: string;
            /** @description the workspace id (as file references use it) */
            execution_root_id: string;
            cwd: string;
            /** @enum {string} */
            projection_kind: "canonical_root";
        } | null;
        AgentSummary: {
            agent_id: string;
            display_name: string;
            /** @enum {string} */
            status: "idle" | "running" | "stopped" | "deleting";
            incarnation: number;
            model: string;
            /** @enum {string} */
            visibility: "public" | "private";
            parent_agent_id: string | null;
            is_default: boolean;
            pending_messages: number;
            current_run: components["schemas"]["CurrentTurn"];
            last_event_seq: number;
            created_at: string;
            updated_at: string;
            identity: components["schemas"]["AgentIdentity"];
            agent: {
                id: string;
                /** @enum {string} */
                status: "idle" | "running" | "stopped" | "deleting";
                pending: number;
                current_run_id: string | null;
                current_turn_id: string | null;
                /** @description the last picked work item (current focus) */
                current_work_item_id: string | null;
                last_brief_at: string | null;
                attached_workspaces: string[];
                active_workspace_entry: components["schemas"]["ActiveWorkspaceEntry"];
            };
            closure: components["schemas"]["AgentClosure"];
            scheduling_posture: components["schemas"]["SchedulingPosture"];
            lifecycle: components["schemas"]["AgentLifecycleHint"];
            active_task_count: number;
        };
        CurrentTurn: {
            turn_id: string;
            message_id: string;
            /** @enum {string} */
            status: "running";
            /** @description model round in progress (1-based; 0 before the first call) */
            round: number;
            started_at: string;
        } | null;
        AgentClosure: {
            /** @enum {string} */
            outcome: "completed" | "continuable" | "waiting";
            /** @enum {string} */
            runtime_posture: "awake" | "sleeping";
            /** @enum {string|null} */
            waiting_reason: "awaiting_operator_input" | "awaiting_external_change" | "awaiting_task_result" | "awaiting_timer" | null;
        };
        AgentState: {
            agent: components["schemas"]["AgentStateSummary"];
            session: {
                current_run: components["schemas"]["CurrentTurn"];
                current_run_id: string | null;
                pending_count: number;
                pending_by_priority: {
                    [key: string]: number;
                };
                last_event_seq: number;
            };
            tasks: unknown[];
            timers: unknown[];
            work_items: unknown[];
            waiting_intents: components["schemas"]["WaitingIntent"][];
            external_triggers: unknown[];
            workspaces: {
                active_workspace_id: string;
                occupancy: {
                    workspace_id: string;
                    path: string;
                    active: boolean;
                }[];
                registry: unknown[];
            };
            /** @description the same registry in the real system's shape */
            workspace: {
                workspaces: components["schemas"]["WorkspaceView"][];
            };
        };
        AgentStateSummary: components["schemas"]["AgentSummary"] & {
            model?: components["schemas"]["AgentModelState"] & unknown;
        };
        /** @description What the agent waits for, derived from live state: an active task's result, an active timer, operator input on a work item whose plan needs it, a blocked work item. */
        WaitingIntent: {
            /** @enum {string} */
            kind: "task_result";
            task_id: string;
            task_kind: string;
            status: string;
            summary: string | null;
        } | {
            /** @enum {string} */
            kind: "timer";
            timer_id: string;
            next_fire_at: string | null;
            interval_ms: number | null;
            summary: string | null;
        } | {
            /** @enum {string} */
            kind: "operator_input";
            work_item_id: string;
            objective: string;
        } | {
            /** @enum {string} */
            kind: "blocked_work_item";
            work_item_id: string;
            objective: string;
            blocked_by: string | null;
        };
        WorkspaceView: {
            workspace_id: string;
            workspace_alias: string | null;
            /** @description the workspace root */
            workspace_anchor: string;
            execution_root: string;
            /** @description the workspace id (as file references use it) */
            execution_root_id: string;
            cwd: string;
            /** @enum {string} */
            projection_kind: "canonical_root";
            is_active: boolean;
            repo_name: string | null;
            worktree: null;
        };
        AgentDetail: {
            agent_id: string;
            display_name: string;
            identity: components["schemas"]["AgentIdentity"];
            /** @enum {string} */
            status: "idle" | "running" | "stopped" | "deleting";
            model: string;
            model_override: string | null;
            template: string | null;
            parent_agent_id: string | null;
            lineage: string[];
            /** @enum {string} */
            visibility: "public" | "private";
            is_default: boolean;
            home_dir: string;
            bootstrap: {
                complete: boolean;
                pending_steps: string[];
            };
            pending_messages: number;
            last_event_seq: number;
            created_at: string;
            updated_at: string;
        };
        CreateAgentRequest: {
            template?: string | null;
            display_name?: string;
            parent_agent_id?: string | null;
            /** @enum {string} */
            visibility?: "public" | "private";
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        AgentTreeNode: {
            agent_id: string;
            display_name: string;
            status: string;
            visibility: string;
            parent_agent_id: string | null;
            lineage: string[];
            /** @description for a supervised child: the parent task supervising it (kind child_agent), else null */
            supervision: {
                task_id: string;
                status: string;
                workspace_mode: string;
                delegation_id: string;
                worktree_path: string | null;
            } | null;
            children: components["schemas"]["AgentTreeNode"][];
        };
        RenameAgentRequest: {
            name: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        AgentDeletion: {
            /** @enum {boolean} */
            ok: true;
            job: components["schemas"]["Job"] & {
                /** @description job_id (the real system's name) */
                deletion_id: string;
            };
            /** @description DELETE: false when the request joined a deletion already in flight */
            created?: boolean;
            /** @description the agent's identity (status deleting while the job runs), or {agent_id, status: deleted} once it is gone */
            identity: components["schemas"]["AgentIdentity"] | {
                agent_id: string;
                /** @enum {string} */
                status: "deleted";
            };
        };
        Job: {
            job_id: string;
            kind: string;
            agent_id: string | null;
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed";
            phase: string | null;
            progress: {
                [key: string]: unknown;
            } | null;
            result: {
                [key: string]: unknown;
            } | null;
            error: string | null;
            created_at: string;
            updated_at: string;
            /** @description job_id (the real system's name) */
            id: string;
            /** @description error (the real system's name) */
            last_error: string | null;
            /** @description when the job completed or failed */
            completed_at: string | null;
        };
        DeleteAgentRequest: {
            cascade_private_children?: boolean;
        } & {
            [key: string]: unknown;
        };
        EnqueueResponse: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            message_id: string;
        };
        /** @description Exactly one of text, json or body. Origin kind channel (trust untrusted_external) or webhook (trusted_integration, the default); trust, trust_level and authority_class are refused (403), as are interject priority and operator/runtime-owned kinds. */
        EnqueueRequest: {
            /** @enum {string} */
            kind?: "operator_prompt" | "channel_event" | "webhook_event" | "system_tick" | "task_result" | "task_status" | "control" | "internal_followup" | "callback_event";
            /** @enum {string} */
            priority?: "interject" | "next" | "normal" | "background";
            text?: string;
            json?: {
                [key: string]: unknown;
            };
            body?: components["schemas"]["MessageBody"];
            origin?: {
                kind: string;
            } & {
                [key: string]: unknown;
            };
            metadata?: {
                [key: string]: unknown;
            };
            correlation_id?: string;
            causation_id?: string;
        } & {
            [key: string]: unknown;
        };
        MessageBody: {
            /** @enum {string} */
            type: "text";
            text: string;
        } | {
            /** @enum {string} */
            type: "json";
            value: {
                [key: string]: unknown;
            };
        } | {
            /** @enum {string} */
            type: "brief";
            title: string;
            text: string;
            /** @default [] */
            attachments: unknown[];
        };
        /** @description Any JSON document */
        AnyJson: unknown;
        ControlPromptRequest: {
            text: string;
            correlation_id?: string;
            /** @description accepted empty (the real system's client always sends it); svc takes no images or files */
            attachments?: unknown[];
        } & {
            [key: string]: unknown;
        };
        EventsPageResponse: {
            events: components["schemas"]["StreamEventEnvelope"][];
            oldest_seq: number | null;
            newest_seq: number | null;
            /** @description raw event-log high-watermark captured while serving */
            cursor_seq: number;
            /** @description an older matching event is retained; false at the start of the replay window, also when retention pruned older events */
            has_older: boolean;
            has_newer: boolean;
            /** @enum {string} */
            order: "asc" | "desc";
            limit: number;
        };
        StreamEventEnvelope: {
            /** @description audit event id (evt_ + ULID), not the SSE frame id */
            id: string;
            /** @description per-agent durable sequence number; equals the SSE id field */
            event_seq: number;
            /** @description RFC 3339 timestamp */
            ts: string;
            agent_id: string;
            /** @description raw audit event kind; equals the SSE event field */
            type: string;
            provenance: {
                [key: string]: unknown;
            } | null;
            payload: {
                [key: string]: unknown;
            };
        };
        BriefList: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            briefs: components["schemas"]["Brief"][];
        };
        Brief: {
            brief_id: string;
            agent_id: string;
            /** @enum {string} */
            kind: "acknowledgement" | "progress" | "result" | "failure";
            title: string;
            text: string;
            turn_id: string | null;
            message_id: string | null;
            work_item_id: string | null;
            failure_artifact: components["schemas"]["FailureArtifact"];
            created_at: string;
        };
        FailureArtifact: {
            /** @enum {string} */
            category: "transport" | "protocol" | "runtime" | "task" | "unknown";
            kind: string;
            summary: string;
            exit_status?: number | null;
            metadata?: {
                [key: string]: string;
            };
            model_ref?: string | null;
            provider?: string | null;
            task_id?: string | null;
            source_chain?: string[];
            status?: number | null;
        } | null;
        Conversation: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            /** @enum {string} */
            status: "idle" | "running" | "stopped" | "deleting";
            model: string;
            current_turn: components["schemas"]["CurrentTurn"];
            pending: number;
            /** @description the last `limit` visible entries, oldest first */
            history: {
                seq: number;
                /** @enum {string} */
                role: "user" | "assistant" | "tool";
                content: string;
                turn_id: string | null;
                message_id: string | null;
                created_at: string;
            }[];
        };
        TurnActivities: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            turn: {
                turn_id: string;
                agent_id: string;
                message_id: string;
                /** @enum {string} */
                status: "running" | "completed" | "failed" | "aborted" | "interrupted";
                model_ref: string;
                rounds: number;
                started_at: string;
                ended_at: string | null;
                error: {
                    [key: string]: unknown;
                } | null;
            };
            activities: {
                seq: number;
                /** @description model_round, tool_call, tool_result, interjected, failed, aborted */
                kind: string;
                payload: {
                    [key: string]: unknown;
                };
                created_at: string;
            }[];
        };
        Transcript: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            turn: {
                turn_id: string;
                message_id: string;
                status: string;
                round: number;
                started_at: string;
                ended_at: string | null;
            } | null;
            entries: {
                /** @enum {string} */
                role: "user" | "assistant" | "tool";
                content: string;
                message_id: string | null;
                turn_id: string | null;
                created_at: string;
            }[];
            /** @description text streamed so far in the running round (empty when no turn runs) */
            streaming_text: string;
        };
        DebugPromptRequest: {
            /** @description non-empty after trimming, else 400 empty_prompt */
            text: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        WakeResponse: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            /** @enum {string} */
            disposition: "woken" | "coalesced" | "ignored";
            /** @description the queued system_tick (woken only) */
            message_id?: string;
        };
        WakeRequest: {
            /** @description non-empty after trimming, else 400 empty_reason */
            reason: string;
            /** @description who asks (default "control") */
            source?: string;
        } & {
            [key: string]: unknown;
        };
        ControlResponse: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            /** @enum {string} */
            action: "stop" | "start";
            previous_status: string;
            status: string;
            aborted_turn_id: string | null;
        };
        ControlRequest: {
            /** @description `stop` or `start`; another value: 400 unknown_action */
            action: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        AbortResponse: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            turn_id: string;
            /** @enum {string} */
            mode: "stop_after_abort";
            requested_mode: string;
            status: string;
        };
        AbortRequest: {
            /** @description `stop_after_abort` (default) or its alias `pause_after_abort`; other values: 400 unknown_abort_mode */
            mode?: string;
        } & {
            [key: string]: unknown;
        };
        RuntimeStatus: {
            /** @enum {boolean} */
            ok: true;
            version: string;
            pid: number;
            started_at: string;
            uptime_seconds: number;
            home_dir: string;
            listen: string;
            socket: string;
            schema_version: number;
            auth: {
                /** @enum {string} */
                mode: "bearer" | "local";
                control_token_configured: boolean;
                read_access: string;
            };
            models: {
                default: string;
                providers: {
                    name: string;
                    kind: string;
                    base_url: string;
                    /** @description static models of the provider config; GET /api/models has the whole catalog */
                    models: string[];
                    api_key_env: string;
                    /** @description the credential store profile holding the key (empty: none) */
                    credential_profile: string;
                    /** @enum {string} */
                    api_key: "not_required" | "set" | "missing";
                }[];
            };
            agents: number;
            queue: {
                pending: number;
            };
            events: {
                total: number;
            };
            sse_clients: number;
            store: {
                commits: number;
                batched_writes: number;
            };
        };
        RuntimeConfigSurface: {
            /** @enum {boolean} */
            ok: true;
            config_path: string;
            /** @description the same path (the real system's name) */
            config_file_path: string;
            config_file_exists: boolean;
            home_dir: string;
            effective: {
                [key: string]: unknown;
            };
            startup_only_keys: string[];
            model_default: string;
            /** @description always empty: svc has no model fallbacks */
            model_fallbacks: string[];
            vision_default: null;
            image_generation_default: null;
            /** @description model ids of GET /api/models */
            model_catalog: string[];
            /** @enum {boolean} */
            unknown_model_fallback_configured: false;
            /**
             * @description svc never falls back to another provider
             * @enum {boolean}
             */
            disable_provider_fallback: true;
            providers: components["schemas"]["RuntimeProviderSummary"][];
            /** @description always empty: svc has no web search */
            available_search_provider_kinds: unknown[];
            web_search_providers: unknown[];
            runtime_surface: components["schemas"]["RuntimeSurface"];
        } & {
            [key: string]: unknown;
        };
        RuntimeProviderSummary: {
            id: string;
            /** @description the provider kind: openai or anthropic */
            transport: string;
            base_url: string;
            /** @enum {boolean} */
            oauth_supported: false;
            /** @enum {boolean} */
            api_key_supported: true;
            /** @enum {string} */
            credential_source: "profile" | "env" | "none";
            /** @enum {string} */
            credential_kind: "api_key" | "none";
            /** @description api_key_env (the key itself is never shown) */
            credential_env: string | null;
            /** @description credential_profile: a profile of GET /api/control/runtime/credentials */
            credential_profile: string | null;
            credential_configured: boolean;
            /** @enum {boolean} */
            configured_in_config: true;
        };
        RuntimeSurface: {
            config_path: string;
            /** @description the same path (the real system's name) */
            config_file_path: string;
            config_file_exists: boolean;
            home_dir: string;
            effective: {
                [key: string]: unknown;
            };
            startup_only_keys: string[];
            model_default: string;
            /** @description always empty: svc has no model fallbacks */
            model_fallbacks: string[];
            vision_default: null;
            image_generation_default: null;
            /** @description model ids of GET /api/models */
            model_catalog: string[];
            /** @enum {boolean} */
            unknown_model_fallback_configured: false;
            /**
             * @description svc never falls back to another provider
             * @enum {boolean}
             */
            disable_provider_fallback: true;
            providers: components["schemas"]["RuntimeProviderSummary"][];
            /** @description always empty: svc has no web search */
            available_search_provider_kinds: unknown[];
            web_search_providers: unknown[];
        };
        RuntimeConfigPatchResponse: {
            /** @enum {boolean} */
            ok: true;
            changed: boolean;
            results: {
                key: string;
                /** @enum {string} */
                effect: "accepted_requires_restart" | "rejected";
                reason: string;
            }[];
            runtime_surface: components["schemas"]["RuntimeSurface"];
        };
        RuntimeConfigPatch: {
            updates: {
                key: string;
                value?: unknown;
                /** @description true: remove the key from the config file (the real system's form); value is then ignored */
                unset?: boolean;
            }[];
        };
        TracesResponse: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            source: "ring" | "diagnostics";
            traces: components["schemas"]["TraceSummary"][];
            trace?: components["schemas"]["TraceSummary"];
            spans?: components["schemas"]["TraceSpan"][];
            ring: {
                size: number;
                capacity: number;
            };
            diagnostics: {
                retained: number;
                max_rows: number;
                slow_ms: number;
                sample_rate: number;
            };
            otlp: {
                enabled: boolean;
                queue_depth: number;
            };
        };
        TraceSummary: {
            trace_id: string;
            root_name: string;
            started_at: string;
            duration_ms: number;
            /** @enum {string} */
            status: "ok" | "error" | "cancelled";
            span_count: number;
            /**
             * @description diagnostics store only: why the trace was kept
             * @enum {string}
             */
            reason?: "failed" | "cancelled" | "slow" | "sampled";
            recorded_at?: string;
        };
        TraceSpan: {
            trace_id: string;
            span_id: string;
            parent_span_id: string | null;
            name: string;
            /** @enum {string} */
            kind: "internal" | "server";
            started_at: string;
            ended_at: string;
            duration_ms: number;
            /** @enum {string} */
            status: "ok" | "error" | "cancelled";
            status_message: string | null;
            attributes: {
                [key: string]: string | number | boolean;
            };
        };
        TraceResponse: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            source: "ring" | "diagnostics";
            trace: components["schemas"]["TraceSummary"];
            spans: components["schemas"]["TraceSpan"][];
        };
        CredentialListResponse: {
            /** @enum {boolean} */
            ok: true;
            profiles: components["schemas"]["CredentialProfile"][];
        };
        CredentialProfile: {
            profile: string;
            /** @enum {string} */
            kind: "api_key" | "bearer_token";
            /** @description false: named by the config but not stored (or just deleted) */
            configured: boolean;
            updated_at: string | null;
            /** @description what names this profile: config keys (providers.NAME.credential_profile, runtime.observability.otlp.credential_profile), inbox hosts (credentialRef) and sources (configRef credential:NAME, webhookSecretRef) */
            used_by: string[];
        };
        CredentialResponse: {
            /** @enum {boolean} */
            ok: true;
            profile: components["schemas"]["CredentialProfile"];
        };
        SetCredentialRequest: {
            /**
             * @description api_key (a provider key) or bearer_token (sent as Authorization: Bearer)
             * @enum {string}
             */
            kind: "api_key" | "bearer_token";
            /** @description the key or token; stored in <home>/credentials.json (0600) and never returned */
            material: string;
        };
        ModelCatalog: {
            /** @enum {boolean} */
            ok: true;
            available_models: components["schemas"]["CatalogModel"][];
            /** @description model id → usable (false for a provider whose last discovery failed) */
            model_availability: {
                [key: string]: boolean;
            };
            /** @description model.default: the model of agents without an override */
            default_model: string;
            providers: components["schemas"]["CatalogProvider"][];
        };
        CatalogModel: {
            /**
             * @description model ref: provider/model
             * @example ollama/llama3.2
             */
            id: string;
            /** @description the same model ref (the real system's name) */
            model: string;
            display_name: string;
            provider: string;
            /** @description builtin, openai or anthropic */
            kind: string;
            /**
             * @description builtin/echo; a static `models` entry of the provider config; or found by discovery
             * @enum {string}
             */
            source: "builtin" | "config" | "discovered";
        };
        CatalogProvider: {
            name: string;
            kind: string;
            base_url: string;
            /** @description false when the last discovery of this provider failed */
            available: boolean;
            discovered_at: string | null;
            last_attempt_at: string | null;
            last_error: {
                kind: string;
                message: string;
            } | null;
            /**
             * @description whether the key (api_key_env or credential_profile) is there; the key itself is never shown
             * @enum {string}
             */
            api_key: "not_required" | "set" | "missing";
        };
        ModelRefreshResult: {
            /** @enum {boolean} */
            ok: true;
            available_models: components["schemas"]["CatalogModel"][];
            /** @description model id → usable (false for a provider whose last discovery failed) */
            model_availability: {
                [key: string]: boolean;
            };
            /** @description model.default: the model of agents without an override */
            default_model: string;
            providers: components["schemas"]["CatalogProvider"][];
            /** @description providers asked this time (the others had a fresh cache) */
            refreshed: string[];
            errors: components["schemas"]["ModelDiscoveryError"][];
        };
        ModelDiscoveryError: {
            provider: string;
            kind: string;
            message: string;
            status: number | null;
        };
        ModelRefreshRequest: {
            /** @description ask every provider, ignoring the cache TTL */
            force?: boolean;
        };
        ModelOverrideResult: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            /** @description the effective model: the override, else model.default */
            model: string;
            model_override: string | null;
        };
        SetModelRequest: {
            /**
             * @description a model ref listed by GET /api/models (provider/model)
             * @example builtin/echo
             */
            model: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        ClearModelRequest: {
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        /** @description {ok, work_items} without `limit`; a bare array of work items with `limit` */
        WorkItemListResponse: components["schemas"]["WorkItemList"] | components["schemas"]["WorkItem"][];
        WorkItemList: {
            /** @enum {boolean} */
            ok: true;
            work_items: components["schemas"]["WorkItem"][];
        };
        /** @description `legacy_inline_plan` is write-only: it never appears in a response or an event. */
        WorkItem: {
            id: string;
            agent_id: string;
            objective: string;
            /**
             * @description `open` or `completed`; `completing` only in legacy records, which POST complete finalises
             * @enum {string}
             */
            state: "open" | "completed" | "completing";
            /** @enum {string} */
            plan_status: "draft" | "ready" | "needs_input";
            created_at: string;
            updated_at: string;
            blocked_by: string | null;
            plan_artifact: components["schemas"]["PlanArtifact"];
            recheck_at: string | null;
            recheck_consumed_at: string | null;
            result_summary: string | null;
            revision: number;
            todo_list: components["schemas"]["WorkItemTodo"][];
            workspace_id: string;
            completion: components["schemas"]["WorkItemCompletion"];
        };
        /** @description A plan file inside one of the agent's workspaces, set with PATCH plan_artifact, by the agent's attach_plan tool or from legacy_inline_plan on create (null: no plan). Captured when attached; every read stats the file and, when its size, mtime, ctime or inode changed, reads it again (at most 1048576 bytes), so hash, bytes, preview and updated_at describe the current content. Reads never change the record or append events. */
        PlanArtifact: {
            /** @description Absolute real path of the plan file (symlinks resolved), inside the workspace */
            path: string;
            /**
             * @description `sha256:<hex>` of the content
             * @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            hash: string;
            /** @description Size of the content */
            bytes: number;
            /** @description The file's modification time (mtime) as last read */
            updated_at: string;
            /** @description The first 2048 bytes of the content, cut back to a UTF-8 character boundary */
            preview: string;
            /** @description Whether the preview is the whole file */
            preview_complete: boolean;
            /** @description The agent whose workspace holds the file */
            owner_agent_id: string;
            /** @description Path relative to the workspace root, `/`-separated */
            relative_path: string;
            /** @description Always null: workspaces have no aliases yet */
            workspace_alias: string | null;
            /** @description `agent_home` or the `ws_` id of an attached workspace */
            workspace_id: string;
            /** @description When the file became the plan */
            attached_at: string;
            /** @description True when the file can no longer be read safely (deleted, no longer a regular file inside its workspace, over the size cap, workspace detached); the other fields are then as last read */
            stale: boolean;
        } | null;
        WorkItemTodo: {
            text: string;
            /** @enum {string} */
            state: "pending" | "in_progress" | "completed";
        };
        /** @description The completion intent bound when the item was completed (POST complete or the complete_work_item tool); null while open, and for items completed before completion intents were recorded. */
        WorkItemCompletion: {
            /** @description The report the item was completed with (a finalised legacy record keeps its summary) */
            result_summary: string | null;
            /**
             * @description `operator`: POST complete (control plane, CLI); `agent`: the complete_work_item tool
             * @enum {string}
             */
            completed_by: "operator" | "agent";
            completed_at: string;
            authority_class: string | null;
            /** @description The result brief made from the report; null when a legacy record was finalised without one */
            result_brief_id: string | null;
            /** @description Hash of the plan artifact at completion, as last read; null without a plan */
            plan_hash: string | null;
        } | null;
        /** @description objective must be non-empty after trimming (else 400 empty_objective). */
        CreateWorkItemRequest: {
            objective: string;
            /** @description Write-only. A non-blank plan is written to <agent home>/plans/<work_item_id>.md (mode 0600) and attached as plan_artifact (workspace agent_home); at most 262144 bytes (else 400 plan_too_large). Never returned. */
            legacy_inline_plan?: string | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        /** @description Any of the fields; an update with none of objective, plan_status, todo_list, blocked_by, recheck_after, plan_artifact is 400 empty_update. blocked_by: a string sets the blocker, null (or a blank string) clears it and cancels a pending recheck, omitted leaves it unchanged. recheck_after (ms) needs a non-empty blocker (400 recheck_requires_blocker); it sets recheck_at = now + recheck_after and clears recheck_consumed_at. plan_artifact {path, workspace_id?} attaches that file as the plan, null detaches it. Refused with 400 and nothing changed: plan_file_not_found (missing), plan_file_not_allowed (outside every workspace, through .. or a symlink, a directory or special file), plan_too_large (over 1048576 bytes). */
        PatchWorkItemRequest: {
            objective?: string;
            /** @enum {string} */
            plan_status?: "draft" | "ready" | "needs_input";
            todo_list?: components["schemas"]["WorkItemTodo"][];
            blocked_by?: string | null;
            recheck_after?: number;
            plan_artifact?: components["schemas"]["PlanLocation"];
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        };
        PlanLocation: {
            /**
             * @description Relative to the workspace (`..` must not leave it), or absolute inside one of the agent's workspaces; the real path (symlinks followed) must stay inside
             * @example plans/release.md
             */
            path: string;
            /** @description agent_home or a ws_ id (default: the active workspace; unknown: 404 workspace_not_found) */
            workspace_id?: string;
        } | null;
        PickWorkItemResponse: {
            current_work_item: components["schemas"]["WorkItem"];
            current_work_item_id: string;
            previous_work_item: components["schemas"]["WorkItem"] & (Record<string, never> | null);
            transition: {
                current_work_item_id: string;
                current_readiness: components["schemas"]["WorkItemReadiness"];
                /** @enum {string} */
                switch_kind: "initial_pick" | "same_work_item" | "focus_switch";
                /** @enum {string} */
                current_focus_mode: "runnable" | "inspection";
                previous_readiness: components["schemas"]["WorkItemReadiness"] & (string | null);
                previous_work_item_id: string | null;
                reason: string | null;
                warnings: {
                    code: string;
                    message: string;
                }[];
            };
        };
        /** @enum {string} */
        WorkItemReadiness: "runnable" | "waiting_for_operator" | "blocked" | "completed";
        PickWorkItemRequest: {
            reason?: string | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        };
        CompleteWorkItemRequest: {
            report_text: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        };
        TimerRecord: {
            timer_id: string;
            agent_id: string;
            /** @enum {string} */
            status: "active" | "cancelled" | "completed";
            duration_ms: number;
            interval_ms: number | null;
            summary: string | null;
            created_at: string;
            /** @description next firing (RFC 3339); null once cancelled or completed */
            next_fire_at: string | null;
            last_fired_at: string | null;
            fire_count: number;
        };
        /** @description No other properties are allowed: `after_ms`/`every_ms` (an older spelling) answer 400 invalid_request with a hint. */
        CreateTimerRequest: {
            /** @description delay before the first firing, in milliseconds */
            duration_ms: number;
            /** @description period of an interval timer after its first firing, at least 1000 ms; null, absent or 0: a one-shot timer */
            interval_ms?: number | null;
            /** @description what the timer is for; delivered with every tick */
            summary?: string | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        };
        CancelTimerRequest: {
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        };
        TaskStatusSnapshot: {
            task_id: string;
            kind: string;
            /** @enum {string} */
            status: "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted";
            created_at: string;
            updated_at: string;
            /** @enum {string} */
            wait_policy: "background";
            summary: string | null;
            parent_message_id: string | null;
            child_agent_id: string | null;
            child_observability: components["schemas"]["ChildObservability"];
            child_supervision: components["schemas"]["ChildSupervision"];
            command: {
                accepts_input: boolean | null;
                cmd: string | null;
                /** @description sha256 of cmd, hex */
                cmd_digest: string | null;
                exit_status: number | null;
                /** @description "tty" for a tty task, "stdin" for a task created with accepts_input, else null */
                input_target: string | null;
                login: boolean | null;
                /** @description file holding the combined stdout+stderr */
                output_path: string | null;
                promoted_from_exec_command: boolean | null;
                result_summary: string | null;
                shell: string | null;
                /** @description true while a tty task runs: a terminal can be re-attached by reading command.output_path (or …/output) and writing task input */
                terminal_reentry: boolean | null;
                /** @description the command runs in a pseudo-terminal */
                tty: boolean | null;
                /** @description the terminal size of a tty task; null without a terminal */
                terminal_size: {
                    cols: number;
                    rows: number;
                } | null;
                workdir: string | null;
            } | null;
        };
        /** @description derived on every read from the child's live state */
        ChildObservability: {
            /** @enum {string} */
            phase: "running" | "blocked" | "waiting" | "terminal";
            /** @enum {string|null} */
            blocked_reason: "managed_task_queued" | "managed_task_running" | "managed_task_cancelling" | "awaiting_managed_task" | null;
            /** @enum {string|null} */
            waiting_reason: "awaiting_operator_input" | "awaiting_external_change" | "awaiting_task_result" | "awaiting_timer" | null;
            current_work_item_id: string | null;
            last_progress_brief: string | null;
            last_result_brief: string | null;
            work_summary: string | null;
        } | null;
        ChildSupervision: {
            parent_agent_id: string;
            child_agent_id: string;
            supervision_task_id: string;
            /** @description always `supervision_task`: the task owns the worktree, not the child */
            cleanup_owner: string;
            /** @description always `parent_supervisor` */
            followup_target: string;
            child_work_item_id: string | null;
            parent_work_item_id: string | null;
            delegation_id: string | null;
            cleanup_status: string | null;
            /** @enum {string} */
            cleanup_policy: "auto" | "retain" | "remove";
            /** @enum {string|null} */
            workspace_mode: "inherit" | "worktree" | null;
            worktree: components["schemas"]["ChildWorktree"];
            /** @description follow-ups delivered through task input */
            followups: number;
        } | null;
        ChildWorktree: {
            projection_kind: string | null;
            worktree_path: string | null;
            worktree_branch: string | null;
            actual_branch: string | null;
            original_branch: string | null;
            original_cwd: string | null;
            /** @description the commit the worktree started from */
            base_commit: string | null;
            /** @description uncommitted changes plus files of commits since base_commit (at most 500) */
            changed_files: string[];
            retained_for_review: boolean | null;
            auto_cleaned_up: boolean | null;
            /** @description `active`, `retained`, `removing`, `removed` or `failed` */
            cleanup_status: string | null;
            cleanup_reason: string | null;
            cleanup_error: string | null;
            /** @description `deleted`, `failed`, `skipped` or null (not cleaned yet) */
            branch_cleanup_status: string | null;
            branch_cleanup_error: string | null;
        } | null;
        TaskOutputResult: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            retrieval_status: "success" | "timeout" | "not_ready";
            task: {
                task_id: string;
                kind: string;
                /** @enum {string} */
                status: "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted";
                /** @description the last tasks.output_preview_bytes of the output */
                output_preview: string;
                output_truncated: boolean;
                /** @description size of the whole output file */
                output_bytes: number;
                exit_status: number | null;
                result_summary: string | null;
                summary: string | null;
                failure_artifact: components["schemas"]["FailureArtifact"];
                artifacts: {
                    path: string;
                }[];
                output_artifact: number | null;
                child_supervision?: components["schemas"]["ChildSupervision"];
            };
        };
        CreateTaskRequest: components["schemas"]["CreateCommandTaskRequest"] | components["schemas"]["CreateChildAgentTaskRequest"];
        CreateCommandTaskRequest: {
            /**
             * @description absent or `command`: a command task
             * @enum {string}
             */
            kind?: "command";
            /** @description what the task is for; defaults to the command line */
            summary?: string | null;
            /**
             * @description run as `<shell> -c <cmd>`
             * @example echo hello
             */
            cmd: string;
            /** @description working directory (relative paths resolve against the agent's active workspace, the default); must exist, else 400 workdir_not_found */
            workdir?: string | null;
            /** @description shell path or name on PATH; default /bin/sh; else 400 shell_not_found */
            shell?: string | null;
            /** @description run `<shell> -lc <cmd>` (a login shell) */
            login?: boolean | null;
            /** @description give the command a stdin pipe that POST …/input writes to; a tty task always accepts input (false with tty: true is 400 invalid_request) */
            accepts_input?: boolean | null;
            /** @description run the command in a pseudo-terminal: it is the session leader with the terminal as its controlling tty and stdin/stdout/stderr; everything the terminal shows (escape sequences and the echo of input included) is appended to command.output_path; POST …/input types into it */
            tty?: boolean | null;
            /** @description terminal columns of a tty task (default 120); only with tty: true, else 400 invalid_request */
            cols?: number | null;
            /** @description terminal rows of a tty task (default 40); only with tty: true, else 400 invalid_request */
            rows?: number | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        CreateChildAgentTaskRequest: {
            /**
             * @description `child_agent` (or the seed's name `child_agent_task`): a supervised private child agent
             * @enum {string}
             */
            kind: "child_agent" | "child_agent_task";
            /**
             * @description the delegated instruction, the child's first message (kind internal_followup, origin task)
             * @example Add a --verbose flag to the CLI and answer with the files you changed
             */
            initial_message: string;
            /** @description what the task is for; defaults to the first line of initial_message */
            summary?: string | null;
            /**
             * @description `inherit` (default): the child works in the parent's active workspace; `worktree`: in a new `git worktree` of it on branch `svc/<task_id>` (400 worktree_unavailable outside a repository with a commit)
             * @enum {string|null}
             */
            workspace_mode?: "inherit" | "worktree" | null;
            /**
             * @description when the task finishes: `auto` (default) removes a worktree without changes and retains a changed one for review; `retain` keeps it; `remove` removes it. Stop and deletion of the child always remove it.
             * @enum {string|null}
             */
            worktree_cleanup?: "auto" | "retain" | "remove" | null;
            /** @description id of the child agent (default `child_<ulid>`); 409 child_agent_exists if taken */
            child_agent_id?: string | null;
            display_name?: string | null;
            /** @description template of the child agent */
            template?: string | null;
            /** @description creates a work item with this objective for the child and picks it */
            objective?: string | null;
            /** @description the parent's work item this delegation serves (404 if unknown) */
            parent_work_item_id?: string | null;
            /** @description caller-chosen id grouping delegations (default `dlg_<ulid>`) */
            delegation_id?: string | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        TaskInputResult: {
            /** @enum {boolean} */
            ok: true;
            task: components["schemas"]["TaskStatusSnapshot"];
            accepted_input: boolean;
            bytes_written: number | null;
            input_target: string | null;
            summary_text: string | null;
        };
        TaskInputRequest: {
            text: string;
            /** @description after writing, signal end of file: a stdin pipe is closed; a tty task gets the EOF character Ctrl-D (twice after a partial line) and its terminal stays open */
            eof?: boolean | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        TaskStopResult: {
            /** @enum {boolean} */
            ok: true;
            task: components["schemas"]["TaskStatusSnapshot"];
            force_stop_requested: boolean;
            /** @enum {string} */
            previous_status: "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted";
            /** @enum {string|null} */
            signal_sent: "SIGTERM" | "SIGKILL" | null;
            summary_text: string;
        };
        TaskStopRequest: {
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        CreateExternalTriggerResponse: {
            /** @enum {boolean} */
            ok: true;
            trigger_id: string;
            agent_id: string;
            /** @enum {string} */
            delivery_mode: "enqueue" | "wake";
            summary: string | null;
            /** @enum {string} */
            status: "active";
            created_at: string;
            /** @description The capability token: shown only in this response, stored only as a hash */
            token: string;
            /** @example /api/callbacks/enqueue/<token> */
            callback_path: string;
        };
        CreateExternalTriggerRequest: {
            /** @enum {string} */
            delivery_mode: "enqueue" | "wake";
            summary?: string | null;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        ExternalTrigger: {
            trigger_id: string;
            agent_id: string;
            /** @enum {string} */
            delivery_mode: "enqueue" | "wake";
            summary: string | null;
            /** @enum {string} */
            status: "active" | "revoked";
            created_at: string;
            revoked_at: string | null;
            last_used_at: string | null;
        };
        ExternalTriggerResponse: components["schemas"]["ExternalTrigger"] & {
            /** @enum {boolean} */
            ok: true;
        };
        OperatorBinding: {
            binding_id: string;
            agent_id: string;
            transport: string;
            operator_actor_id: string;
            default_route_id: string | null;
            delivery_callback_url: string | null;
            delivery_auth: {
                /** @enum {string} */
                kind: "bearer";
                /** @enum {string} */
                bearer_token: "[redacted]";
            } | null;
            has_credential: boolean;
            capabilities: {
                [key: string]: unknown;
            };
            provider: string | null;
            provider_identity_ref: string | null;
            metadata: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "active" | "inactive";
            created_at: string;
            updated_at: string;
        };
        /** @description Creates (201) or updates (200) by binding_id (generated bnd_... when absent). An update merges: named fields replace, others stay. A new binding needs transport and operator_actor_id. */
        OperatorBindingRequest: {
            binding_id?: string;
            /** @description Hyphen and underscore spellings are one transport; stored with underscores (remote-operator -> remote_operator) */
            transport?: string;
            operator_actor_id?: string;
            default_route_id?: string | null;
            /** Format: uri */
            delivery_callback_url?: string | null;
            delivery_auth?: components["schemas"]["DeliveryAuth"];
            capabilities?: {
                [key: string]: unknown;
            };
            provider?: string | null;
            provider_identity_ref?: string | null;
            metadata?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status?: "active" | "inactive";
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        /** @description {kind:"bearer", bearer_token} or {type:"bearer", token}; stored, never shown again (responses and events carry "[redacted]") */
        DeliveryAuth: ({
            /** @enum {string} */
            kind?: "bearer";
            /** @enum {string} */
            type?: "bearer";
            bearer_token?: string;
            token?: string;
        } & {
            [key: string]: unknown;
        }) | null;
        OperatorIngressRequest: {
            text: string;
            actor_id: string;
            binding_id: string;
            reply_route_id?: string | null;
            provider?: string | null;
            correlation_id?: string;
        } & {
            [key: string]: unknown;
        };
        WorkspaceEntry: {
            /** @example ws_01J9Z6J8Q4T8W1V2X3Y4Z5A6B7 */
            workspace_id: string;
            /** @description The path as attached (absolute, normalised) */
            path: string;
            /** @description Real path of the directory (symlinks resolved): the execution root */
            root: string;
            /** @enum {string} */
            kind: "directory" | "git";
            /** @enum {string} */
            root_kind: "agent_home" | "workspace";
            active: boolean;
            attached_at: string;
        };
        AttachWorkspaceRequest: {
            /**
             * @description An existing absolute directory
             * @example /home/me/project
             */
            path: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        ExitWorkspaceRequest: {
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        DetachWorkspaceRequest: {
            workspace_id: string;
            /** @enum {string|null} */
            authority_class?: "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence" | null;
        } & {
            [key: string]: unknown;
        };
        WorktreeSummary: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            workspace_id: string;
            path: string;
            is_git: boolean;
            worktrees: components["schemas"]["WorktreeEntry"][];
            error: string | null;
        };
        WorktreeEntry: {
            path: string;
            head: string | null;
            /** @description Short branch name; null when detached or bare */
            branch: string | null;
            bare: boolean;
            detached: boolean;
            locked: boolean;
            locked_reason: string | null;
            prunable: boolean;
            prunable_reason: string | null;
            is_main: boolean;
        };
        FileLocation: {
            workspace_id: string;
            execution_root_id: string;
            /** @description Relative to the execution root, `/`-separated; `.` for the root itself */
            path: string;
            absolute_path: string;
            /** @enum {string} */
            kind: "file" | "directory";
            /** @enum {string} */
            root_kind: "agent_home" | "workspace";
        };
        ResolveFileReferencesRequest: {
            references: ({
                /** @enum {string} */
                type: "workspace_uri";
                workspace_uri: string;
            } | {
                /** @enum {string} */
                type: "absolute_path";
                absolute_path: string;
            } | {
                /** @enum {string} */
                type: "relative_path";
                relative_path: string;
                /** @description Absolute path of a known base file (or directory); the reference is relative to its directory */
                base_path?: string;
                /** @description Resolve relative to this workspace root instead */
                workspace_id?: string;
            })[];
            /** @description Whose workspaces; default: the default agent */
            agent_id?: string;
        };
        DesktopCapabilities: {
            reveal_in_file_manager: boolean;
        };
        DesktopRevealRequest: {
            workspace_id: string;
            execution_root_id: string;
            /** @description Relative to the execution root */
            path: string;
            agent_id?: string;
        };
        SkillCatalogEntry: {
            /**
             * @description `user:<name>` or `workspace:<name>`
             * @example user:pdf-tools
             */
            skill_id: string;
            name: string;
            description: string;
            /** @description The skill directory (holding SKILL.md) */
            path: string;
            /** @enum {string} */
            scope: "user" | "workspace";
            /** @description user: the lock-file source (normalised URL#ref or local path), `unmanaged` when the lock file does not know it; workspace: the workspace root */
            source: string;
        };
        HolonSkillCatalogEntry: components["schemas"]["SkillCatalogEntry"] & {
            /** @description the root the skill comes from (= scope) */
            root_id: string;
            /** @description the skill directory name */
            skill_dir: string;
        };
        SkillDetail: components["schemas"]["SkillCatalogEntry"] & {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string|null} */
            mode: "copy" | "link" | null;
            frontmatter: {
                [key: string]: string;
            };
            /** @description SKILL.md after its frontmatter */
            content: string;
            files: string[];
            lock: components["schemas"]["SkillLockEntry"];
            skill: components["schemas"]["HolonSkillCatalogEntry"] & unknown;
        };
        SkillLockEntry: {
            source: string;
            /** @enum {string} */
            source_type: "local" | "git";
            url: string | null;
            ref: string | null;
            subdir: string | null;
            /** @enum {string} */
            mode: "copy" | "link";
            /** @description git: the installed commit; local: sha256 of the skill files */
            etag: string;
            installed_at: string;
            updated_at: string;
        } | null;
        AddSkillRequest: {
            /**
             * @description An absolute local directory; a git URL (file://, https://, ssh://) with optional #ref or #ref:sub/dir; or owner/repo[/path][@ref|#ref] (GitHub)
             * @example acme/skills/skills/pdf-tools@v1.2.0
             */
            source: string;
            /**
             * @description copy (default) or link (a symlink; local sources only)
             * @enum {string}
             */
            mode?: "copy" | "link";
        };
        RemoveSkillRequest: {
            name: string;
        };
        CheckSkillRequest: {
            /** @description answer for this skill alone */
            name?: string;
        };
        CreateJobRequest: {
            /**
             * @description the only job kind svc starts this way
             * @enum {string}
             */
            kind: "skill.install";
            params: {
                kind: {
                    /** @enum {string} */
                    kind: "local";
                    path: string;
                    /**
                     * @description linked: a symlink (local sources only); copied (default)
                     * @enum {string}
                     */
                    mode?: "linked" | "copied";
                } | {
                    /** @enum {string} */
                    kind: "remote";
                    package: string;
                    skill?: string;
                    /**
                     * @description linked: a symlink (local sources only); copied (default)
                     * @enum {string}
                     */
                    mode?: "linked" | "copied";
                } | {
                    /** @enum {string} */
                    kind: "builtin" | "named";
                    name: string;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        AgentSkillEntry: components["schemas"]["AgentSkill"] & {
            /** @description `<scope>:<name>` */
            skill_id: string;
            /** @description the root the skill comes from (= scope) */
            root_id: string;
            /** @description the skill directory name */
            skill_dir: string;
        };
        AgentSkill: {
            name: string;
            /** @enum {string} */
            scope: "agent" | "workspace" | "user";
            source: string;
            path: string;
            description: string | null;
            /** @description false when the skill directory is gone or its SKILL.md is broken */
            available: boolean;
            enabled_at: string;
        };
        EnableSkillRequest: {
            name: string;
            /** @description A private copy under the agent home (scope agent) */
            copy?: boolean;
            /**
             * @description the real system's spelling: copied = copy:true, linked = copy:false (copy wins when both are sent)
             * @enum {string}
             */
            mode?: "linked" | "copied";
        };
        DisableSkillRequest: {
            name: string;
        };
        AgentSkillDetail: components["schemas"]["AgentSkillEntry"] & {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            skill: components["schemas"]["AgentSkillEntry"];
            /** @description SKILL.md after its frontmatter; empty when the skill is unavailable */
            content: string;
        };
        InstallSkillRequest: {
            source?: string;
            name?: string;
            /** @enum {string} */
            mode?: "copy" | "link";
            copy?: boolean;
        };
        BatchGetMessagesResponse: {
            /** @description the message records (as the queue keeps them) with `id` = message_id */
            messages: {
                [key: string]: unknown;
            }[];
            /** @description unknown ids and ids of another agent's messages */
            missing_message_ids: string[];
        };
        BatchGetMessagesRequest: {
            /**
             * @description message ids (at most 256; repeats are read once)
             * @default []
             */
            message_ids: string[];
        } & {
            [key: string]: unknown;
        };
        BatchGetTranscriptEntriesResponse: {
            entries: {
                id: string;
                agent_id: string;
                seq: number;
                /** @enum {string} */
                role: "user" | "assistant" | "tool";
                turn_id: string | null;
                message_id: string | null;
                created_at: string;
                content: string;
                data: {
                    text: string;
                };
            }[];
            missing_entry_ids: string[];
        };
        BatchGetTranscriptEntriesRequest: {
            /**
             * @description transcript entry (`hst_<seq>`) ids (at most 256; repeats are read once)
             * @default []
             */
            entry_ids: string[];
        } & {
            [key: string]: unknown;
        };
        BatchGetBriefsResponse: {
            /** @description the brief records with `id` = brief_id */
            briefs: {
                [key: string]: unknown;
            }[];
            missing_brief_ids: string[];
        };
        BatchGetBriefsRequest: {
            /**
             * @description brief ids (at most 256; repeats are read once)
             * @default []
             */
            brief_ids: string[];
        } & {
            [key: string]: unknown;
        };
        AgentProjectionSnapshot: {
            /** @enum {number} */
            contract_version: 1;
            /** @description stable public identity of this installation (its home directory) */
            runtime_id: string;
            visibility_scope_id: string;
            /** @description fixed for the home directory: svc never resets its event logs as a whole */
            event_log_epoch: string;
            agent_id: string;
            snapshot_through_seq: number;
            event_head_seq: number;
            oldest_retained_seq: number | null;
            projection: {
                agent: components["schemas"]["AgentListEntry"];
                conversation: {
                    latest_message_id: string | null;
                    latest_transcript_entry_id: string | null;
                };
                current_work_item: {
                    work_item_id: string;
                    state: string;
                    plan_status: string;
                    revision: number;
                    updated_at: string;
                } | null;
                hydration_references: {
                    record_kind: string;
                    record_id: string;
                }[];
                hydration_tombstones: {
                    record_kind: string;
                    record_id: string;
                }[];
                latest_brief: {
                    brief_id: string;
                    created_at: string;
                    /** @description the brief_created event, null when no retained event links it */
                    created_event_seq: number | null;
                    /** @description at most 512 bytes of the brief text */
                    preview: string;
                } | null;
            };
        };
        AgentRosterSnapshot: {
            /** @enum {number} */
            contract_version: 1;
            /** @description stable public identity of this installation (its home directory) */
            runtime_id: string;
            visibility_scope_id: string;
            /** @description fixed for the home directory: svc never resets its event logs as a whole */
            event_log_epoch: string;
            agents: {
                agent: components["schemas"]["AgentListEntry"];
                event_window: {
                    event_head_seq: number;
                    oldest_retained_seq: number | null;
                };
                latest_brief: {
                    brief_id: string;
                    created_at: string;
                    /** @description the brief_created event, null when no retained event links it */
                    created_event_seq: number | null;
                    /** @description at most 512 bytes of the brief text */
                    preview: string;
                } | null;
            }[];
        };
        SearchResponse: {
            query: string;
            limit: number;
            results: {
                /** @enum {string} */
                result_type: "message";
                /** @enum {string} */
                type: "message";
                agent_id: string;
                /** @description the event kind the text is from */
                kind: string;
                /** @description `event:<agent_id>:<event_seq>`; POST /api/memory/get reads the whole text */
                source_ref: string;
                preview: string;
                created_at: string;
                locator: {
                    evidence_id: string;
                    event_seq: number;
                    message_id: string | null;
                    turn_id: string | null;
                    task_id: string | null;
                    work_item_id: string | null;
                };
            }[];
        };
        SearchRequest: {
            /** @description non-empty after trimming; matched as a case-insensitive substring */
            query: string;
            /** @description agents to search (each must exist); default every public agent */
            agent_ids?: string[];
            /** @description accepted; svc searches agents, not workspaces */
            include_all_workspaces?: boolean;
            limit?: number;
            /** @description result types; every result is `message` */
            types?: string[];
        } & {
            [key: string]: unknown;
        };
        MemoryGetResult: {
            kind: string;
            source_ref: string;
            title: string;
            content: string;
            truncated: boolean;
            updated_at: string;
        };
        MemoryGetRequest: {
            source_ref: string;
            max_chars?: number;
        } & {
            [key: string]: unknown;
        };
        TemplateCatalog: {
            /** @enum {boolean} */
            ok: true;
            catalog: components["schemas"]["TemplateCatalogEntry"][];
            /** @description always empty: svc has no remote template sources */
            sources: unknown[];
            diagnostics: unknown[];
        };
        TemplateCatalogEntry: {
            catalog_id: string;
            /** @description the name to pass as `template` of POST /api/control/agents/:id/create */
            template: string;
            template_id: string;
            name: string;
            /**
             * @description built into svc, or a directory under <home>/templates
             * @enum {string}
             */
            source: "builtin" | "user_global";
            path: string | null;
            /** @description the first paragraph of its AGENTS.md or AGENT.md */
            description: string;
            included_skills: string[];
        };
        TemplateDetail: {
            /** @enum {boolean} */
            ok: true;
            detail: components["schemas"]["TemplateCatalogEntry"] & {
                source_location: string;
                summary: string;
                /** @description AGENTS.md (else AGENT.md) of the template, at most 64 KiB */
                agents_md: string;
                /** @description INITIAL_MESSAGE.md of a directory template */
                initial_message: string | null;
                skills: {
                    kind: string;
                    reference: string;
                }[];
            };
        };
        Health: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            status: "ok";
        };
        InboxStatus: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            service: "svc-inbox";
            version: string;
            pid: number;
            startedAt: string;
            uptimeSeconds: number;
            socket: string;
            port: number | null;
            counts: components["schemas"]["InboxCounts"];
        };
        InboxCounts: {
            sources: {
                total: number;
                active: number;
                error: number;
                paused: number;
                autoPaused: number;
            };
            /** @description sources in the error state, with the last error and when it was recorded */
            sourceErrors: {
                sourceId: string;
                error: string;
                at: string;
            }[];
            subscriptions: number;
            agents: {
                total: number;
                deliveryPaused: number;
            };
            targets: {
                total: number;
                active: number;
                offline: number;
            };
            notifications: {
                /** @description queued or waiting for a retry */
                pending: number;
            };
            entries: {
                unacked: number;
            };
            timers: {
                active: number;
            };
        };
        HostList: {
            hosts: components["schemas"]["Host"][];
        };
        Host: {
            hostId: string;
            /** @enum {string} */
            hostType: "local_event" | "remote_source" | "github";
            hostKey: string;
            config: {
                [key: string]: unknown;
            };
            createdAt: string;
        };
        CreateHostRequest: {
            /**
             * @description the type of every source on this host
             * @enum {string}
             */
            hostType: "local_event" | "remote_source" | "github";
            hostKey: string;
            /** @description provider/runtime host configuration, checked against the type's JSON Schema (GET /hosts/{hostId}/schema; 400 invalid_request naming the field): local_event free-form; remote_source free-form with credentialRef?: a credential profile; github {apiBaseUrl?, credentialRef?}. Default {} */
            config?: {
                [key: string]: unknown;
            };
        };
        /** @description JSON Schemas (draft 2020-12) of the host config and of the config of sources on this host type */
        HostSchema: {
            hostId: string;
            /** @enum {string} */
            hostType: "local_event" | "remote_source" | "github";
            hostConfigSchema: {
                [key: string]: unknown;
            };
            sourceConfigSchema: {
                [key: string]: unknown;
            };
        };
        SourceList: {
            sources: components["schemas"]["Source"][];
        };
        Source: {
            /** @description also the public stream id */
            sourceId: string;
            hostId: string;
            /**
             * @description the host's hostType
             * @enum {string}
             */
            sourceType: "local_event" | "remote_source" | "github";
            streamKind: string;
            streamKey: string;
            config: {
                [key: string]: unknown;
            };
            configRef: string | null;
            /** @enum {string} */
            state: "active" | "paused" | "error";
            /** @description why the last module call failed (remote sources) */
            error: string | null;
            idleState: components["schemas"]["SourceIdleState"];
            /** @description remote_source: the cursor the module returned last (null before the first poll) */
            cursor?: unknown;
            createdAt: string;
            updatedAt: string;
        };
        /** @description managed remote sources without subscriptions (since creation or since the last one was removed) */
        SourceIdleState: {
            /** @enum {string} */
            state: "waiting" | "auto_paused";
            since: string;
            /** @description when a waiting source will be paused */
            pauseAt: string | null;
        } | null;
        CreateSourceRequest: {
            hostId: string;
            streamKind: string;
            streamKey: string;
            /** @description provider-specific; remote_source: {modulePath (required), moduleConfig? (checked against the module's configSchema), pollIntervalMs? (default 60000, >= 1000), pollTimeoutMs? (default 30000)}; github: {owner?, repo? (default: streamKey owner/repo), resources?, since?, perPage?, maxPages?, pollIntervalMs?, pollTimeoutMs?, webhookSecretRef?}; default {} */
            config?: {
                [key: string]: unknown;
            };
            /** @description a reference to configuration kept elsewhere, handed to remote modules; `credential:<profile>` names a credential profile whose secret the module gets (instead of the host's credentialRef) */
            configRef?: string | null;
        };
        SourceDetail: {
            /** @description also the public stream id */
            sourceId: string;
            hostId: string;
            /**
             * @description the host's hostType
             * @enum {string}
             */
            sourceType: "local_event" | "remote_source" | "github";
            streamKind: string;
            streamKey: string;
            config: {
                [key: string]: unknown;
            };
            configRef: string | null;
            /** @enum {string} */
            state: "active" | "paused" | "error";
            /** @description why the last module call failed (remote sources) */
            error: string | null;
            idleState: components["schemas"]["SourceIdleState"];
            /** @description remote_source: the cursor the module returned last (null before the first poll) */
            cursor?: unknown;
            createdAt: string;
            updatedAt: string;
            streamStats: components["schemas"]["StreamStats"];
        };
        /** @description null while no event was ever appended */
        StreamStats: {
            /** @description identity rows, including pruned events */
            eventCount: number;
            replayableEventCount: number;
            prunedEventCount?: number;
            prunedThroughOffset?: number;
            /** @description first offset whose payload is kept (highWatermarkOffset + 1 when none is) */
            retainedFromOffset: number;
            /** @description last assigned offset; 0 for an empty stream */
            highWatermarkOffset: number;
        } | null;
        /** @description JSON Schemas (draft 2020-12 unless they say otherwise) of the source config for its type and of an appended event */
        SourceSchema: {
            sourceId: string;
            /** @enum {string} */
            sourceType: "local_event" | "remote_source" | "github";
            /** @description the source config; for remote_source with the module's configSchema as properties.moduleConfig */
            configSchema: {
                [key: string]: unknown;
            };
            eventSchema: {
                [key: string]: unknown;
            };
            /** @description remote_source: the JSON Schema the module exports as configSchema (null when it exports none, or for other types) */
            moduleConfigSchema: {
                [key: string]: unknown;
            } | null;
            /** @description remote_source: why the module cannot be loaded now (null when it can) */
            moduleError: string | null;
        };
        PatchSourceRequest: {
            config?: {
                [key: string]: unknown;
            };
            configRef?: string | null;
        };
        SourceDeleted: {
            sourceId: string;
            /** @enum {boolean} */
            deleted: true;
            /**
             * @description AgentInbox's name for deleted
             * @enum {boolean}
             */
            removed: true;
            /** @description subscriptions removed with the source */
            removedSubscriptions: number;
            /** @description a managed remote source stopped polling as part of removing it with its subscriptions */
            pausedSource: boolean;
        };
        SourcePollResult: {
            sourceId: string;
            appended: number;
            deduped: number;
            /** @enum {string} */
            state: "active" | "paused" | "error";
        };
        /** @description A superset of AgentInbox's answer {appended, deduped, lastOffset}. */
        AppendEventsResult: {
            appended: number;
            /** @description events whose id was already stored on this stream (stored once) */
            deduped: number;
            firstOffset: number | null;
            lastOffset: number | null;
        };
        /** @description one event, {events: [...]} (1 to 10000), or one event in AgentInbox's form {sourceNativeId, eventVariant, occurredAt?, metadata?, rawPayload?} */
        AppendEventsRequest: components["schemas"]["InboxEventInput"] | {
            events: components["schemas"]["InboxEventInput"][];
        } | components["schemas"]["NativeEventInput"];
        /** @description CloudEvents-shaped. id: idempotency key per stream (generated when absent); time: RFC 3339 with offset (default: append time), read back in UTC. */
        InboxEventInput: {
            id?: string;
            type: string;
            subject?: string | null;
            /** Format: date-time */
            time?: string | null;
            data?: unknown;
            metadata?: {
                [key: string]: unknown;
            };
        };
        /** @description AgentInbox's form of one event: stored as {id: '<eventVariant>:<sourceNativeId>' (':' and '%' in the variant escaped), type: eventVariant, time: occurredAt, data: rawPayload, metadata}. Repeating sourceNativeId + eventVariant is deduplicated. */
        NativeEventInput: {
            sourceNativeId: string;
            eventVariant: string;
            /**
             * Format: date-time
             * @description RFC 3339 with offset; default: append time
             */
            occurredAt?: string;
            metadata?: {
                [key: string]: unknown;
            };
            /** @description the provider payload: the event data */
            rawPayload?: {
                [key: string]: unknown;
            };
        };
        StreamDetail: {
            streamId: string;
            sourceId: string;
            hostId: string;
            /** @enum {string} */
            sourceType: "local_event" | "remote_source" | "github";
            streamKind: string;
            streamKey: string;
            /** @enum {string} */
            state: "active" | "paused" | "error";
            /** @description stream backend name (sqlite) */
            backend: string;
            /** @description whether the backend supports compaction */
            compaction: boolean;
            idleState: components["schemas"]["SourceIdleState"] & unknown;
            streamStats: components["schemas"]["StreamStats"] & unknown;
        };
        CompactionPreview: {
            streamId: string;
            retentionMs: number;
            cutoff: string;
            consumers: number;
            /** @enum {string|null} */
            skipReason: "no_consumers" | null;
            scanLimit: number;
            scanned: number;
            scanComplete: boolean;
            eligibleEvents: number;
            eligibleBytes: number;
            firstEligibleOffset: number | null;
            lastEligibleOffset: number | null;
            largestEventBytes: number;
            streamStats: components["schemas"]["StreamStats"] & unknown;
        };
        CompactionPreviewRequest: {
            /** @description events appended at least this long ago are eligible */
            retentionMs: number;
            /** @description events scanned at most (default 10000, at most 100000) */
            scanLimit?: number;
        };
        CompactionResult: {
            streamId: string;
            committedBatches: number;
            prunedEvents: number;
            prunedBytes: number;
            retainedFromOffset: number;
            highWatermarkOffset: number;
            nextOffset: number;
            hasMore: boolean;
            /** @enum {string} */
            stopReason: "completed" | "max_events" | "oversized" | "no_consumers";
        };
        /** @description Unknown options (including the preview-only scanLimit) answer 400. */
        CompactionApplyRequest: {
            /**
             * @description required; false or missing answers 400
             * @enum {boolean}
             */
            apply: true;
            /** @description events appended at least this long ago are eligible */
            retentionMs: number;
            /** @description events per batch (one transaction); default and upper bound 1000 */
            batchSize?: number;
            /** @description events pruned by this call; default and upper bound 100000 */
            maxEvents?: number;
            /** @description logical payload bytes per batch; one larger event stops the run with oversized; default and upper bound 8388608 */
            maxPayloadBytes?: number;
        };
        /** @description With includeTargets each agent also has agent (the record with status) and activationTargets. */
        InboxAgentList: {
            agents: (components["schemas"]["InboxAgent"] & {
                agent?: components["schemas"]["InboxAgentRecord"];
                activationTargets?: components["schemas"]["Target"][];
            })[];
        };
        /** @description the agent's own aggregation policy; absent: the default coalesce {windowMs: 250} */
        AggregationPolicy: {
            /** @enum {string} */
            mode: "immediate";
        } | {
            /** @enum {string} */
            mode: "coalesce";
            windowMs: number;
            maxEntries: number | null;
        } | {
            /** @enum {string} */
            mode: "digest";
            every: number | null;
            cron: string | null;
            timezone: string;
            maxEntries: number;
        };
        /** @description svc's agent with AgentInbox's status and runtime fields */
        InboxAgentRecord: components["schemas"]["InboxAgent"] & {
            /**
             * @description always active: svc inbox agents have no offline state (see deliveryPaused and each target status)
             * @enum {string}
             */
            status: "active";
            /** @description runtime of the terminal session the agent is bound to (codex, claude_code), else unknown */
            runtimeKind: string;
            /** @description that session id, else null */
            runtimeSessionId: string | null;
        };
        InboxAgent: {
            agentId: string;
            name: string | null;
            deliveryPaused: boolean;
            createdAt: string;
            aggregation?: components["schemas"]["AggregationPolicy"];
        };
        /** @description An activation target. Webhook secrets never appear here (only in the creation answer). */
        Target: {
            targetId: string;
            agentId: string;
            /** @enum {string} */
            kind: "webhook" | "terminal" | "runtime";
            url: string | null;
            tmuxTarget: string | null;
            tmuxSocket: string | null;
            runtimeAgentId: string | null;
            /**
             * @description AgentInbox terminal fields, which its client matches to find the current agent: tmux for every terminal target
             * @enum {string|null}
             */
            backend: "tmux" | null;
            /** @description the pane when tmuxTarget is a pane id (%N) of the daemon's tmux server (no tmuxSocket) */
            tmuxPaneId: string | null;
            /** @description a terminal registration: the runtime in the terminal (codex, claude_code, unknown); null for targets added by hand */
            runtimeKind: string | null;
            runtimeSessionId: string | null;
            runtimePid: number | null;
            tty: string | null;
            termProgram: string | null;
            itermSessionId: string | null;
            /**
             * @description offline after a 410 or delivery.max_failures consecutive failures; no attempts until resumed
             * @enum {string}
             */
            status: "active" | "offline";
            /** @description `gone` (410, or the runtime agent was deleted) or `max_failures` */
            offlineReason: string | null;
            consecutiveFailures: number;
            lastError: string | null;
            /** @description highest entry id in a delivered notification */
            notifiedThroughEntryId: string | null;
            lastAttemptAt: string | null;
            lastSuccessAt: string | null;
            aggregation: components["schemas"]["AggregationPolicy"] & unknown;
            createdAt: string;
            updatedAt: string;
        };
        /** @description svc's agent; a registration (a body with agentId, webhook or backend) adds AgentInbox's fields agent, webhookTarget, terminalTarget and activationChannel. */
        CreatedInboxAgent: components["schemas"]["InboxAgent"] & {
            agent?: components["schemas"]["InboxAgentRecord"];
            /** @description the webhook target of the registration; its secret only when it was created by this request */
            webhookTarget?: components["schemas"]["Target"] & ({
                /** @description webhook targets: the signing secret, shown this once */
                secret?: string;
            } | null);
            /** @description the terminal target bound to the registering terminal */
            terminalTarget?: {
                targetId: string;
                agentId: string;
                /** @enum {string} */
                kind: "webhook" | "terminal" | "runtime";
                url: string | null;
                tmuxTarget: string | null;
                tmuxSocket: string | null;
                runtimeAgentId: string | null;
                /**
                 * @description AgentInbox terminal fields, which its client matches to find the current agent: tmux for every terminal target
                 * @enum {string|null}
                 */
                backend: "tmux" | null;
                /** @description the pane when tmuxTarget is a pane id (%N) of the daemon's tmux server (no tmuxSocket) */
                tmuxPaneId: string | null;
                /** @description a terminal registration: the runtime in the terminal (codex, claude_code, unknown); null for targets added by hand */
                runtimeKind: string | null;
                runtimeSessionId: string | null;
                runtimePid: number | null;
                tty: string | null;
                termProgram: string | null;
                itermSessionId: string | null;
                /**
                 * @description offline after a 410 or delivery.max_failures consecutive failures; no attempts until resumed
                 * @enum {string}
                 */
                status: "active" | "offline";
                /** @description `gone` (410, or the runtime agent was deleted) or `max_failures` */
                offlineReason: string | null;
                consecutiveFailures: number;
                lastError: string | null;
                /** @description highest entry id in a delivered notification */
                notifiedThroughEntryId: string | null;
                lastAttemptAt: string | null;
                lastSuccessAt: string | null;
                aggregation: components["schemas"]["AggregationPolicy"] & unknown;
                createdAt: string;
                updatedAt: string;
            } | null;
            /** @enum {string|null} */
            activationChannel?: "webhook" | "terminal" | null;
        };
        /** @description {name?} creates an agent with a generated id (201). AgentInbox's registrations create the agent (201) or return it (200): {agentId, forceRebind?, webhook: {url}} with its webhook target; {backend: "tmux", tmuxPaneId, runtimeKind?, runtimeSessionId?, …, agentId?, forceRebind?} bound to that terminal through a terminal target. */
        CreateInboxAgentBody: {
            name?: string | null;
            /** @description a chosen id (^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, else 400 invalid_agent_id) instead of a generated agt_ id; an existing agent with it is returned unchanged (200) */
            agentId?: string;
            /** @description terminal registration: move the binding when this terminal is bound to another agent, or this agent to another terminal (else 409 registration_conflict) */
            forceRebind?: boolean;
            /** @description a webhook target for this URL, created unless the agent has one for exactly this URL (existing targets are never changed) */
            webhook?: {
                /**
                 * Format: uri
                 * @description http(s) URL that receives the signed POST
                 */
                url: string;
                /**
                 * @description the only mode svc has: notifications carry the entries
                 * @enum {string}
                 */
                activationMode?: "activation_with_items";
            };
            aggregation?: components["schemas"]["AggregationPolicyBody"];
            /**
             * @description a registration from inside a terminal; svc serves tmux (iterm2: 400 terminal_backend_unsupported)
             * @enum {string}
             */
            backend?: "tmux" | "iterm2";
            /** @description the pane ($TMUX_PANE) the terminal target types into, on the daemon's tmux server */
            tmuxPaneId?: string;
            /** @description codex, claude_code or unknown (default) */
            runtimeKind?: string;
            /** @description the runtime session (a Codex thread, a Claude Code session): the terminal identity, followed across panes */
            runtimeSessionId?: string;
            runtimePid?: number;
            tty?: string;
            termProgram?: string;
            itermSessionId?: string;
        };
        /** @description the new agent's aggregation policy (an existing agent keeps its own: PATCH /agents/{agentId}) */
        AggregationPolicyBody: {
            /** @enum {string} */
            mode: "immediate";
        } | {
            /** @enum {string} */
            mode: "coalesce";
            /** @description the window the first new entry opens (0 to 3600000); it is never extended */
            windowMs: number;
            /** @description the window closes early once this many entries wait (AgentInbox maxItems); absent: only the window */
            maxEntries?: number | null;
        } | {
            /** @enum {string} */
            mode: "digest";
            /** @description the period in milliseconds (at least 60000), counted from when the policy takes effect for the target */
            every?: number;
            /** @description 5-field cron expression of the period boundaries, evaluated in timezone across DST changes; invalid: 400 invalid_cron */
            cron?: string;
            /** @description IANA time zone of cron (default: the daemon host zone); invalid: 400 invalid_timezone */
            timezone?: string;
            /** @description entries a digest lists (default 50); all are counted */
            maxEntries?: number;
        };
        InboxAgentDeleted: {
            agentId: string;
            /** @enum {boolean} */
            deleted: true;
        };
        SubscriptionList: {
            subscriptions: components["schemas"]["Subscription"][];
        };
        Subscription: {
            subscriptionId: string;
            agentId: string;
            sourceId: string;
            filter: {
                [key: string]: unknown;
            };
            trackedResourceRef: string | null;
            cleanupPolicy: {
                /** @enum {string} */
                mode: "manual" | "at" | "on_terminal" | "on_terminal_or_at";
                at: string | null;
                gracePeriodSecs: number | null;
            };
            /** @enum {string} */
            startPolicy: "latest" | "earliest" | "at_offset" | "at_time";
            startOffset: number | null;
            startTime: string | null;
            consumedOffset: number;
            terminalAt: string | null;
            removeAt: string | null;
            createdAt: string;
            /** @description events the CEL filter went over its cost limit on (not matched), since the daemon started; null: none */
            filterError: {
                /** @enum {string} */
                code: "filter_too_costly";
                message: string;
                /** @description when the last such event was seen */
                at: string;
                /** @description the last such event */
                offset: number;
                /** @description how many since the daemon started */
                events: number;
            } | null;
        };
        CreateSubscriptionBody: {
            agentId: string;
            sourceId?: string;
            /** @description instead of sourceId: subscribe to every source of the host */
            shortcut?: {
                /** @enum {string} */
                name: "host";
                args: {
                    hostId: string;
                };
            };
            filter?: components["schemas"]["SubscriptionFilter"];
            trackedResourceRef?: string | null;
            /** @description default {mode: manual}; on_terminal modes need trackedResourceRef */
            cleanupPolicy?: {
                /** @enum {string} */
                mode: "manual" | "at" | "on_terminal" | "on_terminal_or_at";
                /**
                 * Format: date-time
                 * @description required with at and on_terminal_or_at
                 */
                at?: string | null;
                /** @description delay after the terminal signal (default 0) */
                gracePeriodSecs?: number | null;
            };
            /**
             * @description default latest
             * @enum {string}
             */
            startPolicy?: "latest" | "earliest" | "at_offset" | "at_time";
            /** @description with at_offset: first offset consumed */
            startOffset?: number;
            /**
             * Format: date-time
             * @description with at_time: first event whose time is at or after it
             */
            startTime?: string;
        };
        /** @description {} matches everything; an event must pass every part given. Other keys: 400 invalid_filter. */
        SubscriptionFilter: {
            /** @description dot path over the event (type, subject, id, time, data.*, metadata.*) -> value, or array of values (any of) */
            match?: {
                [key: string]: string | number | boolean | null | (string | number | boolean | null)[];
            };
            /** @description CEL expression over `event`, compiled at creation (invalid: 400 invalid_filter; comprehensions nested more than 2 deep: 400 filter_too_costly); run with a cost limit */
            expr?: string;
            /** @description AgentInbox's block: dot path over event.metadata -> wanted value (an object matches key by key, an array any of its values, or all of them when the actual value is an array) */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description AgentInbox's block, as metadata but over event.data (its raw payload) */
            payload?: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        SubscriptionDeleted: {
            subscriptionId: string;
            /** @enum {boolean} */
            deleted: true;
        };
        SubscriptionLag: {
            subscriptionId: string;
            sourceId: string;
            consumedOffset: number;
            retainedFromOffset: number;
            highWatermarkOffset: number;
            lag: number;
        };
        SubscriptionCatchUp: components["schemas"]["SubscriptionLag"] & {
            materialized: number;
        };
        PollSubscriptionBody: Record<string, never>;
        ResetSubscriptionBody: {
            /** @description next offset to consume */
            offset?: number;
            /**
             * @description default latest
             * @enum {string}
             */
            startPolicy?: "latest" | "earliest" | "at_offset" | "at_time";
            /** @description with at_offset: first offset consumed */
            startOffset?: number;
            /**
             * Format: date-time
             * @description with at_time: first event whose time is at or after it
             */
            startTime?: string;
        };
        InboxSummary: {
            agentId: string;
            unackedCount: number;
            latestEntryId: string | null;
            deliveryPaused: boolean;
        };
        InboxPage: {
            entries: components["schemas"]["InboxEntry"][];
            nextCursor: string | null;
        };
        InboxEntry: {
            entryId: string;
            agentId: string;
            /** @enum {string} */
            kind: "event" | "direct" | "timer";
            subscriptionId: string | null;
            sourceId: string | null;
            offset: number | null;
            event: components["schemas"]["InboxEntryEvent"];
            sender: string | null;
            message: string | null;
            scheduleId: string | null;
            createdAt: string;
            ackedAt: string | null;
        };
        InboxEntryEvent: {
            sourceId: string;
            offset: number;
            id: string;
            type: string;
            subject: string | null;
            time: string;
            data?: unknown;
            metadata: {
                [key: string]: unknown;
            };
            appendedAt: string;
            pruned: boolean;
        } | null;
        DirectItemBody: {
            message: string;
            sender?: string | null;
        };
        AckResult: {
            acked: number;
        };
        AckBody: {
            throughEntryId?: string;
            entryIds?: string[];
            /** @enum {boolean} */
            all?: true;
        };
        CompactInboxResult: {
            agentId: string;
            removed: number;
        };
        CompactInboxBody: Record<string, never>;
        TargetList: {
            targets: components["schemas"]["Target"][];
        };
        /** @description An activation target. Webhook secrets never appear here (only in the creation answer). */
        CreatedTarget: components["schemas"]["Target"] & {
            /** @description webhook targets: the signing secret, shown this once */
            secret?: string;
        };
        /** @description webhook {url, secret?}, terminal {tmuxTarget, tmuxSocket?} or runtime {runtimeAgentId}, each with an optional aggregation policy of its own (default: the agent's). A runtime target naming an unknown control-plane agent: 400 runtime_agent_not_found. */
        CreateTargetBody: {
            /** @enum {string} */
            kind: "webhook";
            /**
             * Format: uri
             * @description http(s) URL that receives the signed POST
             */
            url: string;
            /** @description Standard Webhooks signing secret; generated when absent and returned once, in this answer only */
            secret?: string;
            aggregation?: components["schemas"]["AggregationPolicyBody"] & unknown;
        } | {
            /** @enum {string} */
            kind: "terminal";
            /** @description tmux target pane, e.g. `work:0.1` or `%3` */
            tmuxTarget: string;
            /** @description tmux server socket path (`tmux -S`); default: the default server */
            tmuxSocket?: string;
            aggregation?: components["schemas"]["AggregationPolicyBody"] & unknown;
        } | {
            /** @enum {string} */
            kind: "runtime";
            /** @description control-plane agent whose queue receives the notification */
            runtimeAgentId: string;
            aggregation?: components["schemas"]["AggregationPolicyBody"] & unknown;
        };
        TargetDeleted: {
            targetId: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** @description An activation target. Webhook secrets never appear here (only in the creation answer). */
        TargetResumeResult: components["schemas"]["Target"] & {
            /** @description the target was offline and is active again */
            recovered: boolean;
            /** @description catch-up notification queued (only while the agent is not paused) */
            catchUp: components["schemas"]["NotificationSummary"][];
        };
        NotificationSummary: {
            notificationId: string;
            targetId: string;
            /** @enum {string} */
            reason: "entries" | "catch_up";
            entryCount: number;
        };
        DeliveryPauseBody: Record<string, never>;
        DeliveryResumeResult: components["schemas"]["InboxAgent"] & {
            recoveredTargets: string[];
            catchUp: components["schemas"]["NotificationSummary"][];
        };
        DeliveryResumeBody: {
            /** @description true: clear the pause and catch up once per active target, keeping offline targets and backoff; false or absent: also recover every offline target */
            deliveryOnly?: boolean;
        };
        InboxTimerList: {
            timers: components["schemas"]["InboxTimer"][];
        };
        InboxTimer: {
            scheduleId: string;
            agentId: string;
            /** @enum {string} */
            kind: "at" | "every" | "cron";
            at: string | null;
            every: number | null;
            cron: string | null;
            timezone: string;
            message: string;
            sender: string | null;
            /** @enum {string} */
            status: "active" | "paused" | "completed";
            nextFireAt: string | null;
            lastFiredAt: string | null;
            fireCount: number;
            createdAt: string;
            updatedAt: string;
        };
        CreateInboxTimerBody: {
            agentId: string;
            /**
             * Format: date-time
             * @description one occurrence at this instant (ISO 8601 with offset)
             */
            at?: string;
            /** @description period in milliseconds (at least 1000) */
            every?: number;
            /** @description 5-field cron expression, evaluated in `timezone`; invalid: 400 invalid_cron */
            cron?: string;
            /** @description IANA time zone (default: the daemon host zone); invalid: 400 invalid_timezone */
            timezone?: string;
            message: string;
            sender?: string | null;
        };
        InboxTimerDeleted: {
            scheduleId: string;
            /** @enum {boolean} */
            deleted: true;
        };
        GcResult: {
            /** @description what housekeeping removed, by kind: subscriptionsRemoved (cleanup time passed), ackedEntriesRemoved (acknowledged more than retention.ackedEntriesMs ago, or left by a removed subscription), notificationsRemoved (sent or failed, older than retention.notificationsMs) */
            removed: {
                [key: string]: number;
            };
            durationMs: number;
            retention: {
                ackedEntriesMs: number;
                notificationsMs: number;
            };
        };
        PatchInboxAgentBody: {
            aggregation: components["schemas"]["AggregationPolicyBody"] & unknown;
        };
        PatchTargetBody: {
            aggregation: components["schemas"]["AggregationPolicyBody"] & unknown;
        };
        /** @description An agent's aggregation policy, its targets' effective policies and digest schedules, and AgentInbox's view of it. */
        InboxPolicy: {
            agentId: string;
            aggregation: components["schemas"]["AggregationPolicy"] & unknown;
            /** @description the agent has no policy of its own */
            isDefault: boolean;
            targets: {
                targetId: string;
                /** @enum {string} */
                kind: "webhook" | "terminal" | "runtime";
                aggregation: components["schemas"]["AggregationPolicy"] & unknown;
                effective: components["schemas"]["AggregationPolicy"] & unknown;
                digest: components["schemas"]["DigestSchedule"];
            }[];
            /** @description AgentInbox's view: false for immediate */
            enabled: boolean;
            /** @description AgentInbox's view: the coalescing window (a digest: its every) */
            windowMs: number | null;
            maxItems: number | null;
            maxThreadAgeMs: null;
        };
        /** @description the digest schedule of a target whose effective policy is a digest */
        DigestSchedule: {
            nextDigestAt: string | null;
            lastDigestAt: string | null;
            digestCount: number;
        } | null;
        /** @description AgentInbox's `inbox policy set` {enabled?, windowMs?, maxItems?, maxThreadAgeMs?} (fields not sent keep their value), or svc's {aggregation} */
        InboxPolicyBody: {
            /** @description true: coalesce (windowMs, maxItems); false: immediate */
            enabled?: boolean;
            /** @description the coalescing window (default when enabling: 30000, as AgentInbox) */
            windowMs?: number;
            /** @description the window closes early at this many entries */
            maxItems?: number;
            /** @description accepted, no effect: svc never extends a window, so nothing grows old */
            maxThreadAgeMs?: number;
            /** @description svc's own policy instead of AgentInbox's fields (not with them); null: the default */
            aggregation?: {
                /** @enum {string} */
                mode: "immediate";
            } | {
                /** @enum {string} */
                mode: "coalesce";
                /** @description the window the first new entry opens (0 to 3600000); it is never extended */
                windowMs: number;
                /** @description the window closes early once this many entries wait (AgentInbox maxItems); absent: only the window */
                maxEntries?: number | null;
            } | {
                /** @enum {string} */
                mode: "digest";
                /** @description the period in milliseconds (at least 60000), counted from when the policy takes effect for the target */
                every?: number;
                /** @description 5-field cron expression of the period boundaries, evaluated in timezone across DST changes; invalid: 400 invalid_cron */
                cron?: string;
                /** @description IANA time zone of cron (default: the daemon host zone); invalid: 400 invalid_timezone */
                timezone?: string;
                /** @description entries a digest lists (default 50); all are counted */
                maxEntries?: number;
            } | null;
        };
        CallbackEnqueueResponse: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            message_id: string;
        };
        CallbackWakeResponse: {
            /** @enum {boolean} */
            ok: true;
            agent_id: string;
            message_id: string;
            /** @enum {string} */
            disposition: "woken";
        };
        GithubWebhookReceived: {
            /** @enum {boolean} */
            ok: true;
            sourceId: string;
            /** @description X-GitHub-Event */
            event: string;
            /** @description X-GitHub-Delivery */
            deliveryId: string;
            /** @description the event's id in the source's stream (null for ping) */
            eventId: string | null;
            appended: number;
            /** @description 1 when this state (or this body) was already stored: a replay or redelivery */
            deduped: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getServiceRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Root */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RootResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getHandshake: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Handshake */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Handshake"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAuthMethod: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Method */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthMethod"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page; its scripts and styles come from /docs/assets/ */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getDocsAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stylesheet or script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/css": string;
                    "text/javascript": string;
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getDocsInboxJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page; its scripts and styles come from /console/assets/ */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getConsoleAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stylesheet or script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                    "text/css": string;
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAuthLogin: {
        parameters: {
            query?: {
                /** @description Where to go after signing in: a path on this daemon, or a URL on an origin listed in auth.allowed_origins; anything else is ignored (default /api/) */
                return_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider */
            302: {
                headers: {
                    /** @description The provider's authorization URL */
                    Location?: string;
                    /** @description The sign-in binding cookie */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: oidc_not_configured. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An upstream failed. Codes: oidc_provider_unavailable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAuthCallback: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                iss?: string;
                session_state?: string;
                error?: string;
                error_description?: string;
                error_uri?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in */
            302: {
                headers: {
                    /** @description return_to of the sign-in, default /api/ */
                    Location?: string;
                    /** @description The session cookie */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request. Codes: invalid_request, oidc_state_invalid, oidc_login_failed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, oidc_subject_not_allowed. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: oidc_not_configured. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An upstream failed. Codes: oidc_provider_unavailable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            200: {
                headers: {
                    /** @description The cleared session cookie */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LogoutResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAuthSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionInfo"];
                };
            };
            /** @description No valid credential. Codes: session_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    signInWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "the control token"
                 *     }
                 */
                "application/json": components["schemas"]["TokenLoginBody"];
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    /** @description The session cookie */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenLoginResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: token_sign_in_unavailable. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Agents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentSummary"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description State page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentState"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "display_name": "Release helper",
                 *       "template": "default"
                 *     }
                 */
                "application/json": components["schemas"]["CreateAgentRequest"];
            };
        };
        responses: {
            /** @description Already exists */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        created: boolean;
                        agent: components["schemas"]["AgentDetail"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        created: boolean;
                        agent: components["schemas"]["AgentDetail"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, invalid_agent_id, template_not_found, parent_not_found. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentsTree: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tree */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agents: components["schemas"]["AgentTreeNode"][];
                    };
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentDetail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Detail */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateAgentName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Release helper"
                 *     }
                 */
                "application/json": components["schemas"]["RenameAgentRequest"];
            };
        };
        responses: {
            /** @description Renamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, empty_name. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, agent_not_renamable. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    repairAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bootstrap outcome */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        completed: string[];
                        pending: string[];
                        error: string | null;
                        agent: components["schemas"]["AgentDetail"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteAgent: {
        parameters: {
            query?: {
                cascade_private_children?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "cascade_private_children": true
                 *     }
                 */
                "application/json": components["schemas"]["DeleteAgentRequest"];
            };
        };
        responses: {
            /** @description Deletion scheduled */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDeletion"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: default_agent_protected, private_children_exist, deletion_incomplete. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentDeleteStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deletion job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDeletion"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enqueueAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Build 1432 failed on main: test/unit/queue.test.ts",
                 *       "origin": {
                 *         "kind": "webhook"
                 *       },
                 *       "correlation_id": "ci-1432"
                 *     }
                 */
                "application/json": components["schemas"]["EnqueueRequest"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, kind_origin_mismatch, empty_message. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected, provenance_override_rejected, priority_not_allowed, kind_not_allowed, origin_not_allowed, agent_private. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enqueueDefaultAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Nightly backup finished: 2.1 GB",
                 *       "origin": {
                 *         "kind": "channel"
                 *       },
                 *       "priority": "background"
                 *     }
                 */
                "application/json": components["schemas"]["EnqueueRequest"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, kind_origin_mismatch, empty_message. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected, provenance_override_rejected, priority_not_allowed, kind_not_allowed, origin_not_allowed, agent_private. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    receiveGenericWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "deploy.finished",
                 *       "service": "web",
                 *       "status": "ok"
                 *     }
                 */
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    promptAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Summarise the open work items and what blocks each"
                 *     }
                 */
                "application/json": components["schemas"]["ControlPromptRequest"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentEvents: {
        parameters: {
            query?: {
                /** @description events with event_seq lower than this (exclusive) */
                before_seq?: string;
                /** @description events with event_seq higher than this (exclusive) */
                after_seq?: string;
                /** @description max events, default 128, clamped to events.page_limit_max */
                limit?: string;
                order?: "asc" | "desc";
                /** @description info: info only; verbose: info and verbose; debug: all */
                max_level?: "info" | "verbose" | "debug";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsPageResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentEventsStream: {
        parameters: {
            query?: {
                /** @description omitted: live only (or Last-Event-ID); 0: the whole replay window, from the oldest retained event; N: must lie in the replay window (oldest_retained_seq - 1 .. head; events.retain_days and events.retain_max_events decide what is retained), else 404 cursor_not_found */
                after_seq?: string;
                /** @description cap on backlog events replayed by this connection; the stream closes after them */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream of StreamEventEnvelope frames */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, cursor_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getEventsStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream of StreamEventEnvelope frames */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentBriefs: {
        parameters: {
            query?: {
                /** @description max briefs, default 50, clamped to 200 */
                limit?: string;
                /** @description a brief_id: only briefs older than it (exclusive) */
                before?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Briefs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BriefList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentConversation: {
        parameters: {
            query?: {
                /** @description history entries, default 50, clamped to 500 */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentConversationStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream of conversation frames */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentTurnActivities: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                turn_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Activities in order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnActivities"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, turn_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentTranscript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Transcript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transcript"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    debugPromptAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Re-read AGENT.md and list what changed"
                 *     }
                 */
                "application/json": components["schemas"]["DebugPromptRequest"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, empty_prompt. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    wakeAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "the CI run it waits for finished"
                 *     }
                 */
                "application/json": components["schemas"]["WakeRequest"];
            };
        };
        responses: {
            /** @description Disposition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WakeResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, empty_reason. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    controlAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action": "stop"
                 *     }
                 */
                "application/json": components["schemas"]["ControlRequest"];
            };
        };
        responses: {
            /** @description Applied */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, unknown_action. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    abortAgentCurrentRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "mode": "stop_after_abort"
                 *     }
                 */
                "application/json": components["schemas"]["AbortRequest"];
            };
        };
        responses: {
            /** @description Aborted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AbortResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, unknown_abort_mode. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, no_current_run. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRuntimeStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeStatus"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRuntimeConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Config surface */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeConfigSurface"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateRuntimeConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "updates": [
                 *         {
                 *           "key": "model.default",
                 *           "value": "builtin/echo"
                 *         },
                 *         {
                 *           "key": "events.heartbeat_ms",
                 *           "unset": true
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RuntimeConfigPatch"];
            };
        };
        responses: {
            /** @description Per-key results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeConfigPatchResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    shutdownRuntime: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Shutting down */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {boolean} */
                        shutting_down: true;
                    };
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRuntimeMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics exposition, in the negotiated format */
            200: {
                headers: {
                    /** @description includes Accept */
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/openmetrics-text; version=1.0.0; charset=utf-8": string;
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRuntimeTraces: {
        parameters: {
            query?: {
                /** @description answer this trace with its spans */
                trace_id?: string;
                /** @description ring (default): recent completed traces in memory; diagnostics: traces kept in the local diagnostics store */
                source?: "ring" | "diagnostics";
                /** @description at most this many summaries (default 100) */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Traces */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TracesResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRuntimeTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trace_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Trace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TraceResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: trace_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: job_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRuntimeCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Profiles */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialListResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putRuntimeCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "kind": "api_key",
                 *       "material": "sk-example-0000"
                 *     }
                 */
                "application/json": components["schemas"]["SetCredentialRequest"];
            };
        };
        responses: {
            /** @description Stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: credential_store_unusable. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteRuntimeCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: credential_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: credential_store_unusable. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelCatalog"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    refreshModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "force": true
                 *     }
                 */
                "application/json": components["schemas"]["ModelRefreshRequest"];
            };
        };
        responses: {
            /** @description Catalog after discovery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelRefreshResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setAgentModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "model": "builtin/echo"
                 *     }
                 */
                "application/json": components["schemas"]["SetModelRequest"];
            };
        };
        responses: {
            /** @description Override set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelOverrideResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, unknown_model. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    clearAgentModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "authority_class": "operator_instruction"
                 *     }
                 */
                "application/json": components["schemas"]["ClearModelRequest"];
            };
        };
        responses: {
            /** @description Override cleared */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelOverrideResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentWorkItems: {
        parameters: {
            query?: {
                /** @description With limit (1..1000) the answer is the real system's list form: a bare array of at most limit items, open ones first, newest first. Without it: {ok, work_items}, every item, oldest first. */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Work items */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkItemListResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentWorkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                work_item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Work item */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkItem"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, work_item_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgentWorkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "objective": "Ship 0.2.0: changelog, version bump, tag"
                 *     }
                 */
                "application/json": components["schemas"]["CreateWorkItemRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkItem"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, empty_objective, plan_file_not_found, plan_file_not_allowed, plan_too_large. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateAgentWorkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                work_item_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "plan_status": "ready",
                 *       "blocked_by": "waiting for the CI run of PR 88"
                 *     }
                 */
                "application/json": components["schemas"]["PatchWorkItemRequest"];
            };
        };
        responses: {
            /** @description Updated work item */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkItem"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, empty_update, recheck_requires_blocker. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, work_item_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, work_item_not_open. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    pickAgentWorkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                work_item_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "reason": "the release is due today"
                 *     }
                 */
                "application/json": components["schemas"]["PickWorkItemRequest"];
            };
        };
        responses: {
            /** @description Focus transition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PickWorkItemResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, work_item_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, work_item_not_open. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    completeAgentWorkItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                work_item_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "report_text": "Tagged v0.2.0; the changelog lists 14 changes"
                 *     }
                 */
                "application/json": components["schemas"]["CompleteWorkItemRequest"];
            };
        };
        responses: {
            /** @description Completed work item */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkItem"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, empty_report. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, work_item_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, work_item_not_open. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentTimers: {
        parameters: {
            query?: {
                /** @description most records returned (default 100, at most 1000) */
                limit?: string;
                /** @description only timers in this status */
                status?: "active" | "cancelled" | "completed";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Timers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        timers: components["schemas"]["TimerRecord"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                timer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Timer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimerRecord"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, timer_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgentTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "duration_ms": 600000,
                 *       "interval_ms": 3600000,
                 *       "summary": "check the nightly build"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTimerRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimerRecord"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, timer_limit_reached. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancelAgentTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                timer_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CancelTimerRequest"];
            };
        };
        responses: {
            /** @description Updated timer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimerRecord"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, timer_completed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, timer_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentTasks: {
        parameters: {
            query?: {
                /** @description at most this many active and this many finished tasks (default 100) */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tasks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        tasks: components["schemas"]["TaskStatusSnapshot"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Snapshot */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskStatusSnapshot"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, task_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentTaskOutput: {
        parameters: {
            query?: {
                /** @description wait for the task to finish (default false) */
                block?: "0" | "1" | "true" | "false";
                /** @description longest wait when block=true, in ms (default 30000, clamped to 300000) */
                timeout_ms?: string;
            };
            header?: never;
            path: {
                id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Output */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskOutputResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, task_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgentTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cmd": "npm test",
                 *       "workdir": ".",
                 *       "summary": "run the tests"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTaskRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskStatusSnapshot"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, workdir_not_found, shell_not_found, worktree_unavailable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, child_agent_exists, child_limit_reached, child_depth_exceeded. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unavailable now: retry after Retry-After seconds. Codes: shutting_down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sendAgentTaskInput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "y\n"
                 *     }
                 */
                "application/json": components["schemas"]["TaskInputRequest"];
            };
        };
        responses: {
            /** @description Input result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInputResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, task_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    stopAgentTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "authority_class": "operator_instruction"
                 *     }
                 */
                "application/json": components["schemas"]["TaskStopRequest"];
            };
        };
        responses: {
            /** @description Stop receipt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskStopResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, task_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentExternalTriggers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Triggers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        triggers: components["schemas"]["ExternalTrigger"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgentExternalTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "delivery_mode": "enqueue",
                 *       "summary": "CI results for main"
                 *     }
                 */
                "application/json": components["schemas"]["CreateExternalTriggerRequest"];
            };
        };
        responses: {
            /** @description Issued */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateExternalTriggerResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeAgentExternalTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger, revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalTriggerResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, trigger_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentOperatorBindings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bindings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        bindings: components["schemas"]["OperatorBinding"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgentOperatorBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "binding_id": "chat-alice",
                 *       "transport": "remote-operator",
                 *       "operator_actor_id": "alice",
                 *       "delivery_callback_url": "https://relay.example.org/deliver",
                 *       "delivery_auth": {
                 *         "kind": "bearer",
                 *         "bearer_token": "relay-token-example"
                 *       },
                 *       "capabilities": {
                 *         "reply": true,
                 *         "attachments": false
                 *       },
                 *       "provider": "telegram"
                 *     }
                 */
                "application/json": components["schemas"]["OperatorBindingRequest"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        created: boolean;
                        binding: components["schemas"]["OperatorBinding"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        created: boolean;
                        binding: components["schemas"]["OperatorBinding"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, binding_conflict. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentOperatorBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                binding_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Binding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        binding: components["schemas"]["OperatorBinding"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, binding_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sendOperatorIngress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Pause the release until I reply",
                 *       "actor_id": "alice",
                 *       "binding_id": "chat-alice"
                 *     }
                 */
                "application/json": components["schemas"]["OperatorIngressRequest"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected, binding_mismatch. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    attachAgentWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "path": "/home/me/src/project"
                 *     }
                 */
                "application/json": components["schemas"]["AttachWorkspaceRequest"];
            };
        };
        responses: {
            /** @description Attached and active */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        created: boolean;
                        workspace: components["schemas"]["WorkspaceEntry"];
                        active_workspace_id: string;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, invalid_workspace_path. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, workspace_limit_reached. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exitAgentWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "authority_class": "operator_instruction"
                 *     }
                 */
                "application/json": components["schemas"]["ExitWorkspaceRequest"];
            };
        };
        responses: {
            /** @description agent_home is active */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        changed: boolean;
                        previous_workspace_id: string;
                        /** @enum {string} */
                        active_workspace_id: "agent_home";
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    detachAgentWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspace_id": "ws_01JB8Y7A1B2C3D4E5F6G7H8J9K"
                 *     }
                 */
                "application/json": components["schemas"]["DetachWorkspaceRequest"];
            };
        };
        responses: {
            /** @description Detached */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        workspace_id: string;
                        /** @enum {boolean} */
                        detached: true;
                        active_workspace_id: string;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, workspace_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting, workspace_active, agent_home_protected. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentWorktreeSummary: {
        parameters: {
            query?: {
                /** @description Default: the active workspace */
                workspace_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Worktree summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorktreeSummary"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    resolveFileReferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agent_id": "main",
                 *       "references": [
                 *         {
                 *           "type": "absolute_path",
                 *           "absolute_path": "/home/me/src/project/README.md"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ResolveFileReferencesRequest"];
            };
        };
        responses: {
            /** @description Results in request order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        results: ({
                            /** @enum {string} */
                            status: "resolved";
                            location: components["schemas"]["FileLocation"];
                        } | {
                            /** @enum {string} */
                            status: "unresolved";
                            /** @enum {string} */
                            reason: "unknown_workspace" | "outside_workspace" | "not_found" | "invalid_reference";
                            message: string;
                        })[];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDesktopCapabilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Capabilities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DesktopCapabilities"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revealDesktopFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "workspace_id": "ws_01JB8Y7A1B2C3D4E5F6G7H8J9K",
                 *       "execution_root_id": "ws_01JB8Y7A1B2C3D4E5F6G7H8J9K",
                 *       "path": "docs/release-notes.md",
                 *       "agent_id": "main"
                 *     }
                 */
                "application/json": components["schemas"]["DesktopRevealRequest"];
            };
        };
        responses: {
            /** @description Revealed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {boolean} */
                        revealed: true;
                        absolute_path: string;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSkillsCatalog: {
        parameters: {
            query?: {
                /** @description Whose active workspace supplies the workspace skills (default: the default agent) */
                agent_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        skills: components["schemas"]["SkillCatalogEntry"][];
                        invalid: {
                            path: string;
                            error: string;
                        }[];
                        /** @description the same entries with root_id and skill_dir (the real system's name for the list) */
                        catalog: components["schemas"]["HolonSkillCatalogEntry"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCatalogSkill: {
        parameters: {
            query?: {
                /** @description Whose active workspace supplies the workspace skills (default: the default agent) */
                agent_id?: string;
            };
            header?: never;
            path: {
                skill_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Detail */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: skill_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    addSkillsCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "source": "acme/skills/skills/pdf-tools@v1.2.0"
                 *     }
                 */
                "application/json": components["schemas"]["AddSkillRequest"];
            };
        };
        responses: {
            /** @description Already in the library */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {boolean} */
                        created: false;
                        skill: components["schemas"]["SkillCatalogEntry"];
                    };
                };
            };
            /** @description Install job scheduled */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        job_id: string;
                        /** @enum {string} */
                        status: "pending" | "running" | "completed" | "failed";
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    removeSkillsCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["RemoveSkillRequest"];
            };
        };
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        name: string;
                        /** @description false when only a stale lock entry was dropped */
                        removed: boolean;
                        /** @description Agents whose user-scope enablement of the skill went away */
                        disabled_for: string[];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    refreshSkillsCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "agent_id": "main"
                 *     }
                 */
                "application/json": {
                    agent_id?: string;
                };
            };
        };
        responses: {
            /** @description Summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        total: number;
                        user: number;
                        workspace: number;
                        skills: components["schemas"]["SkillCatalogEntry"][];
                        invalid: {
                            path: string;
                            error: string;
                        }[];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    reconcileSkillsCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "prune": true
                 *     }
                 */
                "application/json": {
                    /** @description Drop lock entries whose library directory is gone */
                    prune?: boolean;
                };
            };
        };
        responses: {
            /** @description Summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        in_sync: boolean;
                        locked: number;
                        /** @description In the lock file, not in the library */
                        missing: string[];
                        /** @description In the library, not in the lock file */
                        extra: string[];
                        pruned: string[];
                        invalid: {
                            path: string;
                            error: string;
                        }[];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    checkSkillsCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["CheckSkillRequest"];
            };
        };
        responses: {
            /** @description Summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        checked: number;
                        outdated: number;
                        errors: number;
                        skills: {
                            name: string;
                            source: string;
                            /** @enum {string} */
                            mode: "copy" | "link";
                            etag: string;
                            latest: string | null;
                            /** @enum {string} */
                            status: "up_to_date" | "outdated" | "linked" | "error";
                            error: string | null;
                        }[];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateSkillsCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Update job scheduled */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        job_id: string;
                        /** @enum {string} */
                        status: "pending" | "running" | "completed" | "failed";
                        job: components["schemas"]["Job"] & unknown;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "kind": "skill.install",
                 *       "params": {
                 *         "kind": {
                 *           "kind": "named",
                 *           "name": "pdf-tools"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateJobRequest"];
            };
        };
        responses: {
            /** @description Already in the library: a completed job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Install job scheduled */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        job: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentSkills: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Enabled skills */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        skills: components["schemas"]["AgentSkillEntry"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enableAgentSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["EnableSkillRequest"];
            };
        };
        responses: {
            /** @description Enabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        changed: boolean;
                        skill: components["schemas"]["AgentSkill"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    disableAgentSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["DisableSkillRequest"];
            };
        };
        responses: {
            /** @description Disabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        name: string;
                        changed: boolean;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgentSkillsAlias: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Enabled skills */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        skills: components["schemas"]["AgentSkillEntry"][];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enableAgentSkillAlias: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["EnableSkillRequest"];
            };
        };
        responses: {
            /** @description Enabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        changed: boolean;
                        skill: components["schemas"]["AgentSkill"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    disableAgentSkillAlias: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["DisableSkillRequest"];
            };
        };
        responses: {
            /** @description Disabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        name: string;
                        changed: boolean;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                skill_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Skill */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentSkillDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, skill_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    installAgentSkills: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "source": "acme/skills/skills/pdf-tools@v1.2.0"
                 *     }
                 */
                "application/json": components["schemas"]["InstallSkillRequest"];
            };
        };
        responses: {
            /** @description Enabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {boolean} */
                        deprecated: true;
                        agent_id: string;
                        job_id?: string;
                        skill?: components["schemas"]["AgentSkill"];
                    };
                };
            };
            /** @description Install job scheduled (enables on completion) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {boolean} */
                        deprecated: true;
                        agent_id: string;
                        job_id?: string;
                        skill?: components["schemas"]["AgentSkill"];
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    uninstallAgentSkills: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "pdf-tools"
                 *     }
                 */
                "application/json": components["schemas"]["DisableSkillRequest"];
            };
        };
        responses: {
            /** @description Disabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        agent_id: string;
                        name: string;
                        changed: boolean;
                    };
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: agent_deleting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batchGetAgentMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message_ids": [
                 *         "msg_01JB8YA2K4M6P8R0T2V4X6Z8N1",
                 *         "msg_01JB8YA3B5D7F9H1K3M5P7R9T2"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["BatchGetMessagesRequest"];
            };
        };
        responses: {
            /** @description Found and missing */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchGetMessagesResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batchGetAgentTranscript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "entry_ids": [
                 *         "hst_41",
                 *         "hst_42"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["BatchGetTranscriptEntriesRequest"];
            };
        };
        responses: {
            /** @description Found and missing */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchGetTranscriptEntriesResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batchGetAgentBriefs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "brief_ids": [
                 *         "brf_01JB8YB4C6E8G0J2M4Q6S8W0Y3"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["BatchGetBriefsRequest"];
            };
        };
        responses: {
            /** @description Found and missing */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchGetBriefsResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentProjectionSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Snapshot */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentProjectionSnapshot"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAgentsSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Roster */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRosterSnapshot"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "release checklist",
                 *       "limit": 10
                 *     }
                 */
                "application/json": components["schemas"]["SearchRequest"];
            };
        };
        responses: {
            /** @description Results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "source_ref": "event:main:42",
                 *       "max_chars": 4000
                 *     }
                 */
                "application/json": components["schemas"]["MemoryGetRequest"];
            };
        };
        responses: {
            /** @description Text */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryGetResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getTemplatesCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateCatalog"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                catalog_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Detail */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: template_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxStatus"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListHosts: {
        parameters: {
            query?: {
                /** @description at most this many records, from the start of the list */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Hosts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateHost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "hostType": "local_event",
                 *       "hostKey": "ci"
                 *     }
                 */
                "application/json": components["schemas"]["CreateHostRequest"];
            };
        };
        responses: {
            /** @description Existing host */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Host"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Host"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetHost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hostId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Host */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Host"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: host_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetHostSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hostId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Schemas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostSchema"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: host_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListSources: {
        parameters: {
            query?: {
                /** @description only the sources of this host */
                hostId?: string;
                /** @description at most this many records, from the start of the list */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sources */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateSource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "hostId": "hst_01JB8Y3S6K6C2VJ1W9T4ZC0M5X",
                 *       "streamKind": "builds",
                 *       "streamKey": "main"
                 *     }
                 */
                "application/json": components["schemas"]["CreateSourceRequest"];
            };
        };
        responses: {
            /** @description Existing source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, invalid_source_config, invalid_source_module, source_module_not_allowed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxDeleteSource: {
        parameters: {
            query?: {
                /** @description also remove the subscriptions of the source (else a source with subscriptions is kept: 409 source_has_subscriptions) */
                withSubscriptions?: "0" | "1" | "true" | "false";
                /** @description the same as withSubscriptions */
                with_subscriptions?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceDeleted"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: source_has_subscriptions. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxUpdateSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "configRef": "credential:ci-token"
                 *     }
                 */
                "application/json": components["schemas"]["PatchSourceRequest"];
            };
        };
        responses: {
            /** @description Updated source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetSourceSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Schemas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceSchema"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxPauseSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: source_not_managed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxResumeSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: source_not_managed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxPollSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Poll result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourcePollResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: source_not_managed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An upstream failed. Codes: source_poll_failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unavailable now: retry after Retry-After seconds. Codes: shutting_down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxAppendSourceEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "build.failed",
                 *       "subject": "main#1432",
                 *       "data": {
                 *         "job": "unit",
                 *         "url": "https://ci.example.org/1432"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["AppendEventsRequest"];
            };
        };
        responses: {
            /** @description Appended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppendEventsResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: manual_append_unsupported. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unavailable now: retry after Retry-After seconds. Codes: stream_backend_unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                streamId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamDetail"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: stream_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxPreviewStreamCompaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                streamId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "retentionMs": 604800000
                 *     }
                 */
                "application/json": components["schemas"]["CompactionPreviewRequest"];
            };
        };
        responses: {
            /** @description Preview */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompactionPreview"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: stream_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not supported here. Codes: compaction_unsupported. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxApplyStreamCompaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                streamId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "apply": true,
                 *       "retentionMs": 604800000
                 *     }
                 */
                "application/json": components["schemas"]["CompactionApplyRequest"];
            };
        };
        responses: {
            /** @description Result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompactionResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: stream_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not supported here. Codes: compaction_unsupported. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListAgents: {
        parameters: {
            query?: {
                /** @description each agent also as {agent, activationTargets}, the form AgentInbox clients read */
                includeTargets?: "0" | "1" | "true" | "false";
                /** @description at most this many records, from the start of the list */
                limit?: string;
                /** @description the same as includeTargets */
                include_targets?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Agents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxAgentList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "name": "reviewer"
                 *     }
                 */
                "application/json": components["schemas"]["CreateInboxAgentBody"];
            };
        };
        responses: {
            /** @description Already registered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInboxAgent"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInboxAgent"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, terminal_backend_unsupported. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: registration_conflict. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxAgent"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxDeleteAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxAgentDeleted"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxUpdateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "aggregation": {
                 *         "mode": "coalesce",
                 *         "windowMs": 5000,
                 *         "maxEntries": 20
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PatchInboxAgentBody"];
            };
        };
        responses: {
            /** @description The agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxAgent"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListSubscriptions: {
        parameters: {
            query?: {
                agentId?: string;
                sourceId?: string;
                /** @description at most this many records, from the start of the list */
                limit?: string;
                /** @description the same as agentId */
                agent_id?: string;
                /** @description the same as sourceId */
                source_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Subscriptions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentId": "agt_01JB8Y5N3P0G1XQ2E7R9D4V6KT",
                 *       "sourceId": "src_01JB8Y4F0R5J9T2K8W1M3Q6B7N"
                 *     }
                 */
                "application/json": components["schemas"]["CreateSubscriptionBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, invalid_filter, filter_too_costly. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: subscription_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxDeleteSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionDeleted"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: subscription_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetSubscriptionLag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lag */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionLag"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: subscription_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxPollSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["PollSubscriptionBody"];
            };
        };
        responses: {
            /** @description Caught up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionCatchUp"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: subscription_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxResetSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "startPolicy": "earliest"
                 *     }
                 */
                "application/json": components["schemas"]["ResetSubscriptionBody"];
            };
        };
        responses: {
            /** @description Repositioned */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionCatchUp"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: subscription_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: history_unavailable. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetAgentInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxSummary"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListAgentInboxItems: {
        parameters: {
            query?: {
                /** @description exclusive cursor (an entry id, e.g. the previous nextCursor) */
                after?: string;
                /** @description default 100, at most 1000 */
                limit?: string;
                /** @description also list acknowledged entries (default false) */
                includeAcked?: "0" | "1" | "true" | "false";
                /** @description the same as after */
                after_entry_id?: string;
                /** @description the same as includeAcked */
                include_acked?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxPage"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateAgentInboxItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "Look at PR 88 before the release",
                 *       "sender": "me"
                 *     }
                 */
                "application/json": components["schemas"]["DirectItemBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxEntry"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListAgentInboxEntries: {
        parameters: {
            query?: {
                /** @description exclusive cursor (an entry id, e.g. the previous nextCursor) */
                after?: string;
                /** @description default 100, at most 1000 */
                limit?: string;
                /** @description also list acknowledged entries (default false) */
                includeAcked?: "0" | "1" | "true" | "false";
                /** @description the same as after */
                after_entry_id?: string;
                /** @description the same as includeAcked */
                include_acked?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxPage"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxWatchAgentInbox: {
        parameters: {
            query?: {
                /** @description start after this entry (with Last-Event-ID too, the later of the two) */
                after?: string;
                /** @description the backlog also lists acknowledged entries (default false) */
                includeAcked?: "0" | "1" | "true" | "false";
                /** @description send a heartbeat frame this often (1000 to 3600000 ms) */
                heartbeatMs?: string;
                /** @description the same as after */
                after_entry_id?: string;
                /** @description the same as includeAcked */
                include_acked?: "0" | "1" | "true" | "false";
                /** @description the same as heartbeatMs */
                heartbeat_ms?: string;
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream: event = items, data = {event, agentId, entries}, id = last entry id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxAckAgentInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "throughEntryId": "ent_01JB8Y6QW2E3R4T5Y6V7K8M9PA"
                 *     }
                 */
                "application/json": components["schemas"]["AckBody"];
            };
        };
        responses: {
            /** @description Acknowledged */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AckResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCompactAgentInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CompactInboxBody"];
            };
        };
        responses: {
            /** @description Compacted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompactInboxResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListAgentTargets: {
        parameters: {
            query?: {
                /** @description at most this many records, from the start of the list */
                limit?: string;
            };
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Targets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateAgentTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "kind": "runtime",
                 *       "runtimeAgentId": "main"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTargetBody"];
            };
        };
        responses: {
            /** @description Created (webhook: with its secret, shown once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedTarget"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, runtime_agent_not_found, terminal_backend_unsupported. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxDeleteAgentTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetDeleted"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, target_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxUpdateAgentTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
                targetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "aggregation": {
                 *         "mode": "immediate"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PatchTargetBody"];
            };
        };
        responses: {
            /** @description The target */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, target_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxResumeAgentTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["DeliveryPauseBody"];
            };
        };
        responses: {
            /** @description The target */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResumeResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found, target_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxPauseAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["DeliveryPauseBody"];
            };
        };
        responses: {
            /** @description The agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxAgent"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxResumeAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "deliveryOnly": true
                 *     }
                 */
                "application/json": components["schemas"]["DeliveryResumeBody"];
            };
        };
        responses: {
            /** @description The agent, with what the resume did */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryResumeResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxListTimers: {
        parameters: {
            query?: {
                agentId?: string;
                status?: "active" | "paused" | "completed";
                /** @description at most this many records, from the start of the list */
                limit?: string;
                /** @description the same as agentId */
                agent_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Timers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxTimerList"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxCreateTimer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentId": "agt_01JB8Y5N3P0G1XQ2E7R9D4V6KT",
                 *       "cron": "0 9 * * 1-5",
                 *       "timezone": "Europe/Berlin",
                 *       "message": "Daily stand-up notes"
                 *     }
                 */
                "application/json": components["schemas"]["CreateInboxTimerBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxTimer"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json, invalid_timezone, invalid_cron. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxPauseTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["DeliveryPauseBody"];
            };
        };
        responses: {
            /** @description The timer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxTimer"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: timer_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state. Codes: timer_completed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxResumeTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["DeliveryPauseBody"];
            };
        };
        responses: {
            /** @description The timer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxTimer"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: timer_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxDeleteTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxTimerDeleted"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: timer_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxRunGc: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["DeliveryPauseBody"];
            };
        };
        responses: {
            /** @description Counts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GcResult"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxGetAgentInboxPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxPolicy"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    inboxSetAgentInboxPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "enabled": true,
                 *       "windowMs": 30000,
                 *       "maxItems": 10
                 *     }
                 */
                "application/json": components["schemas"]["InboxPolicyBody"];
            };
        };
        responses: {
            /** @description The policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxPolicy"];
                };
            };
            /** @description Bad request. Codes: invalid_request, invalid_json. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: auth_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, peer_user_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: agent_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    callbackEnqueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                callback_token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "build": 1432,
                 *       "branch": "main",
                 *       "status": "failed",
                 *       "url": "https://ci.example.org/1432"
                 *     }
                 */
                "application/json": unknown;
                "*/*": string;
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackEnqueueResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, delivery_mode_mismatch. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: trigger_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    callbackWake: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                callback_token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "check": "nightly-backup",
                 *       "status": "finished",
                 *       "size_bytes": 2254857830
                 *     }
                 */
                "application/json": unknown;
                "*/*": string;
            };
        };
        responses: {
            /** @description Tick queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackWakeResponse"];
                };
            };
            /** @description Bad request. Codes: invalid_request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, delivery_mode_mismatch. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: trigger_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Overloaded: retry after Retry-After seconds. Codes: overloaded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The disk holding the database is full: nothing was written; retry after Retry-After seconds. Codes: insufficient_storage. */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    receiveGithubWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "action": "opened",
                 *       "issue": {
                 *         "number": 88,
                 *         "title": "Release 0.2.0 checklist",
                 *         "state": "open",
                 *         "html_url": "https://github.com/acme/web/issues/88",
                 *         "user": {
                 *           "login": "alice"
                 *         },
                 *         "created_at": "2030-01-01T10:00:00Z",
                 *         "updated_at": "2030-01-01T10:00:00Z"
                 *       },
                 *       "repository": {
                 *         "full_name": "acme/web"
                 *       },
                 *       "sender": {
                 *         "login": "alice"
                 *       }
                 *     }
                 */
                "application/json": unknown;
                "*/*": string;
            };
        };
        responses: {
            /** @description Received (or deduplicated) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubWebhookReceived"];
                };
            };
            /** @description Bad request. Codes: invalid_request, webhook_repository_mismatch. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid credential. Codes: webhook_signature_required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed, cross_origin_rejected, webhook_signature_invalid. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found. Codes: source_not_found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error envelope */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
