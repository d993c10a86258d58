/**
 * `svc inbox …` commands over the inbox socket: hosts, sources, append, streams and compaction
 * (docs/cli.md#inbox-commands). `compaction apply` repeats bounded apply calls until nothing
 * eligible is left, printing progress on stderr after each call. The API answers in
 * AgentInbox's shapes (`{host, schema, streams}`, `{source, …, stream, subscriptions}`,
 * `{updated, source}`, …); the human output shows the record they wrap.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { CompactionResult } from '../../inbox/streams/index.js';
import { clientOptions, inboxApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, print, record, table } from '../output.js';
import { intArg } from '../control/index.js';
import { durationArg } from '../duration.js';


const HOST_COLUMNS = ['hostId', 'hostType', 'hostKey', 'createdAt'];
const SOURCE_COLUMNS = ['sourceId', 'hostId', 'sourceType', 'streamKind', 'streamKey', 'state', 'error'];

/** Commander parser for a JSON option value. */
export function jsonArg(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new InvalidArgumentError(`not valid JSON: ${(err as Error).message}`);
  }
}

function objectArg(value: string): Record<string, unknown> {
  const parsed = jsonArg(value);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON object');
  return parsed as Record<string, unknown>;
}

export function registerInboxStreams(root: Command): void {
  registerHosts(root);
  registerSources(root);
  registerAppend(root);
  registerStreams(root);
  registerCompaction(root);
}

/** A source detail as one record: the source, its stream (backend, stats) and how many subscriptions it has. */
function detailRecord(d: { source: Record<string, unknown>; stream: { backend: string; compaction: boolean; streamStats: Record<string, unknown> | null }; subscriptions: unknown[] }): string {
  const { backend, compaction, streamStats } = d.stream;
  return record({ ...d.source, backend, compaction, ...(streamStats ?? { streamStats: null }), subscriptions: d.subscriptions.length });
}

function registerHosts(root: Command): void {
  const hosts = root.command('hosts').description('hosts: provider/runtime configuration that sources live on');
  clientOptions(hosts.command('list').description('every host')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/hosts'));
      print(res, flags.json, (r) => table(r.hosts, HOST_COLUMNS));
    }),
  );
  clientOptions(hosts.command('create').description('register a host (idempotent by type and key)'))
    .requiredOption('--type <type>', 'host type: local_event | remote_source | github')
    .requiredOption('--key <key>', 'host key')
    .option('--config <json>', 'host configuration (JSON object)', objectArg)
    .option('--config-ref <ref>', 'the default configRef of the sources created on it (credential:PROFILE)')
    .action(
      action(async (// --type passes any word; the daemon refuses another (400).
        flags: ClientFlags & { type: 'local_event' | 'remote_source' | 'github'; key: string; config?: Record<string, unknown>; configRef?: string }) => {
        const body = { hostType: flags.type, hostKey: flags.key, config: flags.config, configRef: flags.configRef };
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/hosts', { body }));
        print(res, flags.json, record);
      }),
    );
  clientOptions(hosts.command('get <hostId>').description('one host with its sources')).action(
    action(async (hostId: string, flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/hosts/{hostId}', { params: { path: { hostId } } }));
      print(res, flags.json, (r) => `${record(r.host)}

${table(r.streams, SOURCE_COLUMNS)}`);
    }),
  );
  clientOptions(hosts.command('schema <hostId>').description('JSON Schemas of the host config and of its sources configs')).action(
    action(async (hostId: string, flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/hosts/{hostId}/schema', { params: { path: { hostId } } }));
      print(res, true, () => '');
    }),
  );
}

