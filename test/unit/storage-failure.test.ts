import { describe, expect, it, vi } from 'vitest';
import { createEdgeHandler } from '../../functions/edge/app.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/config.js';
import { createDataService } from '../../shared/data/service.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { systemClock, type Deps } from '../../shared/runtime.js';

/**
 * A throttled or unreachable table must answer 503 (retry later), never a domain answer such as "not
 * found" and never a 500. DynamoDB Local cannot be made to throttle, so the edge handler runs here on a
 * client that fails every request as the SDK would after its own retries.
 */
function edgeHandlerFailingWith(error: () => Error) {
  const client = { send: async () => Promise.reject(error()) };
  const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, FUNCTION_CONFIG_SECTIONS.edge);
  const deps = { config, clients: {} as Deps['clients'], data: createDataService(client as never, 'table'), clock: systemClock };
  return createEdgeHandler(deps) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
}

function post(path: string, body: unknown): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: 'test', apiId: 'test', domainName: 'localhost', domainPrefix: 'localhost',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
      requestId: 'test', routeKey: 'ANY /v1/{proxy+}', stage: '$default', time: '', timeEpoch: 0,
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

// A fresh error per request, as the SDK throws (ElectroDB annotates the error it is given).
const throttled = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ProvisionedThroughputExceededException', $fault: 'client' });
const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });

describe('storage failures at the edge', () => {
  // The rate limiter logs the bucket writes it could not make (and lets the request through): expected here.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  for (const [label, error] of [['throttled', throttled], ['unreachable', unreachable]] as const) {
    it(`answers 503 with Retry-After when the table is ${label}`, async () => {
      const handler = edgeHandlerFailingWith(error);
      for (const [path, body] of [
        ['/v1/licenses/validate', { license_key: 'WIDGET-AAAA-BBBB-CCCC-DDDD' }],
        ['/v1/licenses/activate', { license_key: 'WIDGET-AAAA-BBBB-CCCC-DDDD', domain: 'example.com' }],
        ['/v1/licenses/deactivate', { license_key: 'WIDGET-AAAA-BBBB-CCCC-DDDD', domain: 'example.com' }],
      ] as const) {
        const result = await handler(post(path, body), {});
        expect([path, result.statusCode, JSON.parse(result.body!)]).toEqual([path, 503, { error: 'Service temporarily unavailable' }]);
        expect(result.headers?.['retry-after']).toBe('1');
      }
    });
  }
});
