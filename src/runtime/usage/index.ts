/** The usage ledger, its totals and the budgets over it (README.md). */
export { UsageService } from './usage-service.js';
export { USAGE_GROUPINGS, type RoundInput, type TokenCounts, type UsageBy, type UsageDeps, type UsageReport, type UsageRow, type UsageSection, type UsageTotals, type UsageTrip } from './types.js';
