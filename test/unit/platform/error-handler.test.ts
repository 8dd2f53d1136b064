import { ConditionalCheckFailedException, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { createDataService } from '../../../shared/platform/data/service.js';
import { TransactionRejectedError } from '../../../shared/platform/data/writes.js';
import { NotFoundError } from '../../../shared/platform/errors.js';
import { CHANGED_CONCURRENTLY, errorHandler, STORAGE_REFUSED_INPUT } from '../../../shared/platform/http/error-handler.js';
import type { HttpResult } from '../../../shared/platform/http/types.js';
import * as dataModel from '../../../shared/platform/data/model.js';

/** The answer the error middleware gives for `error`, as middy would call it. */
async function answerTo(error: unknown): Promise<{ status: number; body: unknown; headers: HttpResult['headers'] }> {
  const event = { rawPath: '/api/products', requestContext: { http: { method: 'GET' } } };
  const request = { event, error, response: null as HttpResult | null } as never as Parameters<NonNullable<ReturnType<typeof errorHandler>['onError']>>[0];
  await errorHandler().onError!(request);
  const response = request.response as HttpResult;
  return { status: response.statusCode, body: JSON.parse(response.body!), headers: response.headers };
}

const metadata = { $metadata: {} };
const validation = () => new DynamoDBServiceException({ name: 'ValidationException', $fault: 'client', message: 'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes', ...metadata });

/** The error ElectroDB throws when the SDK call under it fails: its own, with the SDK's error as `cause`. */
async function throughElectroDb(error: Error): Promise<unknown> {
  const data = createDataService({ send: async () => Promise.reject(error) } as never, 'table', undefined, dataModel);
  return data.entities.product.get({ productId: 'prd_aaaaaaaaaaaaaaaaaaaaaaaa' }).go().then(
    () => expect.fail('the read should fail'),
    (thrown: unknown) => thrown,
  );
}

describe('error handler: DynamoDB errors are never a 500', () => {
  // The logger writes through the console in tests (POWERTOOLS_DEV); these errors are logged on purpose.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);

  it('answers a ValidationException, also wrapped by ElectroDB, with 400 and a generic message', async () => {
    const wrapped = await throughElectroDb(validation());
    expect((wrapped as Error).name).not.toBe('ValidationException');
    for (const error of [validation(), wrapped]) {
      expect(await answerTo(error)).toMatchObject({ status: 400, body: { error: STORAGE_REFUSED_INPUT } });
    }
    // A transaction DynamoDB refused item by item as invalid, as shared/platform/data/writes.ts reports it.
    expect(await answerTo(new TransactionRejectedError(['None', 'ValidationError']))).toMatchObject({ status: 400, body: { error: STORAGE_REFUSED_INPUT } });
    expect((await answerTo(new TransactionRejectedError(['None', 'DuplicateItem']))).status).toBe(500);
  });

  it('answers a condition no domain code handled with 409', async () => {
    const conditionFailed = new ConditionalCheckFailedException({ message: 'The conditional request failed', ...metadata });
    for (const error of [conditionFailed, await throughElectroDb(conditionFailed)]) {
      expect(await answerTo(error)).toMatchObject({ status: 409, body: { error: CHANGED_CONCURRENTLY } });
    }
    expect(CHANGED_CONCURRENTLY).toMatch(/changed concurrently; retry$/);
  });

  it('keeps throttling, conflicts and an unreachable store at 503 with Retry-After', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    for (const error of [throttled, await throughElectroDb(throttled), unreachable]) {
      expect(await answerTo(error)).toEqual({
        status: 503,
        body: { error: 'Service temporarily unavailable' },
        headers: expect.objectContaining({ 'retry-after': '1' }),
      });
    }
  });

  it('leaves domain errors and real bugs as they were', async () => {
    expect(await answerTo(new NotFoundError('Product not found'))).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    expect(await answerTo(new TypeError("Cannot read properties of undefined (reading 'x')"))).toMatchObject({
      status: 500,
      body: { error: 'Internal server error' },
    });
    const looping: { name: string; cause?: unknown } = { name: 'Error' };
    looping.cause = looping;
    expect((await answerTo(looping)).status).toBe(500);
  });
});
