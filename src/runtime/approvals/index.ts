/** Approval requests for tool calls the policy answers `ask` (README.md). */
export { ApprovalService, type ApprovalDeps, type DecideInput } from './approvals.js';
export * from './types.js';
