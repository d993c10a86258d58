/**
 * Durable agent timers and the in-memory schedule that fires them (also used by brief delivery
 * and the inbox).
 */
export { TimerSchedule } from './timer-scheduler.js';
export { LIST_MAX, MIN_INTERVAL_MS, TIMER_STATUSES, TimerService, type TimerRecord } from './timers.js';
