/**
 * The CLI's exit codes: one table for every command (docs/cli.md#exit-codes). A code means the
 * same thing whichever command ends with it; new meanings get new numbers.
 */
import { ApiError } from './client.js';

export const EXIT = {
  ok: 0,
  /** The daemon refused the request (an error answer), a turn, job, deletion or argument failed, or a `svc doctor` check failed. */
  failed: 1,
  /** The daemon could not be reached (nothing listening on the address or socket). */
  unreachable: 3,
  /** The daemon answered, but what was waited for did not finish in time (`--wait`, `svc tui`). */
  timeout: 4,
} as const;

/** The exit code an error ends a command with. */
export function exitCodeFor(err: unknown): number {
  if (!(err instanceof ApiError)) return EXIT.failed;
  if (err.code === 'unreachable') return EXIT.unreachable;
  if (err.code === 'timeout') return EXIT.timeout;
  return EXIT.failed;
}

/**
 * `svc tasks run --wait`: a command that failed with an exit status of its own passes it on, as
 * `ssh` and `docker run` do, so scripts can branch on it; any other failure (stopped, killed by a
 * signal, a child agent's failure) is EXIT.failed.
 */
export function taskExitCode(task: { status: string; exit_status: number | null }, retrieval: string): number {
  if (task.status === 'completed') return EXIT.ok;
  // `success` means the task had finished when the output was read.
  if (retrieval !== 'success') return EXIT.timeout;
  const own = task.exit_status;
  return task.status === 'failed' && own !== null && own > 0 && own < 256 ? own : EXIT.failed;
}
