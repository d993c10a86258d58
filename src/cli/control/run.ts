/**
 * The run loop from the command line: briefs, the conversation (and its live stream), the
 * transcript, turn activities, and run control (wake, stop/start, abort, debug prompt).
 */
import type http from 'node:http';
import { InvalidArgumentError, type Command } from 'commander';
import { ApiError, clientOptions, controlApi, controlPath, ok, open, resolveTarget, sleep, type ClientFlags, type Target } from '../client.js';
import { SseParser, unreadableStream } from './events.js';
import { action, dim, oneLine, print, record, table, type Row } from '../output.js';
import { intArg } from './tasks.js';

interface Brief extends Row {
  brief_id: string;
  kind: string;
  text: string;
  message_id: string | null;
  failure_artifact: { category: string; kind: string; summary: string } | null;
}

const BRIEF_COLUMNS = ['brief_id', 'kind', 'created_at', 'title', 'text'];
const POLL_MS = 200;

/**
 * Wait for the brief that answers `messageId` (a result or failure brief of its turn), polling the
 * briefs route; throws after `timeoutMs`.
 */
export async function waitForBrief(target: Target, agent: string, messageId: string, timeoutMs: number): Promise<Brief> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await ok(controlApi(target).GET('/api/agents/{id}/briefs', { params: { path: { id: agent }, query: { limit: '200' } } }));
    const brief = res.briefs.find((b) => b.message_id === messageId && (b.kind === 'result' || b.kind === 'failure'));
    if (brief) return brief;
    if (Date.now() > deadline) throw new ApiError(0, 'timeout', `no brief for ${messageId} within ${timeoutMs} ms (the agent may be stopped or busy)`);
    await sleep(POLL_MS);
  }
}

/** Print a brief's text; a failure brief is an error (exit 1) with its artifact. */
export function printBrief(brief: Brief, json: boolean | undefined): void {
  print(brief, json, (b) => b.text);
  if (brief.kind === 'failure') {
    const f = brief.failure_artifact;
    throw new ApiError(0, 'turn_failed', f ? `${f.category}/${f.kind}: ${f.summary}` : 'the turn failed', brief);
  }
}

function followConversation(target: Target, agent: string, json: boolean | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = open(target, controlPath('/api/agents/{id}/conversation/stream', { path: { id: agent } }), { headers: { accept: 'text/event-stream' } }, (res: http.IncomingMessage) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const env = (() => {
            try {
              return JSON.parse(text) as { code?: string; error?: string };
            } catch {
              return null;
            }
          })();
          reject(new ApiError(res.statusCode ?? 0, env?.code ?? `http_${res.statusCode}`, env?.error ?? text, env));
        });
        return;
      }
      const parser = new SseParser((f) => {
        if (!f.data) return;
        if (json) {
          process.stdout.write(`${JSON.stringify({ event: f.event, data: JSON.parse(f.data) })}\n`);
          return;
        }
        const d = JSON.parse(f.data) as Record<string, unknown>;
        if (f.event === 'text_delta' || f.event === 'thought_delta') process.stdout.write(f.event === 'thought_delta' ? dim(String(d.text ?? '')) : String(d.text ?? ''));
        else process.stdout.write(`\n[${f.event}] ${oneLine(JSON.stringify(d), 160)}\n`);
      }, (err) => {
        reject(unreadableStream(err));
        req.destroy();
      });
      res.on('data', (chunk: string) => parser.push(chunk));
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => reject(new ApiError(0, 'unreachable', `cannot reach the svc daemon: ${err.code ?? err.message}`)));
    req.end();
  });
}

export function registerRun(program: Command): void {
  clientOptions(program.command('briefs <agent>').description("the agent's briefs (acknowledgements, progress, results, failures), newest first"))
    .option('--limit <n>', 'at most N briefs', intArg)
    .action(
      action(async (agent: string, flags: ClientFlags & { limit?: number }) => {
        const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/briefs', { params: { path: { id: agent }, query: { limit: flags.limit?.toString() } } }));
        print(res, flags.json, (r) => table(r.briefs.map((b) => ({ ...b, text: oneLine(b.text, 60) })), BRIEF_COLUMNS));
      }),
    );

  clientOptions(program.command('conversation <agent>').description('conversation overview, current turn and visible history; --follow streams turns live'))
    .option('--limit <n>', 'history entries', intArg)
    .option('--follow', 'follow the live conversation stream (turns, streamed text and thoughts, tool calls)')
    .action(
      action(async (agent: string, flags: ClientFlags & { limit?: number; follow?: boolean }) => {
        const target = resolveTarget(flags);
        if (flags.follow) return followConversation(target, agent, flags.json);
        const res = await ok(controlApi(target).GET('/api/agents/{id}/conversation', { params: { path: { id: agent }, query: { limit: flags.limit?.toString() } } }));
        print(res, flags.json, (r) => {
          const { history, ...rest } = r;
          return [record(rest), '', ...history.map((h) => `${h.role}: ${oneLine(h.content, 200)}`)].join('\n');
        });
      }),
    );

  clientOptions(program.command('transcript <agent>').description('entries of the current (else the last) turn')).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/transcript', { params: { path: { id: agent } } }));
      print(res, flags.json, (r) => [r.turn ? record(r.turn) : '(no turn yet)', '', ...r.entries.map((e) => `${e.role}: ${oneLine(e.content, 200)}`)].join('\n'));
    }),
  );

  const turns = program.command('turns').description("an agent's turns");
  clientOptions(turns.command('activities <agent> <turn_id>').description('tool calls and internal activities of one turn')).action(
    action(async (agent: string, turnId: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/turns/{turn_id}/activities', { params: { path: { id: agent, turn_id: turnId } } }));
      print(res, flags.json, (r) => [record(r.turn), '', ...r.activities.map((a) => `${a.seq} ${a.kind} ${oneLine(JSON.stringify(a.payload ?? a), 160)}`)].join('\n'));
    }),
  );

  clientOptions(program.command('wake <agent> <reason>').description('wake the agent: woken, coalesced or ignored'))
    .option('--source <source>', 'who asks (default cli)', 'cli')
    .action(
      action(async (agent: string, reason: string, flags: ClientFlags & { source: string }) => {
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/wake', { params: { path: { id: agent } }, body: { reason, source: flags.source } }));
        print(res, flags.json, (r) => r.disposition);
      }),
    );

  clientOptions(program.command('control <agent> <action>').description('run control: stop (abort the current run, take nothing) or start')).action(
    action(async (agent: string, what: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/control', { params: { path: { id: agent } }, body: { action: what } }));
      print(res, flags.json, (r) => r.status);
    }),
  );

  clientOptions(program.command('abort <agent>').description('abort the current run; the agent stops'))
    .option('--mode <mode>', 'stop_after_abort (default) or its alias pause_after_abort', (v: string) => {
      if (!['stop_after_abort', 'pause_after_abort'].includes(v)) throw new InvalidArgumentError('must be stop_after_abort or pause_after_abort');
      return v;
    })
    .action(
      action(async (agent: string, flags: ClientFlags & { mode?: string }) => {
        const res = await ok(
          controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/current-run/abort', { params: { path: { id: agent } }, body: flags.mode ? { mode: flags.mode } : {} }),
        );
        print(res, flags.json, (r) => record(r));
      }),
    );

  clientOptions(program.command('debug-prompt <agent> <text>').description('a debug prompt (runtime-internal, interject priority); prints the message id')).action(
    action(async (agent: string, text: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/debug-prompt', { params: { path: { id: agent } }, body: { text } }));
      print(res, flags.json, (r) => r.message_id);
    }),
  );
}
