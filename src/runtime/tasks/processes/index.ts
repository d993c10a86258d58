/**
 * The operating-system side of command tasks: spawning (with a pipe or a pseudo-terminal),
 * signalling process groups, reading /proc, and reaping what a task left behind.
 */
export { bootId, isGone, readProc, readUids } from './process-tree.js';
export { killLeftoverGroup, readTail, resolveExecutable, signalGroup, spawnCommand, type Spawned } from './task-process.js';
export { spawnPty, terminalOptions } from './task-pty.js';
export { TaskReaper, type TaskTarget } from './task-reaper.js';
