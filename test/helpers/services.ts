/** In-process services on a temporary home, for unit and route tests (no listeners). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { createServices, startServices, stopServices, type Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';

export interface TestServices {
  s: Services;
  clock: ManualClock;
  home: string;
  close: () => Promise<void>;
}

/**
 * `runLoop`: whether the run loop's scheduler takes messages (default false, so tests of other
 * services see what they enqueue stay queued). `agents`: agents to create once started.
 */
export function testServices(opts: { configToml?: string; start?: boolean; runLoop?: boolean; agents?: string[] } = {}): TestServices {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-unit-'));
  if (opts.configToml) fs.writeFileSync(path.join(home, 'config.toml'), opts.configToml);
  const clock = new ManualClock();
  const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
  if (!opts.runLoop) s.runLoop.scheduler.disable();
  if (opts.start !== false) startServices(s);
  if (opts.agents) s.store.tx(() => opts.agents!.forEach((id) => s.agents.create(id, {})));
  return {
    s,
    clock,
    home,
    close: async () => {
      await stopServices(s);
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Start deleting an agent and hold the deletion in its first phase until `release` is called:
 * checks that expect 409 agent_deleting cannot race the job to its end (404 agent_not_found).
 */
export function holdDeletion(s: Services, agentId: string): { release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  s.deletion.onStop(async (id) => {
    if (id === agentId) await held;
  });
  s.deletion.request(agentId, { cascadePrivateChildren: false });
  return { release };
}
