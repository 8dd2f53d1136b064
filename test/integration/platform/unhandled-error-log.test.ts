import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createManagementDeps, createManagementHandler } from '../../../functions/management/app.js';
import { createGateway, type LambdaHandler } from '../../../infra/local/gateway.js';
import { ROUTES, type Surface } from '../../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import type { HttpEvent } from '../../../shared/platform/http/types.js';
import { randomBase32 } from '../../../shared/platform/ids.js';
import { generateLicenseKey } from '../../../shared/licensing/licenses/license-key.js';

/**
 * A real 500, over HTTP: the management function of a deployment whose TABLE_NAME names no table, behind
 * the local gateway, against the stack's DynamoDB Local. DynamoDB answers ResourceNotFoundException, which
 * ElectroDB wraps and no mapping knows. The request carries a license key and a secret API key.
 */
const licenseKey = generateLicenseKey('WIDGET-');
const apiKey = `sk_${randomBase32(20)}`;
let server: Server;
let baseUrl: string;
const invocations: { event: HttpEvent; context: { awsRequestId: string } }[] = [];

beforeAll(async () => {
  const config = loadConfig({ RUNTIME: 'local', TABLE_NAME: 'no-such-table', DYNAMODB_ENDPOINT: inject('dynamoEndpoint') }, ALL_CONFIG_SECTIONS);
  const management = createManagementHandler(createManagementDeps(config));
  const handler: LambdaHandler = (event, context) => {
    invocations.push({ event, context });
    return management(event, context);
  };
  server = createGateway({ routes: ROUTES, handlers: { management: handler } as Record<Surface, LambdaHandler>, localRoutes: {} });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('an unhandled error over HTTP', () => {
  it('is answered 500 and logged once with both request ids and the SDK error inside ElectroDB’s, no key whole', async () => {
    // POWERTOOLS_DEV (vitest.config.ts): the logger writes through the console.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await fetch(`${baseUrl}/api/licenses?search=${licenseKey}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect([res.status, await res.json()]).toEqual([500, { error: 'Internal server error' }]);

    expect(printed).toHaveBeenCalledTimes(1);
    const text = String(printed.mock.calls[0]![0]);
    printed.mockRestore();
    const [{ event, context }] = invocations;
    expect(JSON.parse(text)).toMatchObject({
      level: 'ERROR',
      message: 'Unhandled error',
      function_request_id: context!.awsRequestId,
      correlation_id: event!.requestContext.requestId,
      // True only where Lambda sets AWS_LAMBDA_INITIALIZATION_TYPE=on-demand; the field is there either way.
      cold_start: false,
      http: { method: 'GET', path: '/api/licenses' },
      error: {
        name: 'ElectroError',
        message: expect.stringContaining('Error thrown by DynamoDB client'),
        stack: expect.arrayContaining([expect.stringContaining('ElectroError')]),
        cause: {
          name: 'ResourceNotFoundException',
          httpStatusCode: 400,
          requestId: expect.any(String),
          stack: expect.arrayContaining([expect.stringContaining('ResourceNotFoundException')]),
        },
      },
    });
    expect(text).not.toContain(licenseKey);
    expect(text).not.toContain(licenseKey.slice('WIDGET-'.length, -5));
    expect(text).not.toContain(apiKey);
  });
});
