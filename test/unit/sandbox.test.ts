/**
 * The command sandbox's pieces (src/runtime/tasks/processes/sandbox.ts, task-env.ts): the bwrap
 * argv built for a task, the workdir rule, the environment a command gets, the exit read back
 * from bubblewrap and the detection. What a sandboxed command can and cannot do is checked against
 * a real daemon in test/integration/sandbox.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapArgs, probeBwrap, Sandbox, SandboxUnavailableError, workdirRefusal, type SandboxLayout } from '../../src/runtime/tasks/processes/sandbox.js';
import { taskEnvironment } from '../../src/runtime/tasks/processes/task-env.js';
import { commandExit, commandLine } from '../../src/runtime/tasks/processes/task-process.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sandbox-unit-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const home = '/srv/svc-home';
const layout = (over: Partial<SandboxLayout> = {}): SandboxLayout => ({
  home,
  root: `${home}/agents/main`,
  workdir: `${home}/agents/main`,
  network: false,
  tty: false,
  masks: [],
  ...over,
});

/** The mount options of an argv, as [option, ...paths] tuples in order. */
function mounts(args: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--tmpfs' || a === '--dir') out.push([a, args[i + 1]!]);
    if (a === '--bind' || a === '--ro-bind' || a === '--ro-bind-try') out.push([a, args[i + 1]!, args[i + 2]!]);
  }
  return out;
}

describe('bwrap argv', () => {
  it('shows the system read-only, hides the homes, /run and the daemon home, then binds the workspace writable on top', () => {
    const args = bwrapArgs(layout());
    expect(args.slice(0, 7)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']);
    expect(mounts(args)).toEqual([
      ['--ro-bind', '/', '/'],
      ['--tmpfs', '/tmp'],
      ['--tmpfs', '/home'],
      ['--tmpfs', '/root'],
      ['--tmpfs', '/run'],
      ['--tmpfs', home],
      ['--bind', `${home}/agents/main`, `${home}/agents/main`],
      ['--dir', '/tmp/home'],
    ]);
    for (const flag of ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net', '--die-with-parent', '--new-session']) {
      expect(args).toContain(flag);
    }
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
    expect(args.slice(-2)).toEqual(['--chdir', `${home}/agents/main`]);
  });

  it('hides a daemon home inside the workspace again after binding the workspace', () => {
    const args = bwrapArgs(layout({ home: '/root/project/.svc', root: '/root/project', workdir: '/root/project/src' }));
    const m = mounts(args).map((x) => x.join(' '));
    expect(m.indexOf('--tmpfs /root')).toBeLessThan(m.indexOf('--bind /root/project /root/project'));
    expect(m.indexOf('--bind /root/project /root/project')).toBeLessThan(m.indexOf('--tmpfs /root/project/.svc'));
    expect(args.slice(-2)).toEqual(['--chdir', '/root/project/src']);
  });

  it('network: no network namespace, and the resolver directory of /run; a terminal task keeps its session', () => {
    const open = bwrapArgs(layout({ network: true, tty: true }));
    expect(open).not.toContain('--unshare-net');
    expect(open).not.toContain('--new-session');
    expect(mounts(open)).toContainEqual(['--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve']);
    expect(open).toContain('--unshare-pid');
  });

  it('a workdir outside the workspace under /tmp is bound read-only; one in the read-only system needs no bind', () => {
    const wd = fs.mkdtempSync(path.join(dir, 'wd-'));
    expect(mounts(bwrapArgs(layout({ workdir: wd })))).toContainEqual(['--ro-bind', wd, wd]);
    expect(mounts(bwrapArgs(layout({ workdir: '/usr/share' }))).filter((m) => m[0] === '--ro-bind')).toEqual([['--ro-bind', '/', '/']]);
  });

  it('covers a visible inbox socket with /dev/null, and leaves one the sandbox hides anyway', () => {
    const sock = path.join(dir, 'inbox.sock');
    fs.writeFileSync(sock, '');
    const outside = '/etc/hostname'; // any existing file of the visible system stands for a socket there
    const args = mounts(bwrapArgs(layout({ masks: [outside, sock, `${home}/inbox.sock`] })));
    expect(args).toContainEqual(['--ro-bind', '/dev/null', outside]);
    expect(args.filter((m) => m[1] === '/dev/null')).toHaveLength(1);
  });

  it('runs the shell after `--` under env, which restores the signals the outer bwrap ignores', () => {
    const [file, args] = commandLine({ shell: '/bin/sh', login: false, cmd: 'echo hi', wrapper: { file: '/usr/bin/env', args: ['--ignore-signal=TERM', '/usr/bin/bwrap', '--', '/usr/bin/env', '--default-signal=TERM'] } });
    expect([file, ...args]).toEqual(['/usr/bin/env', '--ignore-signal=TERM', '/usr/bin/bwrap', '--', '/usr/bin/env', '--default-signal=TERM', '/bin/sh', '-c', 'echo hi']);
    expect(commandLine({ shell: '/bin/bash', login: true, cmd: 'x', wrapper: null })).toEqual(['/bin/bash', ['-lc', 'x']]);
  });
});

describe('workdir rule', () => {
  const root = `${home}/agents/main`;
  it('allows the workspace and the visible system, refuses the hidden trees', () => {
    expect(workdirRefusal(home, root, `${root}/sub`)).toBeNull();
    expect(workdirRefusal(home, root, '/usr/share')).toBeNull();
    expect(workdirRefusal(home, root, dir)).toBeNull(); // under /tmp: bound read-only
    expect(workdirRefusal(home, root, home)).toMatch(/hides \/srv\/svc-home/);
    expect(workdirRefusal(home, root, `${home}/agents/other`)).toMatch(/daemon home/);
    expect(workdirRefusal(home, root, '/root')).toMatch(/home directories/);
    expect(workdirRefusal(home, root, '/home/someone/project')).toMatch(/home directories/);
    expect(workdirRefusal(home, root, '/run/user')).toMatch(/\/run/);
  });

  it('judges a symlink by where it leads', () => {
    const link = path.join(dir, 'to-root');
    fs.symlinkSync('/root', link);
    expect(workdirRefusal(home, root, link)).toMatch(/home directories/);
  });
});

describe('task environment', () => {
  const daemonEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/root',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm',
    TZ: 'UTC',
    USER: 'root',
    SVC_TOKEN: 'control-token',
    SVC_HOME: '/srv/svc-home',
    OPENAI_API_KEY: 'sk-1',
    MY_PROVIDER_KEY: 'sk-2',
    GITHUB_TOKEN: 'ghp',
    AWS_SECRET_ACCESS_KEY: 'aws',
    AWS_REGION: 'eu-west-1',
    SSH_AUTH_SOCK: '/tmp/ssh.sock',
    DB_PASSWORD: 'pw',
    HTTPS_PROXY: 'http://user:pw@proxy:3128',
    LD_PRELOAD: '/evil.so',
    NODE_OPTIONS: '--require /evil.js',
    RANDOM_THING: 'x',
  };
  const marker = { SVC_TASK_ID: 'task_1', SVC_TASK_OWNER: 'owner' };

  it('passes the allowlist, the task identity and the marker, nothing else', () => {
    const env = taskEnvironment(daemonEnv, { agentId: 'main', marker, sandboxed: false, secretNames: ['MY_PROVIDER_KEY'] });
    const passed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TZ', 'USER'] as const;
    expect(env).toEqual({ ...Object.fromEntries(passed.map((k) => [k, daemonEnv[k]])), SVC_AGENT_ID: 'main', ...marker });
  });

  it('points HOME and TMPDIR into the private /tmp in the sandbox', () => {
    const env = taskEnvironment(daemonEnv, { agentId: 'main', marker, sandboxed: true });
    expect(env).toMatchObject({ HOME: '/tmp/home', TMPDIR: '/tmp', PATH: '/usr/bin:/bin' });
  });

  it('drops an api_key_env name even when the allowlist would pass it', () => {
    expect(taskEnvironment(daemonEnv, { agentId: 'main', marker, sandboxed: false, secretNames: ['LANG'] })).not.toHaveProperty('LANG');
  });
});

