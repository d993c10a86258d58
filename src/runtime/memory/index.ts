/**
 * Searchable memory: an FTS5 index over the text a person reads in each agent's events, kept in
 * the transactions that append and prune them, and the search over it (the HTTP search routes and
 * the model's memory tools).
 */
export { MemoryIndex, type MemoryIndexDeps } from './memory-index.js';
export {
  MemorySearch,
  parseSourceRef,
  sourceRefOf,
  SEARCH_MAX_LIMIT,
  type Hits,
  type MemoryHit,
  type MemorySearchDeps,
} from './memory-search.js';
export { excerpt } from './query.js';
export { MEMORY_KINDS } from './text-of.js';
