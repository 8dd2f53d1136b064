import { describe, expect, it, vi } from 'vitest';
import { hangingServer } from '../../support/hanging-server.js';
import { createEdgeHandler } from '../../../functions/edge/app.js';
import { AWS_CALL_LIMITS } from '../../../shared/platform/clients.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';
import { createDeps, systemClock, type Deps } from '../../../shared/platform/runtime.js';
import * as dataModel from '../../../shared/platform/data/model.js';

/**
 * A throttled or unreachable table must answer 503 (retry later), never a domain answer such as "not
 * found" and never a 500. DynamoDB Local cannot be made to throttle, so the edge handler runs here on a
 * client that fails every request as the SDK would after its own retries.
 */
function edgeHandlerFailingWith(error: () => Error) {
  const client = { send: async () => Promise.reject(error()) };
  const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, FUNCTION_CONFIG_SECTIONS.edge);
  const deps = { config, clients: {} as Deps['clients'], data: createDataService(client as never, 'table', undefined, dataModel), clock: systemClock };
  return createEdgeHandler(deps) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...headers },
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

/**
 * A table that accepts connections and never answers: the real clients (the service's own timeouts and retries)
 * must give up and answer 503 with the surface's CORS headers well before the function's 10 s timeout, after which
 * API Gateway would answer for it, bare.
 */
describe('a table that hangs', () => {
  const table = hangingServer();

  it('answers 503 with CORS headers once the SDK gives up, well within the function timeout', async () => {
    const endpoint = table.endpoint();
    const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local', DYNAMODB_ENDPOINT: endpoint }, FUNCTION_CONFIG_SECTIONS.edge);
    const handler = createEdgeHandler(createDeps(config, 'edge')) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
    const started = Date.now();
    const result = await handler(post('/v1/licenses/validate', { license_key: 'WIDGET-AAAA-BBBB-CCCC-DDDD' }, { origin: 'https://site.example' }), {});
    const elapsed = Date.now() - started;
    expect([result.statusCode, JSON.parse(result.body!)]).toEqual([503, { error: 'Service temporarily unavailable' }]);
    expect(result.headers).toMatchObject({ 'access-control-allow-origin': '*', 'retry-after': '1' });
    // Every attempt reached the table and was cut off (not refused): the timeouts, not a connection error, ended it.
    expect(table.connections()).toBe(AWS_CALL_LIMITS.maxAttempts);
    expect(elapsed).toBeGreaterThanOrEqual(AWS_CALL_LIMITS.maxAttempts * AWS_CALL_LIMITS.requestTimeoutMs - 100);
    expect(elapsed).toBeLessThan(10_000);
  }, 20_000);
});
