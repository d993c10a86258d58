/**
 * What web_fetch makes of a body: which content types it reads (HTML, text, JSON, XML and their
 * kin), the charset it decodes with, and the cut at a byte limit that never splits a character.
 */

/** How a body is read: HTML becomes markdown or text; text is returned as it is. */
export type ContentKind = 'html' | 'text';

/** Types read as text beside `text/*` and the `+json` / `+xml` suffixes. */
const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
  'application/graphql',
  'application/sql',
  'application/x-sh',
  'application/x-httpd-php',
]);

/** The media type without parameters, lower case (`text/html; charset=utf-8` is `text/html`); '' when absent. */
export function essenceOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** How a body of this media type is read, or null when web_fetch does not read it (images, PDF, archives, …). */
export function kindOf(essence: string): ContentKind | null {
  if (essence === 'text/html' || essence === 'application/xhtml+xml') return 'html';
  if (essence.startsWith('text/') || TEXT_TYPES.has(essence) || /^application\/[\w.+-]+\+(json|xml)$/.test(essence)) return 'text';
  return null;
}

/**
 * The kind of a body sent without a content type, from its first bytes: no NUL byte in them reads
 * as text (as HTML when it opens like an HTML document), anything else is not read.
 */
export function sniffKind(head: Uint8Array): ContentKind | null {
  const sample = head.subarray(0, 1024);
  if (sample.includes(0)) return null;
  const start = Buffer.from(sample).toString('latin1').trimStart().slice(0, 64).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') ? 'html' : 'text';
}

/**
 * The charset a body is decoded with: the content type's `charset`, else for HTML a `<meta>`
 * declaration in its first 1024 bytes, else UTF-8. A label TextDecoder does not know is UTF-8 too.
 */
export function charsetOf(contentType: string | null, kind: ContentKind, head: Uint8Array): string {
  const declared = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? (kind === 'html' ? metaCharset(head) : null);
  if (!declared) return 'utf-8';
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    return 'utf-8';
  }
}

function metaCharset(head: Uint8Array): string | null {
  const text = Buffer.from(head.subarray(0, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(text)?.[1] ?? null;
}

/**
 * `bytes` as text in `charset`, never failing on bad input (U+FFFD instead). A body cut at a byte
 * limit (`cut`) may end inside a character: that partial character is dropped, not replaced.
 */
export function decodeBody(bytes: Uint8Array, charset: string, cut: boolean): string {
  return new TextDecoder(charset, { fatal: false }).decode(bytes, { stream: cut });
}

/** `text` cut to at most `maxBytes` of UTF-8, at a character boundary; `cut` says whether anything was dropped. */
export function capUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  // Fast path: every UTF-16 unit is at most 3 bytes of UTF-8.
  if (text.length * 3 <= maxBytes) return { text, cut: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, cut: false };
  return { text: decodeBody(bytes.subarray(0, maxBytes), 'utf-8', true), cut: true };
}
