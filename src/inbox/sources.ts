/**
 * Sources (= streams): one event stream per `hostId`+`streamKind`+`streamKey` (CONTRACT.md
 * section 9). Lifecycle of managed remote sources follows spec/inbox.md "States and transitions".
 */
import { errors } from '../core/errors.js';
import type { HostType } from './hosts.js';
import type { StreamStats } from './stream-backend.js';

export type SourceState = 'active' | 'paused' | 'error';

/** Managed remote sources only: `waiting` for auto-pause after the last subscription went away, or `auto_paused`. */
export interface IdleState {
  state: 'waiting' | 'auto_paused';
  since: string;
  pauseAt: string | null;
}

export interface Source {
  sourceId: string;
  hostId: string;
  sourceType: HostType;
  streamKind: string;
  streamKey: string;
  config: Record<string, unknown>;
  configRef: string | null;
  state: SourceState;
  error: string | null;
  idleState: IdleState | null;
  cursor?: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface SourceDetail extends Source {
  streamStats: StreamStats | null;
}

export class SourceService {
  private readonly deletedListeners: Array<(sourceId: string) => void> = [];

  /** Throws source_not_found. */
  get(sourceId: string): Source {
    throw errors.sourceNotFound(sourceId);
  }

  list(): Source[] {
    return [];
  }

  /** Called inside the delete transaction. */
  onDeleted(listener: (sourceId: string) => void): void {
    this.deletedListeners.push(listener);
  }

  /** Subscriptions call this after creating/removing subscriptions (idle auto-pause). */
  subscriptionsChanged(_sourceId: string, _remaining: number): void {}
}
