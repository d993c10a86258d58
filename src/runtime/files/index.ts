/**
 * The workspace file tools' service: read, list, search, write, edit and patch files confined to
 * an agent's workspaces, each change recorded as a `file_changed` event.
 */
export { ARTIFACT_DIFF_FACTOR, type ChangeSummary, type FileArtifact } from './changes.js';
export { MAX_PATH_CHARS, resolveTarget } from './confine.js';
export { openRegular, type OpenFile } from './file-io.js';
export { FileService, type ChangeResult, type ListArgs, type ReadArgs, type SearchArgs } from './service.js';
export { MAX_LINE_CHARS } from './search.js';
export type { ChangeContext, FileServiceDeps, FileServiceOptions, Root, Target } from './types.js';