function registerSources(root: Command): void {
  const sources = root.command('sources').description('sources (streams) on hosts');
  clientOptions(sources.command('list').description('every source'))
    .option('--host <hostId>', 'only the sources of this host')
    .action(
      action(async (flags: ClientFlags & { host?: string }) => {
        const res = await ok(inboxApi(resolveTarget(flags)).GET('/sources', { params: { query: { hostId: flags.host } } }));
        print(res, flags.json, (r) => table(r.sources, SOURCE_COLUMNS));
      }),
    );
  clientOptions(sources.command('create').description('register a source on a host (idempotent by host, kind and key)'))
    .requiredOption('--host <hostId>', 'host id (hst_…)')
    .requiredOption('--kind <streamKind>', 'stream kind')
    .requiredOption('--key <streamKey>', 'stream key')
    .option('--config <json>', 'source configuration (JSON object); remote_source: {"modulePath": …, "moduleConfig": …, "pollIntervalMs": …}; github: {"owner": …, "repo": …, "webhookSecretRef": …}', objectArg)
    .option('--config-ref <ref>', 'a reference to configuration kept elsewhere; credential:PROFILE names the credential its module gets')
    .action(
      action(async (flags: ClientFlags & { host: string; kind: string; key: string; config?: Record<string, unknown>; configRef?: string }) => {
        const body = { hostId: flags.host, streamKind: flags.kind, streamKey: flags.key, config: flags.config, configRef: flags.configRef };
        print(await ok(inboxApi(resolveTarget(flags)).POST('/sources', { body })), flags.json, record);
      }),
    );
  clientOptions(sources.command('get <sourceId>').description('one source with its stream stats')).action(
    action(async (id: string, flags: ClientFlags) => print(await ok(inboxApi(resolveTarget(flags)).GET('/sources/{sourceId}', { params: { path: { sourceId: id } } })), flags.json, detailRecord)),
  );
  clientOptions(sources.command('update <sourceId>').description('replace config and/or configRef (a paused source stays paused)'))
    .option('--config <json>', 'new configuration (JSON object)', objectArg)
    .option('--config-ref <ref>', 'new configuration reference')
    .action(
      action(async (id: string, flags: ClientFlags & { config?: Record<string, unknown>; configRef?: string }) => {
        const body = { config: flags.config, configRef: flags.configRef };
        print(await ok(inboxApi(resolveTarget(flags)).PATCH('/sources/{sourceId}', { params: { path: { sourceId: id } }, body })), flags.json, (r) => record(r.source));
      }),
    );
  for (const [verb, what] of [
    ['pause', 'pause a managed remote source'],
    ['resume', 'resume a managed remote source'],
  ] as const) {
    clientOptions(sources.command(`${verb} <sourceId>`).description(what)).action(
      action(async (id: string, flags: ClientFlags) => {
        const res = await ok(inboxApi(resolveTarget(flags)).POST(`/sources/{sourceId}/${verb}`, { params: { path: { sourceId: id } } }));
        print(res, flags.json, (r) => record(r.source));
      }),
    );
  }
  clientOptions(sources.command('poll <sourceId>').description('run one poll of a remote source now (a local_event source: nothing to poll)')).action(
    action(async (id: string, flags: ClientFlags) => print(await ok(inboxApi(resolveTarget(flags)).POST('/sources/{sourceId}/poll', { params: { path: { sourceId: id } } })), flags.json, record)),
  );
  clientOptions(sources.command('delete <sourceId>').description('delete a source and its stream (one with subscriptions only with --with-subscriptions)'))
    .option('--with-subscriptions', 'also remove the subscriptions of the source')
    .action(
      action(async (id: string, flags: ClientFlags & { withSubscriptions?: boolean }) => {
        const query = { withSubscriptions: flags.withSubscriptions ? ('true' as const) : undefined };
        print(await ok(inboxApi(resolveTarget(flags)).DELETE('/sources/{sourceId}', { params: { path: { sourceId: id }, query } })), flags.json, () => `deleted ${id}`);
      }),
    );
  clientOptions(sources.command('schema <sourceId>').description('the source kind, its metadata and config fields, shortcuts and follow templates, with JSON Schemas of its config and of an event')).action(
    action(async (id: string, flags: ClientFlags) => print(await ok(inboxApi(resolveTarget(flags)).GET('/sources/{sourceId}/schema', { params: { path: { sourceId: id } } })), true, () => '')),
  );
  clientOptions(sources.command('schema-preview <kind>').description('the schema of a source kind before creating one: local_event, remote_source, github_repo, github_repo_ci, remote:NAME'))
    .option('--config <json>', 'the source configuration, checked as at creation (JSON object)', objectArg)
    .option('--config-ref <ref>', 'configuration reference (credential:PROFILE)')
    .action(
      action(async (kind: string, flags: ClientFlags & { config?: Record<string, unknown>; configRef?: string }) => {
        const body = { sourceRef: kind, config: flags.config, configRef: flags.configRef };
        print(await ok(inboxApi(resolveTarget(flags)).POST('/streams/schema-preview', { body })), true, () => '');
      }),
    );
}

