/**
 * `svc runtime status|config|set|shutdown`, `svc metrics` (raw OpenMetrics text), `svc jobs show
 * JOB_ID` and `svc handshake`.
 */
import type { Command } from 'commander';
import { ApiError, clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, print, record, table, type Row } from '../output.js';

export function registerRuntime(program: Command): void {
  const runtime = program.command('runtime').description('daemon status, configuration and shutdown');

  clientOptions(runtime.command('status').description('daemon health: version, auth, models, activity')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/runtime/status'));
      print(res, flags.json, (r) => record(flatten(r)));
    }),
  );

  clientOptions(runtime.command('config').description('effective configuration (secrets redacted)')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/runtime/config'));
      print(res, flags.json, (r) => {
        const { effective, ok: _ok, ...rest } = r;
        return `${record(flatten(rest))}\n\n${record(flatten(effective as Row, 8))}`;
      });
    }),
  );

  clientOptions(
    runtime
      .command('set <key> <value>')
      .description('write one config key (takes effect after restart); VALUE is JSON when it parses, else a string'),
  ).action(
    action(async (key: string, raw: string, flags: ClientFlags) => {
      const res = await ok(
        controlApi(resolveTarget(flags)).PATCH('/api/control/runtime/config', {
          body: { updates: [{ key, value: parseValue(raw) }] },
        }),
      );
      print(res, flags.json, (r) => table(r.results, ['key', 'effect', 'reason']));
      const rejected = res.results.filter((x) => x.effect === 'rejected');
      if (rejected.length > 0) {
        throw new ApiError(1, 'config_rejected', rejected.map((x) => `${x.key}: ${x.reason}`).join('; '), res);
      }
    }),
  );

  clientOptions(runtime.command('shutdown').description('graceful shutdown of the runtime and the daemon')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/runtime/shutdown'));
      print(res, flags.json, () => 'shutting down');
    }),
  );

  clientOptions(program.command('metrics').description('OpenMetrics text of the daemon')).action(
    action(async (flags: ClientFlags) => {
      const body = await ok(
        controlApi(resolveTarget(flags)).GET('/api/control/runtime/metrics', {
          headers: { accept: 'application/openmetrics-text; version=1.0.0, text/plain;q=0.5' },
          parseAs: 'text',
        }),
      );
      process.stdout.write(body.endsWith('\n') ? body : `${body}\n`);
    }),
  );

  const jobs = program.command('jobs').description('background jobs');
  clientOptions(jobs.command('show <job_id>').description('progress of a background job')).action(
    action(async (jobId: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/jobs/{job_id}', { params: { path: { job_id: jobId } } }));
      print(res, flags.json, (r) => record(r.job));
    }),
  );

  clientOptions(program.command('handshake').description('protocol, auth mode, capabilities and runtime facts')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/handshake'));
      print(res, flags.json, (r) => {
        const { capabilities, ok: _ok, ...rest } = r;
        const caps = Array.isArray(capabilities) ? capabilities.join(' ') : capabilities;
        return record({ ...flatten(rest), capabilities: caps });
      });
    }),
  );
}

/** A config value: JSON when it parses (`42`, `true`, `"x"`, `[1]`), else the string itself. */
export function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Nested objects as dotted keys, to `depth` levels. */
function flatten(obj: Row, depth = 2, prefix = ''): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (depth > 0 && v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) Object.assign(out, flatten(v as Row, depth - 1, key));
    else out[key] = v;
  }
  return out;
}
