/**
 * A thrown thing as one line that is safe to store and answer: what a source's `error`, a 502
 * source_poll_failed and `/status` sourceErrors hold. Sources run user modules in workers and
 * svc's own providers, and what they throw used to arrive with its stack: frames naming svc's
 * install directory (`file:///…/dist/inbox/sources/providers/github-api.js:126:19`) and Node's
 * internals.
 *
 * Only the message is kept, never the stack: an Error gives its `message`, anything else its
 * string form. Lines that are stack frames (`    at …`, a module may put its stack in its message)
 * are dropped, the rest joined into one line, svc's install directory replaced by `<svc>`, and the
 * text cut to `max` characters.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package root: this file is `<root>/src/core/` or `<root>/dist/core/`. */
const INSTALL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const INSTALL_FORMS = INSTALL_DIR === path.parse(INSTALL_DIR).root ? [] : [pathToFileURL(INSTALL_DIR).href, INSTALL_DIR];
const FRAME = /^\s*at\s/;

const ERROR_TEXT_MAX_CHARS = 500;

export function errorText(thrown: unknown, max = ERROR_TEXT_MAX_CHARS): string {
  let text = messageOf(thrown)
    .split(/\r\n|\r|\n/)
    .filter((line) => !FRAME.test(line))
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  for (const form of INSTALL_FORMS) text = text.split(form).join('<svc>');
  if (text === '') text = 'unknown error';
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'string') return thrown;
  try {
    return String(thrown);
  } catch {
    return 'unknown error';
  }
}
