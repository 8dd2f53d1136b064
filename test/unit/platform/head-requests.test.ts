import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../shared/platform/errors.js';
import { httpApp } from '../../../shared/platform/http/app.js';
import { ok } from '../../../shared/platform/http/responses.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';

/** API Gateway hands HEAD to the function like any method, and passes on whatever body comes back. */
const app = httpApp(
  [
    { method: 'GET', path: '/things/{id}', handler: async (event) => ok({ id: event.pathParameters?.id }) },
    { method: 'GET', path: '/missing', handler: async () => Promise.reject(new NotFoundError('Thing not found')) },
    { method: 'POST', path: '/things', handler: async () => ok({ made: true }) },
  ],
  { cors: { kind: 'open' }, originSecret: undefined },
) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;

function request(method: string, path: string): HttpEvent {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: {
      accountId: 'test', apiId: 'test', domainName: 'localhost', domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
      requestId: 'test', routeKey: `${method} ${path}`, stage: '$default', time: '', timeEpoch: 0,
    },
    isBase64Encoded: false,
  };
}

describe('HEAD', () => {
  it('answers as GET, status and headers, without the body', async () => {
    const [get, head] = [await app(request('GET', '/things/a'), {}), await app(request('HEAD', '/things/a'), {})];
    expect(get.body).toBe('{"id":"a"}');
    expect(head).toEqual({ statusCode: 200, headers: get.headers });
  });

  it('answers an error as GET would, without the body', async () => {
    const [get, head] = [await app(request('GET', '/missing'), {}), await app(request('HEAD', '/missing'), {})];
    expect([get.statusCode, JSON.parse(get.body!)]).toEqual([404, { error: 'Thing not found' }]);
    expect(head).toEqual({ statusCode: 404, headers: get.headers });
  });

  it('is no route where GET is none', async () => {
    const head = await app(request('HEAD', '/things'), {});
    expect([head.statusCode, head.body]).toEqual([404, undefined]);
  });
});
