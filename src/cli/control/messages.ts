/** `svc prompt AGENT TEXT` (operator prompt) and `svc enqueue AGENT TEXT` (external message). */
import type { Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { durationArg } from '../duration.js';
import { action, print } from '../output.js';
import { printBrief, waitForBrief } from './run.js';

interface EnqueueFlags extends ClientFlags {
  channel?: string;
  sender?: string;
  webhookSource?: string;
  priority?: string;
  jsonBody?: string;
}

const PRIORITIES = ['next', 'normal', 'background'];

export function registerMessages(program: Command): void {
  clientOptions(program.command('prompt <agent> <text>').description('operator prompt (trusted operator, priority interject); prints the message id, or with --wait the reply'))
    .option('--wait [duration]', "wait for the turn's brief and print its text, at most this long (default 2m; 30s, 5m, a bare number is milliseconds); exit 1 if the turn failed, 4 if no answer came in time", durationArg)
    .action(
      action(async (agent: string, text: string, flags: ClientFlags & { wait?: true | number }) => {
        const target = resolveTarget(flags);
        const res = await ok(controlApi(target).POST('/api/control/agents/{id}/prompt', { params: { path: { id: agent } }, body: { text } }));
        if (flags.wait === undefined) return print(res, flags.json, (r) => r.message_id);
        const timeoutMs = flags.wait === true ? 120_000 : flags.wait;
        printBrief(await waitForBrief(target, agent, res.message_id, timeoutMs), flags.json);
      }),
    );

  clientOptions(program.command('enqueue <agent> [text]').description('enqueue an external message (channel or webhook origin); prints the message id'))
    .option('--channel <id>', 'channel origin: channel id (untrusted external)')
    .option('--sender <id>', 'channel origin: sender id')
    .option('--webhook-source <source>', 'webhook origin: source (trusted integration; the default origin)')
    .option('--priority <priority>', `${PRIORITIES.join('|')} (default normal)`)
    .option('--json-body <json>', 'a JSON object as the message content instead of TEXT')
    .action(
      action(async (agent: string, text: string | undefined, flags: EnqueueFlags) => {
        const body: Record<string, unknown> = {};
        if (flags.jsonBody !== undefined) {
          if (text !== undefined) throw new Error('give either TEXT or --json-body, not both');
          let parsed: unknown;
          try {
            parsed = JSON.parse(flags.jsonBody);
          } catch (err) {
            throw new Error(`--json-body is not valid JSON: ${(err as Error).message}`);
          }
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('--json-body must be a JSON object');
          body.json = parsed;
        } else if (text !== undefined) {
          body.text = text;
        } else {
          throw new Error('missing message: give TEXT or --json-body');
        }
        if (flags.channel !== undefined || flags.sender !== undefined) {
          if (flags.webhookSource !== undefined) throw new Error('--channel/--sender and --webhook-source are exclusive');
          if (flags.channel === undefined) throw new Error('--sender needs --channel');
          body.origin = { kind: 'channel', channel_id: flags.channel, ...(flags.sender !== undefined ? { sender_id: flags.sender } : {}) };
        } else if (flags.webhookSource !== undefined) {
          body.origin = { kind: 'webhook', source: flags.webhookSource };
        }
        if (flags.priority !== undefined) {
          if (!PRIORITIES.includes(flags.priority)) throw new Error(`--priority must be one of ${PRIORITIES.join(', ')}`);
          body.priority = flags.priority;
        }
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/agents/{id}/enqueue', { params: { path: { id: agent } }, body }));
        print(res, flags.json, (r) => r.message_id);
      }),
    );
}
