/**
 * The environment of a command task, sandboxed or not (docs/security.md#environment): the one
 * allowlist of the daemon's variables a command may see, the task's identity (SVC_AGENT_ID) and
 * the reaper's marker (task-reaper.ts). Nothing else of the daemon's environment reaches a
 * command: not SVC_TOKEN, provider keys, cloud or SSH agent credentials, proxies (their URLs may
 * carry a password), nor what changes how programs load (LD_*, NODE_OPTIONS).
 */
import { SANDBOX_HOME } from './sandbox.js';

/** Harmless variables of the daemon passed to every command, by exact name. */
const PASSED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'TMPDIR', 'EDITOR', 'VISUAL', 'PAGER'];
/** ...and by prefix (the locale categories). */
const PASSED_PREFIXES = ['LC_'];
/**
 * Never passed, whatever the lists above say: svc's own variables and names that hold secrets. A
 * guard for the day the allowlist grows.
 */
const SECRET_NAME = /^SVC_|API_?KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|PRIVATE_KEY|^AWS_|^SSH_AUTH_SOCK$|^GPG_AGENT/i;

export interface TaskEnvOptions {
  agentId: string;
  /** The reaper's marker variables of the task. */
  marker: Record<string, string>;
  /** In the sandbox HOME and TMPDIR point into its private /tmp. */
  sandboxed: boolean;
  /** Variables this configuration keeps secrets in ([providers.*] api_key_env): never passed. */
  secretNames?: Iterable<string>;
}

export function taskEnvironment(daemonEnv: NodeJS.ProcessEnv, o: TaskEnvOptions): Record<string, string> {
  const env = passedEnvironment(daemonEnv, o.secretNames);
  if (o.sandboxed) Object.assign(env, { HOME: SANDBOX_HOME, TMPDIR: '/tmp' });
  return { ...env, SVC_AGENT_ID: o.agentId, ...o.marker };
}

/** The daemon's variables on the allowlist (also what an MCP server starts from: runtime/mcp/). */
export function passedEnvironment(daemonEnv: NodeJS.ProcessEnv, secretNames: Iterable<string> = []): Record<string, string> {
  const secret = new Set(secretNames);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(daemonEnv)) {
    if (value === undefined || secret.has(name) || SECRET_NAME.test(name)) continue;
    if (PASSED.includes(name) || PASSED_PREFIXES.some((p) => name.startsWith(p))) env[name] = value;
  }
  return env;
}
