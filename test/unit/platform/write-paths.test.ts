import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { userForProviderAccount } from '../../../shared/identity/accounts/identities.js';
import { resendVerification } from '../../../shared/identity/accounts/email-verification.js';
import { PASSWORD_HASH_COST } from '../../../shared/platform/config.js';
import { registerUser } from '../../../shared/identity/accounts/users.js';
import { createCustomer, deleteCustomer, updateCustomer } from '../../../shared/customers/customers.js';
import { ServiceUnavailableError } from '../../../shared/platform/errors.js';
import { createLicense } from '../../../shared/licensing/licenses/create-license.js';
import { deleteLicense } from '../../../shared/licensing/licenses/delete-license.js';
import { regenerateLicenseKey } from '../../../shared/licensing/licenses/regenerate-license.js';
import { revokeLicense } from '../../../shared/licensing/licenses/revoke-license.js';
import { updateLicense } from '../../../shared/licensing/licenses/update-license.js';
import { createPlan, deletePlan, updatePlan } from '../../../shared/catalog/plans/plans.js';
import { createProduct, deleteProduct, regeneratePublicKey, updateProduct } from '../../../shared/catalog/products/products.js';
import { createRelease, deleteRelease } from '../../../shared/catalog/releases/releases.js';
import { redeliver } from '../../../shared/messaging/webhooks/deliveries.js';
import { envelopeBox, localKeyWrapper } from '../../../shared/platform/secrets/secret-box.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';
import { activationItem, ids, LICENSE_KEY, licenseItem, NOW, seedLicense, seedProduct, TENANT } from '../../support/mock-items.js';

/**
 * Every write path under the two failures DynamoDB Local never produces: a transaction cancelled by a
 * conflict with another one (retried, then the right answer) and one cancelled by throttling every time
 * (503, and nothing written but the refused transaction itself).
 */
type Case = {
  name: string;
  seed: (table: MockTable) => void;
  run: (deps: { data: MockTable['data']; clock: { now: () => Date } }) => Promise<unknown>;
  /** What a successful run answers. */
  answers: (result: unknown) => void;
  /** Writes the path makes before its transaction (they stay when it is throttled). */
  writesBefore?: string[];
  /** Writes the path makes after its transaction commits. */
  writesAfter?: string[];
  /** What its commit changes, for a path that reads again afterwards. */
  committed?: (table: MockTable) => void;
};

const secrets = envelopeBox(localKeyWrapper(randomBytes(32)));
/** A sign-in's dependencies on an open deployment, whose takeovers end nothing beyond identity's. */
const signIn = <D extends object>(deps: D) => ({ ...deps, config: { registration: 'open' as const }, onTakeover: async () => undefined });

