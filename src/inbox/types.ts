/**
 * The vocabulary the inbox's folders share: host types (sources/ defines what each one means;
 * streams/ names them in the shared stream catalogue).
 * Types and their literal lists only: this file imports nothing of the inbox.
 */

export const HOST_TYPES = ['local_event', 'remote_source', 'github'] as const;
export type HostType = (typeof HOST_TYPES)[number];
