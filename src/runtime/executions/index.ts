/** Tool executions and their artifacts (README.md). */
export * from './executions.js';
