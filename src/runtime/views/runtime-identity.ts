/**
 * The installation's stable public identity (observer sync, docs/holon-gui.md):
 * `runtime_id` tells a replaced server at the same URL from a restart of this one, and
 * `event_log_epoch` names the continuity of the event logs (svc never resets them as a whole, so it
 * is fixed for the life of the home directory). Created once in `<home>/runtime-identity.json`;
 * not a secret.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../../core/index.js';

export interface RuntimeIdentity {
  runtime_id: string;
  event_log_epoch: string;
  /** Every caller that may read sees every public agent: one visibility scope per installation. */
  visibility_scope_id: string;
}

const FILE = 'runtime-identity.json';

export function loadRuntimeIdentity(homeDir: string): RuntimeIdentity {
  const file = path.join(homeDir, FILE);
  let stored = readStored(file);
  if (!stored) {
    stored = { runtime_id: `rt_${crypto.randomUUID()}`, event_log_epoch: `epoch_${crypto.randomUUID()}` };
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    // A concurrent first start may have written one already: keep whichever landed first.
    try {
      fs.linkSync(tmp, file);
    } catch {
      // exists: read the winner below
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    stored = readStored(file) ?? stored;
  }
  const scope = crypto.createHash('sha256').update(`${stored.runtime_id}\0public`).digest('hex').slice(0, 24);
  return { ...stored, visibility_scope_id: `vs_${scope}` };
}

function readStored(file: string): { runtime_id: string; event_log_epoch: string } | null {
  try {
    const v = JSON.parse(readRegularFile(file).text) as Record<string, unknown>;
    if (typeof v.runtime_id === 'string' && typeof v.event_log_epoch === 'string') return { runtime_id: v.runtime_id, event_log_epoch: v.event_log_epoch };
  } catch {
    // missing or unreadable: a new identity
  }
  return null;
}
