/**
 * Work items: durable objectives with a plan, todos, a blocker and its recheck, focus and
 * completion.
 */
export { PLAN_STATUSES, READINESS, TODO_STATES, type WorkItemSlim } from './work-item-records.js';
export { WorkItemService } from './work-items.js';
