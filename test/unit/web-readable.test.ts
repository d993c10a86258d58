/**
 * HTML conversion runs in worker threads, at most MAX_CONVERSIONS at once daemon-wide (each may
 * take a large heap): a conversion past that waits for a slot within its own time limit.
 */
import { expect, it } from 'vitest';
import { ConversionTimeoutError, MAX_CONVERSIONS, readableHtml } from '../../src/runtime/web/readable.js';

/** Half a megabyte of unclosed inline elements: seconds of parsing (as test/helpers/web-server.ts /unclosed). */
const SLOW = `<html><body>${'<p><b><i>'.repeat(60_000)}</body></html>`;
const QUICK = '<html><head><title>t</title></head><body><p>quick</p></body></html>';

it(`converts at most ${MAX_CONVERSIONS} pages at once; one more waits within its own time limit`, async () => {
  const never = new AbortController().signal;
  const slow = Array.from({ length: MAX_CONVERSIONS }, () => readableHtml(SLOW, 'http://example.com/', 'markdown', 6000, never).catch((e: unknown) => e));
  // Every slot is taken: a quick page times out waiting, though a worker of its own would start
  // and convert it well within its limit.
  await expect(readableHtml(QUICK, 'http://example.com/', 'markdown', 2500, never)).rejects.toBeInstanceOf(ConversionTimeoutError);
  // An abort while waiting ends the wait too.
  const ctl = new AbortController();
  const aborted = readableHtml(QUICK, 'http://example.com/', 'markdown', 5000, ctl.signal);
  ctl.abort(new Error('stopped'));
  await expect(aborted).rejects.toThrow('stopped');
  await Promise.all(slow);
  // The slots are free again.
  expect((await readableHtml(QUICK, 'http://example.com/', 'markdown', 10_000, never)).content).toContain('quick');
}, 30_000);
