/** What the files folder's modules share: the service's deps and options, a root, a resolved target. */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../config/index.js';
import type { Clock } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from '../agents/index.js';
import type { WorkspaceService } from '../workspaces/index.js';

/** The services FileService uses (a subset of the tools' ToolDeps). */
export interface FileServiceDeps {
  config: ResolvedConfig;
  clock: Clock;
  events: EventLog;
  store: Store;
  agents: AgentService;
  workspaces: WorkspaceService;
  logger: Logger;
}

export interface FileServiceOptions {
  /**
   * Which search engine search_files uses: `auto` (ripgrep when `rg` is on PATH, else the JS walk),
   * `rg` or `js` (tests and the benchmark force one).
   */
  searchEngine?: 'auto' | 'rg' | 'js';
  /** The ripgrep program (default: `rg` found on PATH). */
  rgPath?: string;
  /** Longest a search may run before it answers with what it found, in ms (default 10 s). */
  searchTimeoutMs?: number;
}

/** One of the agent's workspaces as the file tools see it. */
export interface Root {
  workspace_id: string;
  /** Real path (symlinks resolved) of the workspace directory. */
  root: string;
  active: boolean;
}

/** A path the model named, resolved inside one root. */
export interface Target {
  root: Root;
  /** Real path: the real path of the deepest existing ancestor, then the missing names. */
  abs: string;
  /** Relative to the root, `/`-separated; `.` for the root itself. */
  rel: string;
  /** What the model wrote (for messages). */
  input: string;
}

/** Who made a change: recorded with its `file_changed` event. */
export interface ChangeContext {
  agentId: string;
  turnId: string;
  executionId: string | null;
  tool: string;
}

export type ChangeOp = 'create' | 'update' | 'delete' | 'move';

/** One file's change, planned in memory before anything is written. */
export interface PlannedChange {
  op: ChangeOp;
  target: Target;
  /** The move's destination. */
  movedTo?: Target;
  /** Content before (null: the file does not exist yet). */
  before: Buffer | null;
  /** Mode bits of the file before (kept by an update or a move). */
  mode: number | null;
  /** Content after (null: the file is deleted). */
  after: Buffer | null;
}
