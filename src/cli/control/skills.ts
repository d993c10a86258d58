/**
 * `svc skills …`: the catalog (catalog, show, refresh), the user library (add, remove, check,
 * reconcile, update) and per-agent enablement (list, enable, disable). `add` and `update` run as
 * background jobs on the daemon; the command follows the job (progress on stderr) until it ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ApiError, clientOptions, controlApi, ok, resolveTarget, sleep, type ClientFlags, type Target } from '../client.js';
import { action, print, record, table, type Row } from '../output.js';

const CATALOG_COLUMNS = ['skill_id', 'scope', 'name', 'description', 'path'];
const AGENT_COLUMNS = ['name', 'scope', 'source', 'available', 'description'];
const CHECK_COLUMNS = ['name', 'status', 'mode', 'etag', 'latest', 'error'];

interface Job {
  job_id: string;
  kind: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  phase: string | null;
  progress: { message?: string; step?: number; steps?: number } | null;
  result: Row | null;
  error: string | null;
}

/**
 * What the daemon gets as `source`: an existing local path becomes absolute (the daemon does not
 * know the caller's directory) unless `--remote` says it names a remote repository.
 */
export function sourceArg(source: string, remote: boolean, cwd = process.cwd()): { source: string; local: boolean } {
  if (!remote && !/^[a-z]+:\/\//i.test(source)) {
    const abs = path.resolve(cwd, source);
    if (fs.existsSync(abs)) return { source: abs, local: true };
  }
  return { source, local: false };
}

/** Poll GET /api/jobs/:id until the job ends; each new progress line goes to stderr. */
export async function followJob(target: Target, jobId: string, label: string): Promise<Job> {
  let shown = '';
  for (;;) {
    const { job } = await ok(controlApi(target).GET('/api/jobs/{job_id}', { params: { path: { job_id: jobId } } }));
    const p = job.progress;
    const line = `${job.status}${job.phase ? ` ${job.phase}` : ''}${p?.step ? ` [${p.step}/${p.steps}]` : ''}${p?.message ? `: ${p.message}` : ''}`;
    if (line !== shown) {
      process.stderr.write(`${label}: ${line}\n`);
      shown = line;
    }
    if (job.status === 'completed') return job;
    if (job.status === 'failed') throw new ApiError(1, 'job_failed', `${label} failed (job ${job.job_id}): ${job.error ?? 'unknown error'}`, { job });
    await sleep(150);
  }
}