const cases: Case[] = [
  {
    name: 'register',
    seed: () => undefined,
    run: (deps) => registerUser({ ...deps, config: { passwordHashCost: PASSWORD_HASH_COST, registration: 'open' } }, { email: 'New@Example.com', password: 'correct horse battery' }, 'https://licensing.example'),
    answers: (result) => expect(result).toMatchObject({ user: { email: 'new@example.com' }, token: expect.any(String) }),
    // The session, then the browser's device.
    writesAfter: ['PutCommand', 'PutCommand'],
  },
  {
    name: 'a fresh verification link',
    seed: (table) => table.seed('user', userItem),
    run: (deps) => resendVerification(deps, TENANT, 'https://licensing.example'),
    answers: (result) => expect(result).toBeUndefined(),
  },
  {
    name: 'OAuth sign-up (new user with the provider account)',
    seed: () => undefined,
    run: (deps) => userForProviderAccount(signIn(deps), { provider: 'google', subject: '1234567890', verifiedEmail: 'new@example.com', name: 'New' }),
    answers: (result) => expect(result).toMatchObject({ email: 'new@example.com', providers: ['google'] }),
  },
  {
    name: 'OAuth link (provider account to the user with its verified e-mail)',
    seed: (table) => {
      table.seed('user', { ...userItem, emailVerified: true });
      table.seed('userEmail', { email: 'dev@example.com', userId: TENANT });
    },
    run: (deps) => userForProviderAccount(signIn(deps), { provider: 'github', subject: '42', verifiedEmail: 'dev@example.com' }),
    answers: (result) => expect(result).toMatchObject({ userId: TENANT }),
  },
  {
    // The password goes first (a single write), then the link: a throttled link leaves the takeover to the next sign-in.
    name: 'OAuth takeover (provider account to the user whose e-mail was never verified)',
    seed: (table) => {
      table.seed('user', { ...userItem, passwordHash: 'scrypt$registrant' });
      table.seed('userEmail', { email: 'dev@example.com', userId: TENANT });
    },
    run: (deps) => userForProviderAccount(signIn(deps), { provider: 'github', subject: '42', verifiedEmail: 'dev@example.com' }),
    answers: (result) => expect(result).toMatchObject({ userId: TENANT }),
    writesBefore: ['UpdateCommand'],
  },
  {
    name: 'product create',
    // An account with its Composer vendor claimed: its first product claimed it (test/integration/catalog/composer-vendor.test.ts).
    seed: (table) => table.seed('accountSettings', { tenantId: TENANT, composerVendor: 'acme', updatedAt: NOW.toISOString() }),
    run: (deps) => createProduct({ ...deps, secrets }, TENANT, { name: 'Widget', productType: 'plugin' }),
    answers: (result) => expect(result).toMatchObject({ slug: 'widget', public_key: expect.stringMatching(/^pk_/) }),
  },
  {
    name: 'product update with a new slug',
    seed: seedProduct,
    run: (deps) => updateProduct(deps, TENANT, ids.product, { slug: 'gadget' }),
    answers: (result) => expect(result).toMatchObject({ id: ids.product }),
  },
  {
    name: 'product delete',
    seed: seedProduct,
    run: (deps) => deleteProduct(deps, TENANT, ids.product),
    answers: (result) => expect(result).toBeUndefined(),
  },
  {
    name: 'product public key regeneration',
    seed: seedProduct,
    run: (deps) => regeneratePublicKey(deps, TENANT, ids.product),
    answers: (result) => expect(result).toMatchObject({ id: ids.product }),
  },
  {
    name: 'plan create',
    seed: seedProduct,
    run: (deps) => createPlan(deps, TENANT, ids.product, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'USD' }),
    answers: (result) => expect(result).toMatchObject({ slug: 'pro', siteLimit: 1 }),
  },
  {
    name: 'plan update',
    seed: (table) => {
      seedProduct(table);
      table.seed('plan', planItem);
    },
    run: (deps) => updatePlan(deps, TENANT, ids.product, ids.plan, { slug: 'premium', price: 59 }),
    answers: (result) => expect(result).toMatchObject({ slug: 'premium', price: 59 }),
  },
  {
    name: 'plan delete',
    seed: (table) => {
      seedProduct(table);
      table.seed('plan', planItem);
    },
    run: (deps) => deletePlan(deps, TENANT, ids.product, ids.plan),
    answers: (result) => expect(result).toBeUndefined(),
  },
  {
    name: 'release create',
    seed: seedProduct,
    run: (deps) =>
      createRelease({ ...deps, ...storageWithZip }, TENANT, ids.product, { version: '1.0.0', filePath: `releases/${TENANT}/${ids.product}/f/w.zip` }),
    answers: (result) => expect(result).toMatchObject({ version: '1.0.0', status: 'published' }),
  },
  {
    name: 'release delete',
    seed: (table) => {
      seedProduct(table);
      table.seed('release', releaseItem);
    },
    run: (deps) => deleteRelease({ ...deps, ...storageWithZip }, TENANT, ids.product, ids.release),
    answers: (result) => expect(result).toBeUndefined(),
  },
  {
    name: 'customer create',
    seed: () => undefined,
    run: (deps) => createCustomer(deps, TENANT, { email: 'buyer@example.com' }),
    answers: (result) => expect(result).toMatchObject({ email: 'buyer@example.com' }),
  },
  {
    name: 'customer update with a new e-mail',
    seed: (table) => table.seed('customer', customerItem),
    run: (deps) => updateCustomer(deps, TENANT, ids.customer, { email: 'new@example.com', firstName: 'Jo' }),
    answers: (result) => expect(result).toMatchObject({ email: 'new@example.com', firstName: 'Jo' }),
  },
  {
    name: 'customer delete',
    seed: (table) => table.seed('customer', customerItem),
    run: (deps) => deleteCustomer(deps, TENANT, ids.customer),
    answers: (result) => expect(result).toBeUndefined(),
  },
  {
    name: 'license create',
    seed: seedProduct,
    run: (deps) => createLicense(deps, TENANT, { productId: ids.product, customerEmail: 'buyer@example.com', seats: 3 }),
    answers: (result) => expect(result).toMatchObject({ seats: 3, status: 'active', licenseKey: expect.stringMatching(/^WIDGET-/) }),
  },
  {
    name: 'license update',
    seed: (table) => {
      seedProduct(table);
      seedLicense(table);
    },
    run: (deps) => updateLicense(deps, TENANT, ids.license, { status: 'suspended', seats: 5 }),
    answers: (result) => expect(result).toMatchObject({ status: 'suspended', seats: 5 }),
  },
  {
    name: 'license key regeneration',
    seed: (table) => {
      seedProduct(table);
      seedLicense(table);
    },
    run: (deps) => regenerateLicenseKey(deps, TENANT, ids.license),
    answers: (result) => expect((result as { licenseKey: string }).licenseKey).not.toBe(LICENSE_KEY),
  },
  {
    name: 'license revoke',
    seed: (table) => {
      seedProduct(table);
      seedLicense(table);
    },
    run: (deps) => revokeLicense(deps, TENANT, ids.license),
    // Revoking goes on until no activation is active: the mock table learns what the commit changed.
    committed: (table) => {
      table.seed('license', { ...licenseItem, status: 'revoked', activatedCount: 0 });
      table.seed('activation', { ...activationItem, status: 'deactivated', deactivatedAt: NOW.toISOString() });
    },
    answers: (result) => expect(result).toMatchObject({ status: 'revoked' }),
  },
  {
    name: 'license delete',
    seed: (table) => {
      seedProduct(table);
      seedLicense(table);
    },
    run: (deps) => deleteLicense(deps, TENANT, ids.license),
    // Deleting goes on until no activation is left: the mock table learns what the commit removed.
    committed: (table) => {
      table.remove('license', licenseItem);
      table.remove('activation', activationItem);
    },
    answers: (result) => expect(result).toBeUndefined(),
    // The ref, marked by the transaction, goes once no activation is left.
    writesAfter: ['DeleteCommand'],
  },
  {
    name: 'webhook redelivery',
    seed: (table) => {
      table.seed('webhook', webhookItem);
      table.seed('delivery', deliveryItem);
    },
    run: (deps) => redeliver({ ...deps, queue: quietQueue }, TENANT, ids.webhook, ids.delivery),
    answers: (result) => expect(result).toMatchObject({ eventId: deliveryItem.eventId, status: 'pending', attempts: 0 }),
  },
];

