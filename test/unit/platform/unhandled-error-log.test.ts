import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createExportQueue } from '../../../shared/portability/exports/export-queue.js';
import { createManagementHandler, type ManagementDeps } from '../../../functions/management/app.js';
import { createPaymentDeps } from '../../../shared/billing/payments/payment-deps.js';
import { SECRET_ACCESS } from '../../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../../shared/platform/secrets/secret-box.js';
import { lambdaContext } from '../../../infra/local/lambda-context.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';
import { randomBase32 } from '../../../shared/platform/ids.js';
import { generateLicenseKey } from '../../../shared/licensing/licenses/license-key.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import * as dataModel from '../../../shared/platform/data/model.js';

/**
 * The 500 path's log line, on the management app over a table client whose every request fails with an
 * error no mapping knows. Its message quotes the request's license key and API key, as a store's
 * message may quote a value it refused: the line must carry the chain and neither secret whole.
 */
const licenseKey = generateLicenseKey('WIDGET-');
const apiKey = `sk_${randomBase32(20)}`;
const sdkError = () =>
  new DynamoDBServiceException({
    name: 'InternalFailureException',
    $fault: 'client',
    $metadata: { httpStatusCode: 418, requestId: 'SDK-REQUEST-ID' },
    message: `Cannot read ${licenseKey} for ${apiKey}`,
  });

function managementHandlerFailingWith(error: () => Error) {
  const client = { send: async () => Promise.reject(error()) };
  const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, ALL_CONFIG_SECTIONS);
  const payments = createPaymentDeps(config, createSecretBox(config, SECRET_ACCESS.management));
  const deps = { config, clients: {} as ManagementDeps['clients'], data: createDataService(client as never, 'table', undefined, dataModel), clock: systemClock, payments, oauth: {}, secrets: payments.secrets, exportQueue: createExportQueue(config), imports: { send: async () => undefined }, onTakeover: async () => undefined };
  return createManagementHandler(deps) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
}

const search: HttpEvent = {
  version: '2.0',
  routeKey: 'ANY /api/{proxy+}',
  rawPath: '/api/licenses',
  rawQueryString: `search=${licenseKey}`,
  headers: { authorization: `Bearer ${apiKey}` },
  queryStringParameters: { search: licenseKey },
  requestContext: {
    accountId: 'test', apiId: 'test', domainName: 'localhost', domainPrefix: 'localhost',
    http: { method: 'GET', path: '/api/licenses', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
    requestId: 'API-GATEWAY-REQUEST-ID', routeKey: 'ANY /api/{proxy+}', stage: '$default', time: '', timeEpoch: 0,
  },
  isBase64Encoded: false,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the log line of an unhandled error', () => {
  it('carries both request ids and the whole cause chain, and no secret of the request', async () => {
    // POWERTOOLS_DEV (vitest.config.ts): the logger writes through the console.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const context = lambdaContext('management');
    const result = await managementHandlerFailingWith(sdkError)(search, context);
    expect([result.statusCode, JSON.parse(result.body!)]).toEqual([500, { error: 'Internal server error' }]);

    expect(printed).toHaveBeenCalledTimes(1);
    const text = String(printed.mock.calls[0]![0]);
    const line = JSON.parse(text);
    expect(line).toMatchObject({
      level: 'ERROR',
      message: 'Unhandled error',
      function_request_id: context.awsRequestId,
      correlation_id: 'API-GATEWAY-REQUEST-ID',
      function_name: 'management',
      http: { method: 'GET', path: '/api/licenses' },
      // ElectroDB's error, and the SDK's it wraps.
      error: {
        name: 'ElectroError',
        code: 4001,
        cause: { name: 'InternalFailureException', httpStatusCode: 418, requestId: 'SDK-REQUEST-ID', fault: 'client' },
      },
    });
    expect(typeof line.cold_start).toBe('boolean');
    expect(line.error.message).toContain('Error thrown by DynamoDB client');
    expect(line.error.cause.message).toMatch(/^Cannot read WIDGET-\*{4}-\*{4}-\*{4}-\w{4} for sk_\*{4}$/);
    expect(line.error.stack.length).toBeGreaterThan(1);
    expect(line.error.cause.stack.length).toBeGreaterThan(1);
    // Neither secret anywhere, nor the SDK's raw HTTP response.
    expect(text).not.toContain(licenseKey);
    expect(text).not.toContain(licenseKey.slice('WIDGET-'.length, -5));
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain('$response');
  });

  it('is the only line: a refused request (401) logs nothing', async () => {
    const printed = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'info')];
    const handler = managementHandlerFailingWith(sdkError);
    const result = await handler({ ...search, headers: { authorization: 'Basic x' } }, lambdaContext('management'));
    expect(result.statusCode).toBe(401);
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
  });
});
