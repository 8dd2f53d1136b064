import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDataService } from '../../../shared/platform/data/service.js';
import { deleteLicense } from '../../../shared/licensing/licenses/delete-license.js';
import { FIRST_CHUNK } from '../../../shared/licensing/licenses/license-activations.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { newTenant } from '../../support/client.js';
import { newLicense, newProduct, plugin } from '../../support/licensing-fixtures.js';
import * as dataModel from '../../../shared/platform/data/model.js';

/**
 * A license delete that dies between its transactions (the function timed out, the container was recycled) leaves
 * activations behind the deleted license. The same DELETE again finishes the job rather than answering 404.
 */

/** The local table, through a client whose `n`-th transaction fails as a crashed invocation would never send it. */
function dataCrashingAtTransaction(n: number) {
  const raw = new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let transactions = 0;
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && ++transactions === n) throw new Error('The invocation ended here');
      return next(args);
    },
    { step: 'initialize', name: 'crashAtTransaction' },
  );
  return createDataService(DynamoDBDocumentClient.from(raw), inject('tableName'), undefined, dataModel);
}

describe('deleting a license that was left half deleted', () => {
  it('a repeated DELETE removes the activations the first one left, and the counters follow', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const sites = FIRST_CHUNK + 2;
    const license = await newLicense(tenant, product.id, { seats: sites });
    for (let site = 0; site < sites; site += 7) {
      await Promise.all(
        Array.from({ length: Math.min(7, sites - site) }, async (_, i) => {
          const res = await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain: `site-${site + i}.example.com` });
          expect(res.status, res.text).toBe(200);
        }),
      );
    }
    expect((await tenant.get('/api/activations')).body.pagination.total).toBe(sites);

    // The first transaction (the license and the first activations) commits; the one after it never does.
    await expect(deleteLicense({ data: dataCrashingAtTransaction(2), clock: systemClock }, tenant.userId, license.id)).rejects.toThrow('The invocation ended here');
    expect((await tenant.get(`/api/licenses/${license.id}`)).status).toBe(404);
    expect((await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey })).status).toBe(404);

    expect((await tenant.delete(`/api/licenses/${license.id}`)).status).toBe(204);
    expect((await tenant.get(`/api/activations?license_id=${license.id}`)).body.items).toEqual([]);
    expect((await tenant.get('/api/activations')).body.pagination.total).toBe(0);
    expect((await tenant.get('/api/activations?status=active')).body.pagination.total).toBe(0);
    // Done: now it is gone.
    expect((await tenant.delete(`/api/licenses/${license.id}`)).status).toBe(404);
  });

});