describe('exit of a sandboxed command', () => {
  const wrapped = { wrapper: { file: 'env', args: [] } };
  it('reads 128 + N back as signal N, only in the sandbox', () => {
    expect(commandExit(wrapped, 137, null)).toEqual([null, 'SIGKILL']);
    expect(commandExit(wrapped, 143, null)).toEqual([null, 'SIGTERM']);
    expect(commandExit(wrapped, 3, null)).toEqual([3, null]);
    expect(commandExit(wrapped, 128, null)).toEqual([128, null]);
    expect(commandExit(wrapped, 255, null)).toEqual([255, null]);
    expect(commandExit(wrapped, null, 'SIGKILL')).toEqual([null, 'SIGKILL']);
    expect(commandExit({ wrapper: null }, 137, null)).toEqual([137, null]);
  });
});

describe('detection', () => {
  const missing = path.join(dir, 'no-such-bwrap');
  it('a missing bwrap: auto runs unsandboxed and says so, required refuses naming the package, off never looks', () => {
    const auto = new Sandbox('auto', missing);
    expect(auto.status()).toMatchObject({ mode: 'auto', active: false, bwrap: null, version: null });
    expect(auto.status().reason).toMatch(/^bubblewrap missing .*install the Debian package bubblewrap; commands run unsandboxed$/);
    expect(auto.wrap(layout())).toBeNull();

    const required = new Sandbox('required', missing);
    expect(required.status().reason).toMatch(/; command tasks fail until then$/);
    expect(() => required.wrap(layout())).toThrow(SandboxUnavailableError);
    expect(() => required.wrap(layout())).toThrow(/sandbox = "required".*Debian package bubblewrap/);

    expect(new Sandbox('off', missing).status()).toEqual({ mode: 'off', active: false, bwrap: null, version: null, reason: null });
    expect(new Sandbox('off', missing).wrap(layout())).toBeNull();
  });

  it('a bwrap that cannot make a sandbox is unavailable with its error', () => {
    const fake = path.join(dir, 'bwrap-broken');
    fs.writeFileSync(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const probe = probeBwrap(fake);
    expect(probe.bwrap).toBe(fake);
    expect(probe.error).toMatch(/cannot make a sandbox here.*No permissions to create new namespace/);
  });

  const real = probeBwrap();
  it.skipIf(real.error !== null)('finds the bwrap on PATH, its version, and a working sandbox', () => {
    expect(real.bwrap).toMatch(/bwrap$/);
    expect(real.version).toMatch(/^\d+\.\d+/);
    const s = new Sandbox('required').status();
    expect(s).toMatchObject({ mode: 'required', active: true, reason: null });
  });
});
