// Generated from openapi/inbox.json by `npm run openapi:write` (openapi-typescript); do not edit.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service status with counts: sources by state and their errors, subscriptions, agents, targets, pending notifications, unacknowledged entries, timers */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every host, oldest first */
        get: operations["listHosts"];
        put?: never;
        /**
         * Register a host (idempotent by hostType + hostKey)
         * @description A host record is {hostId, hostType, hostKey, config, createdAt}. hostType (local_event | remote_source | github) is the type of every source on the host. config is checked against the type's JSON Schema (GET /hosts/{hostId}/schema): 400 invalid_request naming the field. A credentialRef names a credential profile (GET /api/control/runtime/credentials on the control plane) whose secret reaches the modules of the host's sources, never a response. 201 for a new host; 200 with the existing record (config unchanged) when hostType + hostKey already exist.
         */
        post: operations["createHost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosts/{hostId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One host (404 host_not_found) */
        get: operations["getHost"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosts/{hostId}/schema": {
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
        get: operations["getHostSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every source, oldest first (optionally of one host) */
        get: operations["listSources"];
        put?: never;
        /**
         * Register a source/stream on a host (idempotent by hostId + streamKind + streamKey)
         * @description A source record is {sourceId, hostId, sourceType, streamKind, streamKey, config, configRef, state: active|paused|error, error, idleState, cursor (remote_source), createdAt, updatedAt}; sourceType is the host's hostType and sourceId is also the public stream id. 201 for a new source, 200 with the existing record (unchanged) for the same identity. remote_source: config.modulePath must be a regular file inside <home>/source-modules/ (relative paths resolve there) or a directory of inbox.module_dirs, after resolving symlinks, owned by the daemon's user and not writable by others, else 400 source_module_not_allowed (checked again before every load); it is loaded in a worker thread, moduleConfig checked against the module's configSchema (400 invalid_request naming the field) and its validate(moduleConfig) run: 400 invalid_source_config / invalid_source_module (a load error names the error class and line, never the file's text). github: config checked against the github schema (400 invalid_request); owner and repo default to a streamKey owner/repo. A credential named by the host's credentialRef or a configRef `credential:<profile>` that is not stored does not refuse the source: it starts in state error, naming the profile. Unknown host: 404 host_not_found.
         */
        post: operations["createSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One source with its streamStats (404 source_not_found) */
        get: operations["getSource"];
        put?: never;
        post?: never;
        /**
         * Delete a source and its stream (with withSubscriptions: also its subscriptions)
         * @description A source that still has subscriptions is kept, 409 source_has_subscriptions, unless withSubscriptions=true (AgentInbox: with_subscriptions), which removes them with it.
         */
        delete: operations["deleteSource"];
        options?: never;
        head?: never;
        /**
         * Replace config and/or configRef
         * @description An active or error source is re-ensured (a remote module is checked, loaded and validated again, as at creation; 400 source_module_not_allowed / invalid_source_config / invalid_source_module change nothing) and becomes active; a paused source stays paused until resumed.
         */
        patch: operations["updateSource"];
        trace?: never;
    };
    "/sources/{sourceId}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schemas of the source config for its type (with a remote module's own configSchema) and of an appended event */
        get: operations["getSourceSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources/{sourceId}/pause": {
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
        post: operations["pauseSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources/{sourceId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a managed remote source (normal ensure path: active, error cleared, polling scheduled) */
        post: operations["resumeSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources/{sourceId}/poll": {
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
        post: operations["pollSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources/{sourceId}/events": {
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
        post: operations["appendSourceEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{streamId}": {
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
        get: operations["getStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{streamId}/compaction-preview": {
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
        post: operations["previewStreamCompaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/streams/{streamId}/compaction-apply": {
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
        post: operations["applyStreamCompaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbox agents, by id (with includeTargets: each with its targets, as AgentInbox clients list them) */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an inbox agent (generated agt_ id), or register one AgentInbox's way (chosen agentId with a webhook target, or bound to a tmux pane)
         * @description A webhook registration is idempotent: the same agentId and webhook URL again answer 200 with the same agent and target; a webhook URL the agent has no target for adds one; existing targets are never changed. A terminal registration {backend: "tmux", tmuxPaneId, …} binds the terminal to an agent (the given agentId, else the one it is bound to, else a new one) through a terminal target typing into that pane; moving a binding needs forceRebind (else 409 registration_conflict). A refused registration changes nothing.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One inbox agent (404 agent_not_found) */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        /**
         * Delete an inbox agent with its subscriptions, entries, targets and timers
         * @description Open watch streams of the agent are closed.
         */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        /**
         * Set the agent's aggregation policy (null: the default)
         * @description immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window (never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; none when nothing is new. A target follows its own policy, else its agent's. 400 invalid_request / invalid_cron / invalid_timezone change nothing. The agent record shows aggregation while the agent has a policy of its own.
         */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscriptions, optionally of one agent and/or one source */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Subscribe an agent to a source (or, with the host shortcut, to every source of a host)
         * @description Answers {subscriptions: [...]} always: one element for sourceId, one per source for the host shortcut. Events from the start position (startPolicy) are materialised at creation; a start below the retained range is 409 history_unavailable. Invalid filters (match paths, CEL) are 400 invalid_filter; a CEL expr known to be too costly (comprehensions nested more than 2 deep, or over the cost limit on an empty event) is 400 filter_too_costly. At run time an event the expr goes over its cost limit on is not matched, and filterError of the subscription says so.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One subscription (404 subscription_not_found) */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        /** Remove a subscription; its inbox entries stay */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{subscriptionId}/lag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Consumer offset against the stream bounds; lag = highWatermarkOffset - consumedOffset */
        get: operations["getSubscriptionLag"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{subscriptionId}/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Catch the subscription up to the high watermark now (matching is pushed; this is for after a reset) */
        post: operations["pollSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{subscriptionId}/reset": {
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
        post: operations["resetSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbox summary: unacknowledged count, latest entry, delivery pause */
        get: operations["getAgentInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox/items": {
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
        get: operations["listAgentInboxItems"];
        put?: never;
        /** Add a direct text item to the inbox */
        post: operations["createAgentInboxItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox/entries": {
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
        get: operations["listAgentInboxEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox/watch": {
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
        get: operations["watchAgentInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox/ack": {
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
        post: operations["ackAgentInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete the agent's acknowledged entries (unacknowledged ones are never removed) */
        post: operations["compactAgentInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's activation targets (never their secrets) */
        get: operations["listAgentTargets"];
        put?: never;
        /**
         * Add an activation target: webhook, terminal (tmux pane) or runtime (control-plane agent queue)
         * @description Notifications (under the default aggregation policy, coalesce 250 ms; see PATCH /agents/{agentId}): entries arriving within 250 ms become one notification per target, a JSON body `{type:"inbox.entries", notificationId, agentId, targetId, reason, entryCount, firstEntryId, lastEntryId, truncated, entries, createdAt}` (at most 50 entries listed; `entryCount` counts all). Webhooks are signed with the Standard Webhooks scheme (`webhook-id` = notificationId, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`); the secret is returned once, here. Terminal targets get one line typed into the tmux pane, then Enter. Runtime targets get a webhook_event with origin {kind:"webhook", source:"inbox"} in the control-plane agent queue. A new target is notified of entries created after it.
         */
        post: operations["createAgentTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/targets/{targetId}": {
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
        delete: operations["deleteAgentTarget"];
        options?: never;
        head?: never;
        /**
         * Set a target's own aggregation policy (null: follow the agent's)
         * @description immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window (never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; none when nothing is new. A target follows its own policy, else its agent's. 400 invalid_request / invalid_cron / invalid_timezone change nothing.
         */
        patch: operations["updateAgentTarget"];
        trace?: never;
    };
    "/agents/{agentId}/targets/{targetId}/resume": {
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
        post: operations["resumeAgentTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause proactive delivery (persisted): no notification, retry, timer or catch-up goes out; entries keep arriving */
        post: operations["pauseAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/resume": {
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
        post: operations["resumeAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbox timers, oldest first */
        get: operations["listTimers"];
        put?: never;
        /**
         * Create an inbox timer (at | every | cron) that puts a reminder entry in the agent inbox per occurrence
         * @description Exactly one of at, every (>= 1000 ms), cron (5 fields, evaluated in `timezone`, default the daemon host zone, across DST changes). Each occurrence creates exactly one entry `{kind:"timer", sender, message, scheduleId}`. A timer overdue at start (or resumed late) fires once for all missed occurrences, then continues with the next future one. 400 invalid_timezone, 400 invalid_cron.
         */
        post: operations["createTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{scheduleId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a timer (no occurrences fire); a completed timer: 409 timer_completed */
        post: operations["pauseTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{scheduleId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused timer at its next occurrence after now (a past `at` fires once now) */
        post: operations["resumeTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{scheduleId}": {
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
        delete: operations["deleteTimer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run housekeeping now and report what was removed: expired subscriptions, old or orphaned acknowledged entries, old notifications */
        post: operations["runGc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}/inbox/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's aggregation policy, its targets' effective policies and digest schedules (AgentInbox's `inbox policy show`) */
        get: operations["getAgentInboxPolicy"];
        put?: never;
        /**
         * Change the agent's aggregation policy, AgentInbox's way (`inbox policy set`) or with svc's {aggregation}
         * @description AgentInbox's {enabled?, windowMs?, maxItems?, maxThreadAgeMs?}: enabled false sets immediate; enabled true, windowMs or maxItems set coalesce {windowMs, maxEntries: maxItems}, keeping what is not sent (a new window: 30000 ms, AgentInbox's default); maxThreadAgeMs has no effect. {aggregation} sets svc's policy as PATCH /agents/{agentId} does. immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window (never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; none when nothing is new. A target follows its own policy, else its agent's. 400 invalid_request / invalid_cron / invalid_timezone change nothing.
         */
        post: operations["setAgentInboxPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Health: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            status: "ok";
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
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
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
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only). */
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
    getStatus: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listHosts: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createHost: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getHost: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getHostSchema: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listSources: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    deleteSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    updateSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getSourceSchema: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    pauseSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    resumeSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    pollSource: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    appendSourceEvents: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getStream: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    previewStreamCompaction: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    applyStreamCompaction: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listAgents: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createAgent: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getAgent: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    deleteAgent: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    updateAgent: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listSubscriptions: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createSubscription: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getSubscription: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    deleteSubscription: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getSubscriptionLag: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    pollSubscription: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    resetSubscription: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getAgentInbox: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listAgentInboxItems: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createAgentInboxItem: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listAgentInboxEntries: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    watchAgentInbox: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    ackAgentInbox: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    compactAgentInbox: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listAgentTargets: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createAgentTarget: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    deleteAgentTarget: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    updateAgentTarget: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    resumeAgentTarget: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    pauseAgent: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    resumeAgent: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    listTimers: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    createTimer: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    pauseTimer: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    resumeTimer: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    deleteTimer: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    runGc: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    getAgentInboxPolicy: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
    setAgentInboxPolicy: {
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
            /** @description No valid credential. Codes: auth_required (TCP port only). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only), peer_user_rejected (TCP port only). */
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
            /** @description Refused. Codes: host_not_allowed (TCP port only), cross_origin_rejected (TCP port only). */
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
}
