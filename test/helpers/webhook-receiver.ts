/**
 * A webhook receiver on loopback for delivery tests: records every request, verifies its
 * Standard Webhooks signature independently of svc's signing code, and answers from a script
 * (status and headers per request; 204 once the script is used up).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  /** Request path with query (tests tell targets apart by a query parameter). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The signature verified against the secret given to `verify` (null: no secret known yet). */
  signatureValid: boolean | null;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Hold the answer this long (timeouts). */
  delayMs?: number;
}

/** Standard Webhooks verification, written from the specification (not svc's code). */
export function verifySignature(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const ts = String(headers['webhook-timestamp'] ?? '');
  const sigs = String(headers['webhook-signature'] ?? '').split(' ');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  return sigs.some((s) => {
    const [version, b64] = s.split(',');
    if (version !== 'v1' || !b64) return false;
    const got = Buffer.from(b64, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

export async function startReceiver() {
  const received: Received[] = [];
  const script: Answer[] = [];
  let secret: string | null = null;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* recorded as text */
      }
      received.push({ url: req.url ?? '', headers: req.headers, body, json, signatureValid: secret ? verifySignature(secret, req.headers, body) : null });
      const answer = script.shift() ?? { status: 204 };
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end();
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Answers for the next requests, in order. */
    answer: (...answers: Answer[]) => script.push(...answers),
    setSecret: (s: string) => (secret = s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
