/**
 * Hosts: provider/runtime configuration that sources live on (spec/inbox.md Hosts). A host's
 * `hostType` is the type of every source on it (`local_event` or `remote_source`).
 */
export type HostType = 'local_event' | 'remote_source';

export interface Host {
  hostId: string;
  hostType: HostType;
  hostKey: string;
  config: Record<string, unknown>;
  createdAt: string;
}
