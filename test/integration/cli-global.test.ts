/**
 * Command-line behaviour common to every `svc` command: `svc completion`, the client options
 * before the subcommand, `--json` failures as one document, environment errors named as such.
 * Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, runSvc, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

describe('svc completion', () => {
  it('bash: a valid script naming the commands, subcommands and their long options', async () => {
    const r = await runSvc(['completion', 'bash']);
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-completion-')), 'svc.bash');
    fs.writeFileSync(file, r.stdout);
    execFileSync('bash', ['-n', file]);
    for (const word of ["'svc agents list'", "'svc tasks run'", "'svc inbox subscriptions'", '--cascade', '--log-level', 'completion']) expect(r.stdout).toContain(word);
    // The script completes: `svc agents cr<TAB>` and `svc agents delete x --cas<TAB>`.
    const complete = (words: string[]) =>
      execFileSync('bash', ['-c', `source ${file}; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _svc; echo "\${COMPREPLY[@]}"`], { encoding: 'utf8' }).trim();
    expect(complete(['svc', 'agents', 'cr'])).toBe('create');
    expect(complete(['svc', 'agents', 'delete', 'x', '--cas'])).toBe('--cascade');
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('zsh and fish', async () => {
    const zsh = await runSvc(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef svc\n/);
    expect(zsh.stdout).toContain('bashcompinit');
    const fish = await runSvc(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain("complete -c svc -n '__svc_at \\'svc agents\\'' -f -a 'list'");
    expect(fish.stdout).toContain('-l wait');
  });

  it('an unknown shell is a usage error naming the accepted ones', async () => {
    const r = await runSvc(['completion', 'ksh']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown shell 'ksh': choose bash, zsh, fish/);
  });
});

describe('client options before the subcommand', () => {
  const TOKEN = 'cli-global-token';
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await pool.start({ args: ['--token', TOKEN] });
  });

  it('--url, --token, --json and --home work before the subcommand as after it', async () => {
    const before = await runSvc(['--url', d.base, '--token', TOKEN, '--json', 'agents', 'list']);
    const after = await runSvc(['agents', 'list', '--url', d.base, '--token', TOKEN, '--json']);
    expect(before.code, before.stderr).toBe(0);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
    expect(JSON.parse(before.stdout).ok).toBe(true);
    // Mixed: the URL before, the token after; --home before finds the daemon through daemon.json.
    const mixed = await runSvc(['--url', d.base, 'agents', 'list', '--token', TOKEN]);
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stdout).toMatch(/^AGENT_ID\s/);
    const byHome = await runSvc(['--home', d.home, '--token', TOKEN, '--json', 'status']);
    expect(byHome.code, byHome.stderr).toBe(0);
    expect(JSON.parse(byHome.stdout)).toMatchObject({ url_from: 'daemon.json' });
  });

  it('one given after the subcommand wins; one the command does not take is a usage error', async () => {
    const r = await runSvc(['--url', 'http://127.0.0.1:1', 'agents', 'list', '--url', d.base, '--token', TOKEN]);
    expect(r.code, r.stderr).toBe(0);
    const serve = await runSvc(['--home', d.home, '--url', d.base, 'serve']);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toMatch(/option '--url' does not apply to 'serve'/);
  });

  it('tasks run keeps its verbatim tail after `--`', async () => {
    await runSvc(['agents', 'create', 'g1', '--url', d.base, '--token', TOKEN]);
    const r = await runSvc(['--url', d.base, '--token', TOKEN, '--json', 'tasks', 'run', 'g1', '--wait', '--', 'sh', '-c', 'echo "a b"; exit 3'], {}, 30_000);
    expect(r.code, r.stderr).toBe(3);
    expect(JSON.parse(r.stdout).task).toMatchObject({ status: 'failed', exit_status: 3 });
  });
});

describe('--json failures: one document on stdout, nothing on stderr, the exit code of the table', () => {
  /** Runs svc, expects exit `code`, an empty stderr and one {ok: false} document on stdout; returns it. */
  async function jsonFailure(args: string[], code: number): Promise<{ ok: false; code: string; error: string; status: number }> {
    const r = await runSvc(args);
    expect(r.code, `svc ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(code);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: false, code: expect.any(String), error: expect.any(String) });
    return doc;
  }

  it('refused by the daemon, unreachable', async () => {
    const d = await pool.start();
    expect(await jsonFailure(['--json', 'agents', 'show', 'nobody', '--url', d.base], 1)).toMatchObject({ code: 'agent_not_found', status: 404 });
    expect(await jsonFailure(['agents', 'show', 'nobody', '--url', d.base, '--json'], 1)).toMatchObject({ code: 'agent_not_found' });
    expect(await jsonFailure(['--json', '--url', 'http://127.0.0.1:1', 'agents', 'list'], 3)).toMatchObject({ code: 'unreachable', status: 0 });
  });

  it('usage errors: unknown option or command, missing argument, an option the command does not take', async () => {
    expect((await jsonFailure(['agents', 'list', '--json', '--bogus'], 1))).toMatchObject({ code: 'usage_error', error: "unknown option '--bogus'" });
    expect((await jsonFailure(['--json', 'agents', 'show'], 1))).toMatchObject({ code: 'usage_error', error: "missing required argument 'id'" });
    expect((await jsonFailure(['--json', 'nosuch'], 1))).toMatchObject({ code: 'usage_error', error: "unknown command 'nosuch'" });
    expect((await jsonFailure(['--json', 'serve'], 1))).toMatchObject({ code: 'usage_error', error: "option '--json' does not apply to 'serve'" });
    expect((await jsonFailure(['--json', 'agents'], 1))).toMatchObject({ code: 'usage_error', error: expect.stringMatching(/^'svc agents' needs a subcommand: list, create, /) });
    expect((await jsonFailure(['--json', 'inbox', 'agents'], 1))).toMatchObject({ code: 'usage_error', error: expect.stringContaining("'svc inbox agents' needs a subcommand") });
    expect((await jsonFailure(['--json', 'agents', 'nosuch'], 1))).toMatchObject({ code: 'usage_error', error: "unknown command 'nosuch'" });
    // Without --json, commander's message on stderr as before.
    const plain = await runSvc(['agents', 'list', '--bogus']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^error: unknown option '--bogus'/);
  });
});

describe('help', () => {
  it('a group without a subcommand prints its help on stdout and exits 0, as gh does', async () => {
    for (const args of [['agents'], ['inbox'], ['inbox', 'agents'], []]) {
      const r = await runSvc(args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
      expect(r.stdout).toMatch(new RegExp(`^Usage: svc${args.map((a) => ` ${a}`).join('')} \\[options\\] \\[command\\]\n`));
      expect(r.stdout).toMatch(/\nExamples:\n {2}svc /);
    }
    const unknown = await runSvc(['agents', 'nosuch']);
    expect([unknown.code, unknown.stdout]).toEqual([1, '']);
    expect(unknown.stderr).toMatch(/^error: unknown command 'nosuch'/);
  });

  it("a command's --help ends with its examples", async () => {
    const r = await runSvc(['inbox', 'targets', 'create', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nExamples:\n {2}svc inbox targets create ops --kind webhook --webhook-url \S+\n(.*\n){1,2}$/);
  });
});

describe('a bad setting is named where it came from', () => {
  it('the environment variable, the command-line option, or the config file', async () => {
    const home = pool.home();
    const env = await runSvc(['serve', '--home', home, '--listen', '127.0.0.1:0'], { SVC_LOG_LEVEL: 'loud' });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/^svc: environment variable SVC_LOG_LEVEL: log_level: /m);
    expect(env.stderr).not.toContain('config.toml');
    const flag = await runSvc(['serve', '--home', home, '--listen', '127.0.0.1:0', '--log-level', 'loud']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/^svc: command-line option --log-level: log_level: /m);
    fs.writeFileSync(path.join(home, 'config.toml'), 'log_level = "loud"\n');
    const file = await runSvc(['serve', '--home', home, '--listen', '127.0.0.1:0']);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain(`svc: ${path.join(home, 'config.toml')}: log_level: `);
    // The file's value is overridden by a valid environment variable: no error from it.
    const listen = await runSvc(['serve', '--home', home], { SVC_LOG_LEVEL: 'info', SVC_LISTEN: 'nowhere' });
    expect(listen.code).toBe(1);
    expect(listen.stderr).toMatch(/^svc: environment variable SVC_LISTEN: listen: /m);
  });
});
