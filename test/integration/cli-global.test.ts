/**
 * Command-line behaviour common to every `svc` command: `svc completion`, the client options
 * before the subcommand, `--json` failures as one document, environment errors named as such.
 * Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonPool, runSvc } from '../helpers/daemon.js';

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
