/**
 * The catalogue (README.md beside this file, "Several daemons"): a KV bucket `<prefix>_catalog`
 * with one key `source.<sourceId>` per source. Anyone who may write to the bucket can put a record
 * in it: records are checked like any other input, and one that is not a source (or names another
 * key's id) is logged and skipped.
 */
import type { KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { z } from 'zod';
import { HOST_TYPES } from '../../types.js';
import type { SharedSource } from '../types.js';

const ShortText = z.string().min(1).max(512);
const SharedSourceSchema = z.strictObject({
  sourceId: z.string().regex(/^src_[0-9A-Z]{26}$/),
  hostId: z.string().regex(/^hst_[0-9A-Z]{26}$/),
  hostType: z.enum(HOST_TYPES),
  hostKey: ShortText,
  hostConfig: z.record(z.string(), z.unknown()),
  streamKind: ShortText,
  streamKey: ShortText,
  config: z.record(z.string(), z.unknown()),
  configRef: ShortText.nullable(),
  createdMs: z.number().int().min(0),
  origin: z.string().regex(/^dmn_[0-9A-Z]{26}$/),
});

export interface CatalogWatcher {
  logger: Logger;
  closed: () => boolean;
  retryMs: number;
  put: (source: SharedSource) => void;
  deleted: (sourceId: string) => void;
}

/** Every source in the catalogue (current values, then changes), until closed; the watch restarts after errors. */
export async function watchCatalog(catalog: KV, w: CatalogWatcher): Promise<void> {
  while (!w.closed()) {
    try {
      const iter = await catalog.watch({ key: 'source.>' });
      for await (const entry of iter) {
        if (w.closed()) break;
        if (entry.operation === 'DEL' || entry.operation === 'PURGE') w.deleted(entry.key.slice('source.'.length));
        else {
          const source = sharedSourceOf(entry.key, entry.string(), w.logger);
          if (source) w.put(source);
        }
      }
    } catch (err) {
      if (!w.closed()) w.logger.warn({ err: (err as Error).message }, 'inbox.streams: catalogue watch restarting');
    }
    if (!w.closed()) await new Promise((r) => setTimeout(r, w.retryMs).unref());
  }
}

function sharedSourceOf(key: string, text: string, logger: Logger): SharedSource | null {
  try {
    const source = SharedSourceSchema.parse(JSON.parse(text));
    if (key !== `source.${source.sourceId}`) throw new Error(`the record names source ${source.sourceId}`);
    return source;
  } catch (err) {
    logger.warn({ key, err: (err as Error).message.slice(0, 500) }, 'inbox.streams: catalogue entry is not a source; skipped');
    return null;
  }
}
