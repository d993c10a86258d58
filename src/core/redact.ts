/**
 * Secrets out of what people are shown: a tool call's arguments in an approval request, its event
 * and its notification. Values under a secret-sounding key, and strings shaped like well-known
 * credentials (API keys, bearer tokens, private keys), become `[redacted]`. Shown text only: the
 * call itself still gets its real arguments.
 */
const SECRET_KEY = /(pass(word|wd|phrase)?|secret|token|api[_-]?key|authorization|credential|cookie|private[_-]?key|session)/i;
const SECRET_TEXT: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{16,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/gi,
];
export const REDACTED = '[redacted]';

export function redactSecrets<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Deeper than anything a tool's arguments need: not walked, so not shown either.
  if (depth > 32) return REDACTED as T;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== '' ? REDACTED : redactSecrets(v, depth + 1);
  return out as T;
}

export function redactText(text: string): string {
  let out = text;
  for (const re of SECRET_TEXT) out = out.replace(re, REDACTED);
  return out;
}
