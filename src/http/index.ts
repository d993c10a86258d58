/** The two HTTP surfaces, and the listeners' timeouts, connection budgets and client-error handler (the daemon uses these). */
export * from './connections.js';
export * from './error-handler.js';
export * from './surfaces.js';
