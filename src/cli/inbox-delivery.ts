/** `svc inbox …` commands: targets, pause/resume, timers, gc. */
import type { Command } from 'commander';

export function registerInboxDelivery(_inbox: Command): void {}
