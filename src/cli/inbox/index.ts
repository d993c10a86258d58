/** `svc inbox …`: the commands over the inbox API's Unix socket. */
export * from './register.js';
