import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_HEADERS, WEBHOOK_LIMITS } from '@lumigrid/contract';
import { isRefusedAddress, publicOnlyLookup } from './webhook-address.ts';

/** The signature header's value: HMAC-SHA256 of `${timestamp}.${body}` with the endpoint's secret, in hex. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** How one attempt ended: the receiver's status and the start of its answer, or why no answer came. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  excerpt: string;
}

const ANSWER_READ_BYTES = 4096;

/**
 * Sends one signed attempt. Redirects are not followed (a 3xx is a failed attempt); in SaaS mode the address
 * dialled must be public, checked when the connection is made, not only when the endpoint was registered.
 */
export function sendWebhook(input: {
  url: string;
  body: string;
  secret: string;
  keyId: string;
  eventId: string;
  kind: string;
  timestamp: number;
  publicOnly: boolean;
  timeoutMs?: number;
}): Promise<AttemptOutcome> {
  const url = new URL(input.url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is dialled without a lookup, so it is checked here.
  if (input.publicOnly && isIP(host) && isRefusedAddress(host))
    return Promise.resolve({ ok: false, status: null, excerpt: `refused address ${host}` });
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Lumigrid-Webhooks/1',
    [WEBHOOK_HEADERS.eventId]: input.eventId,
    [WEBHOOK_HEADERS.kind]: input.kind,
    [WEBHOOK_HEADERS.timestamp]: String(input.timestamp),
    [WEBHOOK_HEADERS.keyId]: input.keyId,
    [WEBHOOK_HEADERS.signature]: webhookSignature(input.secret, input.timestamp, input.body),
  };
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(input.body) },
        timeout: input.timeoutMs ?? WEBHOOK_LIMITS.attemptTimeoutMs,
        ...(input.publicOnly ? { lookup: publicOnlyLookup } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          if (read < ANSWER_READ_BYTES) chunks.push(chunk);
          read += chunk.length;
          if (read >= ANSWER_READ_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8').slice(0, WEBHOOK_LIMITS.answerExcerptChars);
          resolve({ ok: status >= 200 && status < 300, status, excerpt: text });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${input.timeoutMs ?? WEBHOOK_LIMITS.attemptTimeoutMs} ms`)));
    req.on('error', (error: Error & { code?: string }) =>
      resolve({
        ok: false,
        status: null,
        excerpt: (error.code === 'EREFUSEDADDRESS' ? error.message : `${error.code ?? ''} ${error.message}`)
          .trim()
          .slice(0, WEBHOOK_LIMITS.answerExcerptChars),
      }),
    );
    req.end(input.body);
  });
}
