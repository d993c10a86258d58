/** The control plane's routes for a person at a browser: the console, the API reference, sign-in. */
export * from './browser-auth.js';
export * from './console.js';
export * from './docs.js';
