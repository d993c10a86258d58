/**
 * `svc triggers …` (external trigger capabilities), `svc bindings …` (operator transport bindings)
 * and `svc ingress` (operator ingress through a binding);
 * docs/control-plane-api.md#ingress-and-provenance and docs/control-plane-api.md#external-triggers.
 */
import { Option, type Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, print, record, table } from '../output.js';

const TRIGGER_COLUMNS = ['trigger_id', 'delivery_mode', 'status', 'created_at', 'last_used_at', 'summary'];
const BINDING_COLUMNS = ['binding_id', 'transport', 'operator_actor_id', 'status', 'provider', 'default_route_id', 'has_credential'];

export function registerTriggers(program: Command): void {
  const triggers = program.command('triggers').description('external triggers: callback capability tokens');

  clientOptions(triggers.command('create <agent>').description('issue a trigger; its token is shown only once'))
    .addOption(new Option('--mode <mode>', 'delivery mode').choices(['enqueue', 'wake']).makeOptionMandatory())
    .option('--summary <text>', 'what the trigger is for')
    .action(
      action(async (agent: string, flags: ClientFlags & { mode: 'enqueue' | 'wake'; summary?: string }) => {
        const target = resolveTarget(flags);
        const res = await ok(
          controlApi(target).POST('/api/control/agents/{id}/external-triggers', { params: { path: { id: agent } }, body: { delivery_mode: flags.mode, summary: flags.summary } }),
        );
        print(res, flags.json, (r) => {
          const { ok: _ok, ...rest } = r;
          const url = target.base ? new URL(r.callback_path.replace(/^\//, ''), target.base).toString() : null;
          return `${record({ ...rest, callback_url: url })}\nnote: the token is shown only now; it is not shown again (only its hash is stored).`;
        });
      }),
    );

  clientOptions(triggers.command('list <agent>').description("the agent's triggers (never their tokens)")).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/agents/{id}/external-triggers', { params: { path: { id: agent } } }));
      print(res, flags.json, (r) => table(r.triggers, TRIGGER_COLUMNS));
    }),
  );

  clientOptions(triggers.command('revoke <agent> <trigger_id>').description('revoke a trigger (idempotent)')).action(
    action(async (agent: string, triggerId: string, flags: ClientFlags) => {
      const res = await ok(
        controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/external-triggers/{trigger_id}/revoke', { params: { path: { id: agent, trigger_id: triggerId } } }),
      );
      print(res, flags.json, (r) => {
        const { ok: _ok, ...rest } = r;
        return record(rest);
      });
    }),
  );

  const bindings = program.command('bindings').description('operator transport bindings');

  clientOptions(bindings.command('set <agent>').description('create or update an operator binding'))
    .requiredOption('--actor <actor_id>', 'operator actor id')
    .requiredOption('--transport <transport>', 'transport (hyphen or underscore spelling)')
    .option('--binding-id <id>', 'binding id (default: a new bnd_… id)')
    .option('--callback-url <url>', 'delivery callback URL (http or https)')
    .option('--bearer-token <token>', 'delivery credential (stored, never shown again)')
    .option('--provider <provider>', 'provider name')
    .option('--default-route <route_id>', 'default reply route id')
    .action(
      action(
        async (
          agent: string,
          flags: ClientFlags & { actor: string; transport: string; bindingId?: string; callbackUrl?: string; bearerToken?: string; provider?: string; defaultRoute?: string },
        ) => {
          const body = {
            binding_id: flags.bindingId,
            transport: flags.transport,
            operator_actor_id: flags.actor,
            delivery_callback_url: flags.callbackUrl,
            delivery_auth: flags.bearerToken === undefined ? undefined : { kind: 'bearer' as const, bearer_token: flags.bearerToken },
            provider: flags.provider,
            default_route_id: flags.defaultRoute,
          };
          const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/operator-bindings', { params: { path: { id: agent } }, body }));
          print(res, flags.json, (r) => `${r.created ? 'created' : 'updated'}\n${record(r.binding)}`);
        },
      ),
    );

  clientOptions(bindings.command('list <agent>').description("the agent's operator bindings (credentials redacted)")).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/agents/{id}/operator-bindings', { params: { path: { id: agent } } }));
      print(res, flags.json, (r) => table(r.bindings, BINDING_COLUMNS));
    }),
  );

  clientOptions(program.command('ingress <agent> <text>').description('operator ingress: send TEXT through an operator binding'))
    .requiredOption('--binding <binding_id>', 'the binding to send through')
    .requiredOption('--actor <actor_id>', "the binding's operator actor id")
    .option('--provider <provider>', "the binding's provider")
    .option('--reply-route <route_id>', "reply route (default: the binding's default route)")
    .action(
      action(async (agent: string, text: string, flags: ClientFlags & { binding: string; actor: string; provider?: string; replyRoute?: string }) => {
        const body = { text, binding_id: flags.binding, actor_id: flags.actor, provider: flags.provider, reply_route_id: flags.replyRoute };
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/operator-ingress', { params: { path: { id: agent } }, body }));
        print(res, flags.json, (r) => `queued ${r.message_id} for ${r.agent_id}`);
      }),
    );
}
