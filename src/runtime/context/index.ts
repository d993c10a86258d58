/** What a turn puts in front of its model within the model's window (docs/context.md). */
export { budgetOf, excerpt, type Budget, type TokenCounting } from './budget.js';
export { BUILTIN_COMPACTION_PROMPT, compactionPrompt, summarise, type SummaryEntry } from './compaction.js';
export { pinnedSection, type PinnedFacts } from './pinned.js';
export { fitTools, type FittedTools } from './tool-specs.js';
export { estimateTokens, SAMPLE_ABOVE_CHARS } from './token-estimate.js';
export { ENCODE_MAX_CHARS, OVERHEAD, PIECE_CHARS, pieceEnd, TokenCounter, type TokenCounterOptions, type TokenFamily } from './tokens.js';
export { MAX_INSTRUCTION_DIRS, ProjectInstructions, type InstructionFile, type ProjectInstructionsDeps, type ProjectInstructionsResult } from './instructions.js';
