/**
 * `svc inbox deliver actions|send|invoke` (docs/cli.md#inbox-commands): operations through a
 * delivery handle, over the socket's `POST /deliveries/…`. The handle is `--handle-json` (as an
 * entry's `deliveryHandle` shows it) or `--provider/--surface/--target` (+ `--thread`,
 * `--reply-mode`), AgentInbox's `deliver` flags; `--source-id` names the github source to deliver
 * through. The daemon checks everything (400) before anything is sent.
 */
import type { Command } from 'commander';
import { clientOptions, inboxApi, ok, resolveTarget, type ClientFlags, type InboxBody } from '../client.js';
import { action, print, record, table, type Row } from '../output.js';
import { jsonArg } from './streams.js';

type Flags = ClientFlags & {
  handleJson?: unknown;
  provider?: string;
  surface?: string;
  target?: string;
  thread?: string;
  replyMode?: string;
  sourceId?: string;
};

type Handle = InboxBody<'/deliveries/actions', 'post'>;

/** The handle part of a body: whole, or as fields (the daemon refuses both, or neither). */
function handleOf(flags: Flags): Handle {
  if (flags.handleJson !== undefined) return { sourceId: flags.sourceId, deliveryHandle: flags.handleJson } as Handle;
  return { sourceId: flags.sourceId, provider: flags.provider, surface: flags.surface, targetRef: flags.target, threadRef: flags.thread, replyMode: flags.replyMode } as Handle;
}

function handleOptions(cmd: Command): Command {
  return clientOptions(cmd)
    .option('--handle-json <json>', 'the handle as JSON: {"provider":"github","surface":"issue_comment","targetRef":"octo/hello#3"}', jsonArg)
    .option('--provider <provider>', 'the handle as fields: provider (github)')
    .option('--surface <surface>', 'issue_comment | pull_request_comment | review_comment')
    .option('--target <targetRef>', 'owner/repo#number')
    .option('--thread <threadRef>', 'review_comment:<comment id> (review threads)')
    .option('--reply-mode <mode>', 'informational: comment | reply')
    .option('--source-id <sourceId>', 'the github source to deliver through (default: the one following the repository)');
}

export function registerInboxDeliver(inbox: Command): void {
  const deliver = inbox.command('deliver').description('answer where an item came from: operations through delivery handles (GitHub comments, close, reopen, merge)');

  handleOptions(deliver.command('actions').description('the operations a handle offers (sends nothing)')).action(
    action(async (flags: Flags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).POST('/deliveries/actions', { body: handleOf(flags) }));
      print(res, flags.json, (r) => `source ${r.deliveringSourceId ?? '(none follows the repository)'}\n${table(r.operations as unknown as Row[], ['name', 'title', 'canonicalTextAlias'])}`);
    }),
  );

  handleOptions(deliver.command('send').description("send a text with the handle's text operation (a comment, or a reply in a review thread)"))
    .option('--text <text>', 'the text (the same as --payload-json \'{"text":"…"}\')')
    .option('--payload-json <json>', 'the payload as AgentInbox sends it: {"text":"…"}', jsonArg)
    .option('--kind <kind>', 'shown back in the answer', 'reply')
    .action(
      action(async (flags: Flags & { text?: string; payloadJson?: unknown; kind: string }) => {
        const payload = flags.payloadJson ?? (flags.text === undefined ? {} : { text: flags.text });
        const body = { ...handleOf(flags), kind: flags.kind, payload } as InboxBody<'/deliveries/send', 'post'>;
        print(await ok(inboxApi(resolveTarget(flags)).POST('/deliveries/send', { body })), flags.json, record);
      }),
    );

  handleOptions(deliver.command('invoke').description('run one operation the handle offers: add_comment, reply_in_review_thread, close_issue, reopen_issue, merge_pull_request'))
    .requiredOption('--operation <name>', 'the operation (see deliver actions)')
    .option('--input-json <json>', 'its input: {"body":"…"} for comments, {} to close or reopen, {"mergeMethod":"squash"} to merge', jsonArg, {})
    .action(
      action(async (flags: Flags & { operation: string; inputJson: unknown }) => {
        const body = { ...handleOf(flags), operation: flags.operation, input: flags.inputJson } as InboxBody<'/deliveries/invoke', 'post'>;
        print(await ok(inboxApi(resolveTarget(flags)).POST('/deliveries/invoke', { body })), flags.json, record);
      }),
    );
}