const userItem = { userId: TENANT, email: 'dev@example.com', name: 'Dev', role: 'developer', createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() };
const planItem = {
  planId: ids.plan, tenantId: TENANT, productId: ids.product, name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49,
  currency: 'USD', siteLimit: 1, isActive: true, isPublic: true, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
};
const releaseItem = {
  releaseId: ids.release, tenantId: TENANT, productId: ids.product, version: '1.0.0', filePath: `releases/${TENANT}/${ids.product}/f/w.zip`,
  fileName: 'w.zip', fileSize: 4, status: 'draft', downloadCount: 0, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
};
const customerItem = {
  customerId: ids.customer, tenantId: TENANT, email: 'old@example.com', nameSearch: '', createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
};
const webhookItem = {
  webhookId: ids.webhook, tenantId: TENANT, name: 'Hook', url: 'https://hooks.example/x', secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
  events: ['license.created'], enabled: true, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
};
const deliveryItem = {
  deliveryId: ids.delivery, webhookId: ids.webhook, tenantId: TENANT, eventId: 'evt_aaaaaaaaaaaaaaaaaaaaaaaa', eventType: 'license.created',
  payload: JSON.stringify({ id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaa', type: 'license.created', createdAt: NOW.toISOString(), data: {} }),
  status: 'failed', attempts: 8, createdAt: NOW.toISOString(),
};

const quietQueue = { enqueue: async () => undefined, retryAfter: async () => undefined, deadLetter: async () => undefined };

/** Release files: a ZIP of four bytes at any path (releases check the stored file before they write). */
/** A stored "ZIP" of just its 4-byte signature: it passes the ZIP check, and holds no readme. */
const ZIP_HEAD = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);
const storageWithZip = {
  config: { bucketName: 'releases' },
  clients: {
    // The storage client with S3's own commands, and a client that answers them.
    s3: async () => ({
      sdk: await import('@aws-sdk/client-s3'),
      s3: {
        send: async (command: object) =>
          command instanceof (await import('@aws-sdk/client-s3')).HeadObjectCommand
            ? { ContentLength: 4 }
            : // The S3 SDK's body: a stream (the readme reader's) that can also give its bytes at once (the ZIP check's).
              { Body: Object.assign(Readable.from([ZIP_HEAD]), { transformToByteArray: async () => ZIP_HEAD }) },
      },
    }),
  } as never,
};

let table: MockTable | undefined;
afterEach(() => table?.ddb.restore());

describe.each(cases)('$name', ({ seed, run, answers, writesBefore = [], writesAfter = [], committed }) => {
  const setUp = () => {
    table = mockTable();
    seed(table);
    if (committed) table.afterCommit(() => committed(table!));
    return { table, deps: { data: table.data, clock: { now: () => NOW } } };
  };

  it('retries a transaction cancelled by a conflict and then answers as usual', async () => {
    const { table, deps } = setUp();
    table.cancelTransactions(['TransactionConflict']);
    answers(await run(deps));
    expect(table.writes()).toEqual([...writesBefore, 'TransactWriteCommand', 'TransactWriteCommand', ...writesAfter]);
    // Each attempt carries its own idempotency token, so the SDK's retry of one attempt cannot apply it twice.
    const tokens = table.transactions().map((t) => t.ClientRequestToken);
    expect(new Set(tokens).size).toBe(2);
  });

  it('answers 503 when the table throttles every attempt, having written nothing else', async () => {
    const { table, deps } = setUp();
    table.alwaysCancelTransactions(['ThrottlingError']);
    const error = await run(deps).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(new Set(table.writes())).toEqual(new Set([...writesBefore, 'TransactWriteCommand']));
  });
});
