/**
 * `--token T` on a command line is visible to every user of the machine in `ps` and
 * /proc/PID/cmdline. The value is read from argv as usual, then the process title (which on Linux
 * rewrites the argv area that `ps` shows) is replaced by the same command with the token masked.
 * The window before this runs is short but real: --token-file and SVC_TOKEN are the safe ways.
 */
export function maskTokenArgs(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--token' && i + 1 < argv.length) {
      out.push(a, '***');
      i++;
    } else if (a.startsWith('--token=')) out.push('--token=***');
    else out.push(a);
  }
  return out;
}

/** Overwrite the process title when argv carries a control token. */
export function hideTokenFromProcessList(argv: string[]): void {
  const masked = maskTokenArgs(argv);
  if (masked.every((a, i) => a === argv[i])) return;
  process.title = ['svc', ...masked.slice(2)].join(' ');
}