export function registerSkills(program: Command): void {
  const skills = program.command('skills').description('skills: the catalog, the user library, per-agent enablement');

  clientOptions(skills.command('catalog').description("the library and the active workspace's skills"))
    .option('--agent <agent_id>', 'whose active workspace (default: the default agent)')
    .action(
      action(async (flags: ClientFlags & { agent?: string }) => {
        const res = await ok(controlApi(resolveTarget(flags)).GET('/api/skills/catalog', { params: { query: { agent_id: flags.agent } } }));
        print(res, flags.json, (r) =>
          [table(r.skills, CATALOG_COLUMNS), ...r.invalid.map((i) => `invalid: ${i.path}: ${i.error}`)].join('\n'),
        );
      }),
    );

  clientOptions(skills.command('show <skill>').description('detail of a skill (skill_id or name)'))
    .option('--agent <agent_id>', 'whose active workspace (default: the default agent)')
    .action(
      action(async (skill: string, flags: ClientFlags & { agent?: string }) => {
        const res = await ok(controlApi(resolveTarget(flags)).GET('/api/skills/catalog/{skill_id}', { params: { path: { skill_id: skill }, query: { agent_id: flags.agent } } }));
        print(res, flags.json, (r) => {
          const { content, ok: _ok, ...rest } = r;
          return `${record(rest)}\n\n${content.trim()}`;
        });
      }),
    );

  clientOptions(
    skills
      .command('add <source>')
      .description('add a skill to the library: a local directory, a git URL (#ref, #ref:path) or owner/repo/path@ref'),
  )
    .option('--remote', 'SOURCE names a remote repository even if a local path of that name exists')
    .option('--copy', 'copy a local directory into the library (default for local sources: a symbolic link)')
    .action(
      action(async (source: string, flags: ClientFlags & { remote?: boolean; copy?: boolean }) => {
        const target = resolveTarget(flags);
        const arg = sourceArg(source, flags.remote ?? false);
        const mode = arg.local && !flags.copy ? 'link' : 'copy';
        const res = await ok(controlApi(target).POST('/api/skills/catalog/add', { body: { source: arg.source, mode } }));
        if ('skill' in res) {
          print(res, flags.json, (r) => `already in the library\n${record(r.skill)}`);
          return;
        }
        const job = await followJob(target, res.job_id, `add ${source}`);
        print({ ok: true, job }, flags.json, (r) => {
          const result = r.job.result ?? {};
          return `${result.installed ? 'installed' : 'already installed'} ${String(result.name)} (${String(result.etag)})\n${record((result.skill as Row) ?? {})}`;
        });
      }),
    );

  clientOptions(skills.command('remove <name>').description('remove a skill from the library')).action(
    action(async (name: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/skills/catalog/remove', { body: { name } }));
      print(res, flags.json, (r) => `removed ${r.name}${r.disabled_for.length ? `; disabled for ${r.disabled_for.join(', ')}` : ''}`);
    }),
  );

  clientOptions(skills.command('check').description('is each locked skill up to date with its source?')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/skills/catalog/check', { body: {} }));
      print(res, flags.json, (r) => `${table(r.skills, CHECK_COLUMNS)}\n${r.checked} checked, ${r.outdated} outdated`);
    }),
  );

  clientOptions(skills.command('reconcile').description('compare the lock file with the library'))
    .option('--prune', 'drop lock entries whose library directory is gone')
    .action(
      action(async (flags: ClientFlags & { prune?: boolean }) => {
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/skills/catalog/reconcile', { body: flags.prune ? { prune: true } : {} }));
        print(res, flags.json, (r) =>
          [
            r.in_sync ? 'in sync' : 'out of sync',
            `missing (locked, not in the library): ${r.missing.join(', ') || '-'}`,
            `extra (in the library, not locked): ${r.extra.join(', ') || '-'}`,
            ...(r.pruned.length ? [`pruned: ${r.pruned.join(', ')}`] : []),
          ].join('\n'),
        );
      }),
    );

  clientOptions(skills.command('update').description('re-install locked skills whose source changed')).action(
    action(async (flags: ClientFlags) => {
      const target = resolveTarget(flags);
      const res = await ok(controlApi(target).POST('/api/skills/catalog/update', { body: {} }));
      const job = await followJob(target, res.job_id, 'update');
      print({ ok: true, job }, flags.json, (r) => {
        const x = (r.job.result ?? {}) as { updated?: Row[]; up_to_date?: string[]; skipped?: Row[]; failed?: Row[] };
        return [
          `updated: ${(x.updated ?? []).map((u) => u.name).join(', ') || '-'}`,
          `up to date: ${(x.up_to_date ?? []).join(', ') || '-'}`,
          ...(x.skipped ?? []).map((s) => `skipped ${String(s.name)}: ${String(s.reason)}`),
          ...(x.failed ?? []).map((f) => `failed ${String(f.name)}: ${String(f.error)}`),
        ].join('\n');
      });
    }),
  );

  clientOptions(skills.command('refresh').description('rescan the library and workspace roots'))
    .option('--agent <agent_id>', 'whose active workspace (default: the default agent)')
    .action(
      action(async (flags: ClientFlags & { agent?: string }) => {
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/skills/catalog/refresh', { body: flags.agent ? { agent_id: flags.agent } : {} }));
        print(res, flags.json, (r) =>
          [`${r.total} skills (${r.user} user, ${r.workspace} workspace)`, ...r.invalid.map((i) => `invalid: ${i.path}: ${i.error}`)].join('\n'),
        );
      }),
    );

  clientOptions(skills.command('list').description('skills enabled for an agent'))
    .requiredOption('--agent <agent_id>', 'the agent')
    .action(
      action(async (flags: ClientFlags & { agent: string }) => {
        const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/skills', { params: { path: { id: flags.agent } } }));
        print(res, flags.json, (r) => table(r.skills, AGENT_COLUMNS));
      }),
    );

  clientOptions(skills.command('enable <name>').description('enable a skill for an agent'))
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--copy', 'a private copy under the agent home (scope agent)')
    .action(
      action(async (name: string, flags: ClientFlags & { agent: string; copy?: boolean }) => {
        const res = await ok(
          controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/skills/enable', { params: { path: { id: flags.agent } }, body: { name, ...(flags.copy ? { copy: true } : {}) } }),
        );
        print(res, flags.json, (r) => `${r.changed ? 'enabled' : 'already enabled'} ${name} for ${flags.agent} (${String(r.skill.scope)})`);
      }),
    );

  clientOptions(skills.command('disable <name>').description('disable a skill for an agent'))
    .requiredOption('--agent <agent_id>', 'the agent')
    .action(
      action(async (name: string, flags: ClientFlags & { agent: string }) => {
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/skills/disable', { params: { path: { id: flags.agent } }, body: { name } }));
        print(res, flags.json, (r) => `${r.changed ? 'disabled' : 'was not enabled:'} ${name} for ${flags.agent}`);
      }),
    );
}
