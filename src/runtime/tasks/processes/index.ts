/**
 * The operating-system side of command tasks: spawning (with a pipe or a pseudo-terminal, in the
 * command sandbox when it is on), the environment a command gets, signalling process groups,
 * reading /proc, and reaping what a task left behind.
 */
export { bootId, isGone, readProc, readUids } from './process-tree.js';
export { BWRAP_PACKAGE, probeBwrap, Sandbox, SandboxUnavailableError, workdirRefusal, type SandboxStatus } from './sandbox.js';
export { passedEnvironment, taskEnvironment } from './task-env.js';
export { killLeftoverGroup, readTail, resolveExecutable, signalGroup, spawnCommand, type Spawned, type Wrapper } from './task-process.js';
export { spawnPty, terminalOptions } from './task-pty.js';
export { TaskReaper, type TaskTarget } from './task-reaper.js';
