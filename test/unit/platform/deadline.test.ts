import { describe, expect, it, vi } from 'vitest';
import { hangingServer } from '../../support/hanging-server.js';
import { createEdgeHandler } from '../../../functions/edge/app.js';
import { lambdaContext } from '../../../infra/local/lambda-context.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import {
  ANSWER_RESERVE_MS,
  attemptTimeoutMs,
  currentDeadline,
  DeadlineExceededError,
  deadlineExceededIn,
  deadlineOf,
  withDeadline,
  withinDeadline,
} from '../../../shared/platform/deadline.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';
import { createDeps } from '../../../shared/platform/runtime.js';

describe('the deadline’s arithmetic', () => {
  it('is the Lambda time left less the reserve, and never before now', () => {
    expect(deadlineOf(10_000, 1_000_000)).toBe(1_000_000 + 10_000 - ANSWER_RESERVE_MS);
    expect(deadlineOf(2_500, 1_000_000, 500)).toBe(1_002_000);
    expect(deadlineOf(300, 1_000_000, 500)).toBe(1_000_000);
  });

  it('gives an attempt its own limit, or what is left before the deadline when that is less', () => {
    expect(attemptTimeoutMs(2_000, 1_010_000, 1_000_000)).toBe(2_000);
    expect(attemptTimeoutMs(2_000, 1_000_750, 1_000_000)).toBe(750);
    expect(attemptTimeoutMs(2_000, 1_000_000, 1_000_000)).toBe(0);
    expect(attemptTimeoutMs(2_000, 999_000, 1_000_000)).toBe(0);
    expect(attemptTimeoutMs(2_000, undefined, 1_000_000)).toBe(2_000);
  });
});

describe('an attempt within the deadline', () => {
  const invoke = <T>(remainingMs: number, body: () => Promise<T>) =>
    withDeadline(async () => body())(undefined, { ...lambdaContext('test'), getRemainingTimeInMillis: () => remainingMs });

  it('is given the time left, is not made once none is, and is the deadline’s error when it ran into it', async () => {
    const attempt = vi.fn(async (timeoutMs: number) => timeoutMs);
    expect(await withinDeadline(2_000, attempt)).toBe(2_000);
    const given = await invoke(ANSWER_RESERVE_MS + 500, () => withinDeadline(2_000, attempt));
    expect(given).toBeGreaterThan(400);
    expect(given).toBeLessThanOrEqual(500);

    attempt.mockClear();
    await expect(invoke(ANSWER_RESERVE_MS, () => withinDeadline(2_000, attempt))).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(attempt).not.toHaveBeenCalled();

    const cutOff = (timeoutMs: number) => new Promise((_, reject) => setTimeout(() => reject(new Error('socket timed out')), timeoutMs));
    await expect(invoke(ANSWER_RESERVE_MS + 100, () => withinDeadline(2_000, cutOff))).rejects.toBeInstanceOf(DeadlineExceededError);
    const refused = () => Promise.reject(new Error('connect ECONNREFUSED'));
    await expect(invoke(ANSWER_RESERVE_MS + 5_000, () => withinDeadline(2_000, refused))).rejects.toThrow('ECONNREFUSED');
  });

  it('is one per invocation, shared by its calls, and none outside an invocation', async () => {
    expect(currentDeadline()).toBeUndefined();
    const [first, second] = await invoke(5_000, async () => {
      const before = currentDeadline();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return [before, currentDeadline()];
    });
    expect(first).toBeDefined();
    expect(second).toBe(first);
  });

  it('is found where a client wrapped it: an error’s cause, a Stripe error’s detail', () => {
    const late = new DeadlineExceededError();
    expect(deadlineExceededIn(new Error('wrapped', { cause: late }))).toBe(late);
    expect(deadlineExceededIn(Object.assign(new Error('An error occurred with our connection to Stripe.'), { detail: late }))).toBe(late);
    expect(deadlineExceededIn(new Error('other'))).toBeUndefined();
  });
});

/**
 * A table that accepts connections and never answers, reached by the service's real clients: with 2.5 s of Lambda
 * time left, the request's deadline (1.5 s) cuts the first attempt short and no second one is made, where the
 * clients' own limits alone would take two attempts of 2 s each.
 */
describe('a request whose calls run out of time', () => {
  const table = hangingServer();

  it('answers the deadline’s 503 with CORS headers before the function’s time is up', async () => {
    const endpoint = table.endpoint();
    const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local', DYNAMODB_ENDPOINT: endpoint }, FUNCTION_CONFIG_SECTIONS.edge);
    const handler = createEdgeHandler(createDeps(config, 'edge')) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
    const context = { ...lambdaContext('edge'), getRemainingTimeInMillis: () => 2_500 };
    const path = '/v1/licenses/validate';
    const event: HttpEvent = {
      version: '2.0',
      routeKey: 'ANY /v1/{proxy+}',
      rawPath: path,
      rawQueryString: '',
      headers: { 'content-type': 'application/json', origin: 'https://site.example' },
      requestContext: {
        accountId: 'test', apiId: 'test', domainName: 'localhost', domainPrefix: 'localhost',
        http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
        requestId: 'test', routeKey: 'ANY /v1/{proxy+}', stage: '$default', time: '', timeEpoch: 0,
      },
      body: JSON.stringify({ license_key: 'WIDGET-AAAA-BBBB-CCCC-DDDD' }),
      isBase64Encoded: false,
    };
    // The rate limiter lets a request through when its bucket cannot be written, and says so: expected here.
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const started = Date.now();
    const result = await handler(event, context);
    const elapsed = Date.now() - started;
    expect([result.statusCode, JSON.parse(result.body!)]).toEqual([503, { error: 'Service temporarily unavailable' }]);
    expect(result.headers).toMatchObject({ 'access-control-allow-origin': '*', 'retry-after': '1' });
    expect(elapsed).toBeGreaterThanOrEqual(2_500 - ANSWER_RESERVE_MS - 50);
    expect(elapsed).toBeLessThan(2_500);
    expect(warned.mock.calls.map(([line]) => String(line))).toContainEqual(expect.stringContaining('Request ran out of time for its calls'));
    warned.mockRestore();
  }, 20_000);
});
