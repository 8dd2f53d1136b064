import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isForbiddenAddress } from './address-guard.js';

/** A receiver answers within this time or the attempt fails (DECISIONS §7). */
export const SEND_TIMEOUT_MS = 10_000;
/** Only this much of a receiver's answer is read: its body is not used, and an endless one must not hold the sender. */
const RESPONSE_BYTES_READ = 16 * 1024;

export type SendResult = { success: boolean; status: number; statusText: string };

// Agents are made once per container; the guarded ones validate every address a connection uses.
const agents = {
  open: { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) },
  guarded: {
    http: new HttpAgent({ keepAlive: false, lookup: guardedLookup }),
    https: new HttpsAgent({ keepAlive: false, lookup: guardedLookup }),
  },
};

/**
 * POSTs a JSON body once. Success is a 2xx; a redirect is a failure and is not followed. Anything that
 * prevents an answer (refused address, DNS, connection, timeout) is status 0 with the reason as text.
 */
export function postJson(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { guard: boolean; timeoutMs?: number },
): Promise<SendResult> {
  const url = new URL(target);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to an IP literal without a lookup, so literals are checked here.
  if (options.guard && isIP(literal) && isForbiddenAddress(literal)) {
    return Promise.resolve({ success: false, status: 0, statusText: `Address not allowed: ${literal}` });
  }
  const https = url.protocol === 'https:';
  const agent = (options.guard ? agents.guarded : agents.open)[https ? 'https' : 'http'];
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (https ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      agent,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'licensing-webhooks/1',
      },
    });
    const timer = setTimeout(() => {
      finish({ success: false, status: 0, statusText: `Timed out after ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => finish({ success: false, status: 0, statusText: error.message || String(error) }));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const result = { success: status >= 200 && status < 300, status, statusText: response.statusMessage ?? '' };
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= RESPONSE_BYTES_READ) {
          finish(result);
          response.destroy();
        }
      });
      response.on('end', () => finish(result));
      response.on('error', () => finish(result));
    });
    request.end(body);
  });
}