function registerAppend(root: Command): void {
  clientOptions(root.command('append <sourceId>').description('append one event to a local_event source'))
    .requiredOption('--type <type>', 'event type')
    .option('--data <json>', 'event data (any JSON)', jsonArg)
    .option('--id <id>', 'event id (the idempotency key; generated when absent)')
    .option('--subject <subject>', 'event subject')
    .option('--time <time>', 'event time (RFC 3339 with offset; default now)')
    .option('--metadata <json>', 'event metadata (JSON object)', objectArg)
    .action(
      action(async (id: string, flags: ClientFlags & { type: string; data?: unknown; id?: string; subject?: string; time?: string; metadata?: Record<string, unknown> }) => {
        const body = { id: flags.id, type: flags.type, subject: flags.subject, time: flags.time, data: flags.data, metadata: flags.metadata };
        print(await ok(inboxApi(resolveTarget(flags)).POST('/sources/{sourceId}/events', { params: { path: { sourceId: id } }, body })), flags.json, record);
      }),
    );
}

function registerStreams(root: Command): void {
  const streams = root.command('streams').description('event streams (a stream id is its source id)');
  clientOptions(streams.command('get <streamId>').description('a stream with its stats')).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/streams/{streamId}', { params: { path: { streamId: id } } }));
      print(res, flags.json, detailRecord);
    }),
  );
}

/** Events per apply call when the CLI loops (progress is printed after each call). */
const APPLY_STEP = 10_000;

function registerCompaction(root: Command): void {
  const compaction = root.command('compaction').description('prune old stream payloads to identity stubs');
  clientOptions(compaction.command('preview <streamId>').description('bounded read-only preview'))
    .requiredOption('--retention-ms <duration>', 'events appended at least this long ago are eligible: 7d, 12h (a bare number is milliseconds)', durationArg)
    .option('--scan-limit <n>', 'events scanned at most', intArg)
    .action(
      action(async (id: string, flags: ClientFlags & { retentionMs: number; scanLimit?: number }) => {
        const res = await ok(
          inboxApi(resolveTarget(flags)).POST('/streams/{streamId}/compaction-preview', { params: { path: { streamId: id } }, body: { retentionMs: flags.retentionMs, scanLimit: flags.scanLimit } }),
        );
        print(res, flags.json, record);
      }),
    );
  clientOptions(compaction.command('apply <streamId>').description('prune eligible payloads (irreversible), in bounded calls with progress'))
    .requiredOption('--retention-ms <duration>', 'events appended at least this long ago are eligible: 7d, 12h (a bare number is milliseconds)', durationArg)
    .option('--batch-size <n>', 'events per batch (transaction)', intArg)
    .option('--max-events <n>', 'events pruned at most, in all (default: every eligible one)', intArg)
    .option('--max-payload-bytes <n>', 'payload bytes per batch; a larger event stops the run (oversized)', intArg)
    .action(
      action(async (id: string, flags: ClientFlags & { retentionMs: number; batchSize?: number; maxEvents?: number; maxPayloadBytes?: number }) => {
        const target = resolveTarget(flags);
        const total = { committedBatches: 0, prunedEvents: 0, prunedBytes: 0 };
        let last: CompactionResult;
        for (;;) {
          const remaining = flags.maxEvents === undefined ? APPLY_STEP : Math.min(APPLY_STEP, flags.maxEvents - total.prunedEvents);
          const body = { apply: true as const, retentionMs: flags.retentionMs, batchSize: flags.batchSize, maxEvents: remaining, maxPayloadBytes: flags.maxPayloadBytes };
          last = await ok(inboxApi(target).POST('/streams/{streamId}/compaction-apply', { params: { path: { streamId: id } }, body }));
          total.committedBatches += last.committedBatches;
          total.prunedEvents += last.prunedEvents;
          total.prunedBytes += last.prunedBytes;
          process.stderr.write(
            `pruned ${total.prunedEvents} events (${total.prunedBytes} bytes); retained ${last.retainedFromOffset}..${last.highWatermarkOffset}; ${last.stopReason}${last.hasMore ? ', more eligible' : ''}\n`,
          );
          const budgetLeft = flags.maxEvents === undefined || total.prunedEvents < flags.maxEvents;
          if (last.stopReason !== 'max_events' || !last.hasMore || !budgetLeft || last.prunedEvents === 0) break;
        }
        print({ ...last, ...total }, flags.json, record);
      }),
    );
}
