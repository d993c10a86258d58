/** The commands about the daemon itself: run it (`serve`), look at it (`status`), check the machine (`doctor`). */
export * from './doctor.js';
export * from './serve.js';
export * from './status.js';
