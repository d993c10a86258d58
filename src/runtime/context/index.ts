/** What a turn puts in front of its model within the model's window (docs/context.md). */
export { estimateTokens, SAMPLE_ABOVE_CHARS } from './token-estimate.js';
export { ENCODE_MAX_CHARS, OVERHEAD, PIECE_CHARS, pieceEnd, TokenCounter, type TokenCounterOptions, type TokenFamily } from './tokens.js';
export { MAX_INSTRUCTION_DIRS, ProjectInstructions, type InstructionFile, type ProjectInstructionsDeps, type ProjectInstructionsResult } from './instructions.js';
