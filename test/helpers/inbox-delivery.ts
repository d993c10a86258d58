/** Shared pieces of the inbox delivery tests: set-up, restarts, time steps, error codes, a real tmux. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { afterEach, beforeEach } from 'vitest';
import { testServices, type TestServices } from './services.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/**
 * Fresh in-process services (with `configToml`) and a webhook receiver before each test, handed over
 * by `bind`; after it, whatever `current` names then (a test may restart its services) is closed.
 */
export function servicesWithReceiver(configToml: string, bind: (t: TestServices, rx: Receiver) => void, current: () => { t: TestServices; rx: Receiver }): void {
  beforeEach(async () => bind(testServices({ configToml }), await startReceiver()));
  afterEach(async () => {
    const { t, rx } = current();
    await t.close();
    await rx.close();
  });
}

/** Fresh in-process services (with `configToml`) for each test, closed after it: the getter gives the current ones. */
export function servicesPerTest(configToml: string): () => TestServices {
  let t: TestServices | undefined;
  beforeEach(() => {
    t = testServices({ configToml });
  });
  afterEach(async () => {
    await t?.close();
  });
  return () => t!;
}

/** Stop the services and start new ones over the same home (a daemon restart); the clock keeps its time. */
export async function restartServices(t: TestServices): Promise<TestServices> {
  const { home } = t;
  const now = t.clock.now();
  await stopServices(t.s);
  const clock = new ManualClock(now);
  const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
  startServices(s);
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

/** Advance the clock, then let every due digest, coalescing window and delivery attempt finish. */
export async function tick(t: TestServices, ms: number): Promise<void> {
  t.clock.advance(ms);
  t.s.inbox.digests.runDue();
  await t.s.inbox.notifier.runDue();
  await t.s.inbox.notifier.idle();
}

/** `"<status> <code>"` of the AppError fn throws, or `"no error"`. */
export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return `${(err as { status: number }).status} ${(err as { code: string }).code}`;
  }
  return 'no error';
}

/**
 * Fails the calling test when tmux cannot run here: the terminal tests never skip silently
 * (.ci/run installs tmux).
 */
export function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(`tmux is not installed (${(err as Error).message}): the terminal target tests need it; install it (apt-get install tmux), as .ci/run does`);
  }
}

/** Run tmux against the server at `socket`. */
export function tmuxAt(socket: string) {
  return (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
}

/**
 * A tmux server private to each test (its socket in a fresh directory, killed after the test), so
 * no test ever types into a tmux of whoever runs the tests. `dir` is that directory.
 */
export function privateTmux(): { dir: () => string; socket: () => string; tmux: (...args: string[]) => string } {
  let dir = '';
  const socket = () => path.join(dir, 'sock');
  beforeEach(() => {
    requireTmux();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tmux-'));
  });
  afterEach(() => {
    if (!dir) return; // tmux was missing: the test has failed already
    try {
      tmuxAt(socket())('kill-server');
    } catch {
      /* never started, or gone */
    }
    fs.rmSync(dir, { recursive: true, force: true });
    dir = '';
  });
  return { dir: () => dir, socket, tmux: (...args) => tmuxAt(socket())(...args) };
}
