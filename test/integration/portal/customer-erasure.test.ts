import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { EVENT_TYPES } from '../../../shared/messaging/events/event-types.js';
import { newId } from '../../../shared/platform/ids.js';
import { newTenant } from '../../support/client.js';
import { eventually, newLicense, newProduct, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';
import { startReceiver } from '../../support/webhook-receiver.js';

/** Every item of the whole table (all tests' tenants) whose JSON holds `needle`, case-insensitively. */
/** The table's items holding each needle (any case), from one scan of the whole table: the shared stack's is large. */
async function itemsHolding(...needles: string[]): Promise<Record<string, unknown>[][]> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const found = needles.map((): Record<string, unknown>[] => []);
  try {
    for await (const page of paginateScan({ client }, { TableName: inject('tableName'), ConsistentRead: true })) {
      for (const item of page.Items ?? []) {
        const text = JSON.stringify(item).toLowerCase();
        needles.forEach((needle, index) => text.includes(needle.toLowerCase()) && found[index]!.push(item));
      }
    }
  } finally {
    client.destroy();
  }
  return found;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/**
 * A customer with everything that can hold their data: two licenses with their name, sites activated (one since
 * deactivated) and checked, feedback they sent, a payment with an invoice link, and webhook deliveries of it all.
 */
async function customerWithHistory(tenant: Tenant) {
  const unique = randomUUID().slice(0, 8);
  const email = `Jane.${unique}@Example.com`;
  const lastName = `Doe${unique}`;
  const hook = await tenant.post('/api/webhooks', { name: 'All', url: receiver.url, events: [...EVENT_TYPES] });
  expect(hook.status, hook.text).toBe(201);
  const product = await newProduct(tenant);
  const created = await tenant.post('/api/customers', {
    email,
    firstName: 'Jane',
    lastName,
    phone: '+31 20 555 0101',
    street: 'Erasmusgracht 1',
    city: 'Amsterdam',
    metadata: { crm: `crm-${unique}` },
  });
  expect(created.status, created.text).toBe(201);
  const customer = created.body;
  const first = await newLicense(tenant, product.id, { customerEmail: email, customerName: `Jane ${lastName}`, seats: 3 });
  const second = await newLicense(tenant, product.id, { customerEmail: email, customerName: `Jane ${lastName}` });
  const edge = plugin();
  for (const domain of ['jane-shop.com', 'jane-blog.com']) {
    expect((await edge.post('/v1/licenses/activate', { license_key: first.licenseKey, domain })).status).toBe(200);
  }
  expect((await edge.post('/v1/licenses/validate', { license_key: first.licenseKey, domain: 'jane-shop.com' })).body.valid).toBe(true);
  expect((await edge.post('/v1/licenses/deactivate', { license_key: first.licenseKey, domain: 'jane-blog.com' })).status).toBe(200);
  const feedback = await edge.post('/public/v1/feedback', {
    public_key: product.public_key,
    type: 'bug',
    message: 'The sitemap skips drafts',
    email,
    license_key: second.licenseKey,
    metadata: { contact: email },
  });
  expect(feedback.status, feedback.text).toBe(201);
  const paymentId = newId('pay');
  await localData()
    .entities.payment.create({
      paymentId,
      tenantId: tenant.userId,
      customerId: customer.id,
      amount: 49,
      currency: 'USD',
      status: 'completed',
      paymentMethod: 'stripe',
      invoicePdfUrl: `https://invoice.stripe.test/${unique}`,
      createdAt: new Date().toISOString(),
    })
    .go();
  return { email, lastName, product, customer, licenses: [first, second], paymentId };
}

/**
 * What a customer's no-card trial and devices add (DECISIONS §20): a trial claim of their e-mail, and a machine
 * activated under the name its client reports; the trial license's `license.created` and the `license.activated`.
 */
async function trialAndDevice(tenant: Tenant, product: { id: string; public_key: string }, email: string) {
  const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Trial', billingCycle: 'monthly', price: 9, currency: 'usd', siteLimit: 2, trialDays: 7 });
  expect(plan.status, plan.text).toBe(201);
  const trial = await plugin().post('/public/v1/trials', { public_key: product.public_key, plan: plan.body.slug, email });
  expect(trial.status, trial.text).toBe(201);
  const trialLicense = (await tenant.get(`/api/licenses?search=${encodeURIComponent(email.toLowerCase())}`)).body.items.find((l: { trialEndsAt: string | null }) => l.trialEndsAt);
  const deviceName = `Jane's MacBook ${randomUUID().slice(0, 8)}`;
  const device = await plugin().post('/v1/licenses/activate', { license_key: trialLicense.licenseKey, machine: randomUUID(), name: deviceName, platform: 'macOS' });
  expect(device.status, device.text).toBe(200);
  return { deviceName, trialLicense };
}

describe('customer data export and erasure', () => {
  it('exports everything held on a customer', async () => {
    const tenant = await newTenant();
    const { email, lastName, customer, licenses, paymentId } = await customerWithHistory(tenant);

    const res = await tenant.get(`/api/customers/${customer.id}/export`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="customer-${customer.id}.json"`);
    const exported = res.body;
    expect(exported.customer).toEqual(customer);
    expect(exported.licenses.map((l: { id: string }) => l.id).sort()).toEqual(licenses.map((l) => l.id).sort());
    const withSites = exported.licenses.find((l: { id: string }) => l.id === licenses[0]!.id);
    expect(withSites.customerName).toBe(`Jane ${lastName}`);
    expect(withSites.activations.map((a: { domain: string; status: string }) => `${a.domain} ${a.status}`).sort()).toEqual([
      'jane-blog.com deactivated',
      'jane-shop.com active',
    ]);
    for (const activation of withSites.activations) {
      expect(activation.ipAddress).toMatch(/\d/);
      // The active site's last check comes from its domain item, the deactivated one's from the activation.
      expect(activation.lastIpAddress).toMatch(/\d/);
    }
    expect(exported.payments.map((p: { id: string }) => p.id)).toEqual([paymentId]);
    expect(exported.feedback).toEqual([expect.objectContaining({ email: email.toLowerCase(), licenseId: licenses[1]!.id, message: 'The sitemap skips drafts' })]);
    expect(exported.exportedAt).toEqual(expect.any(String));

    expect((await (await newTenant()).get(`/api/customers/${customer.id}/export`)).status).toBe(404);
  });

  it('erases the customer from every item that held them, keeps the licenses working, and records it', async () => {
    const tenant = await newTenant();
    const { email, lastName, product, customer, licenses, paymentId } = await customerWithHistory(tenant);
    const { deviceName, trialLicense } = await trialAndDevice(tenant, product, email);
    // Every event so far reached the webhook: its deliveries hold the customer too.
    const deliveriesBefore = 8; // customer.created, 3 × license.created, 3 × license.activated, license.deactivated
    const webhookId = (await tenant.get('/api/webhooks')).body.items[0].id;
    const settled = await eventually(
      async () => (await tenant.get(`/api/webhooks/${webhookId}/deliveries`)).body.items,
      (items: { status: string }[]) => items.length === deliveriesBefore && items.every((d) => d.status === 'succeeded'),
      20_000,
    );
    expect(settled).toHaveLength(deliveriesBefore);
    expect((await itemsHolding(email))[0]!.length).toBeGreaterThan(0);

    const res = await tenant.post(`/api/customers/${customer.id}/erase`);
    expect(res.status, res.text).toBe(200);
    const erasedEmail = `erased-${customer.id}@invalid`;
    expect(res.body).toEqual({
      ...customer,
      email: erasedEmail,
      ...{ firstName: null, lastName: null, phone: null, street: null, city: null, metadata: null },
      updatedAt: expect.any(String),
      erasedAt: res.body.updatedAt,
    });

    // No copy of the e-mail, the name or the metadata anywhere in the table.
    expect(await itemsHolding(email, lastName, deviceName)).toEqual([[], [], []]);

    // What stays: the customer (erased), its licenses under the erased address, their activations without addresses.
    const detail = (await tenant.get(`/api/customers/${customer.id}`)).body;
    expect(detail.licenses.map((l: { customerEmail: string; customerName: string | null }) => [l.customerEmail, l.customerName])).toEqual([
      [erasedEmail, null],
      [erasedEmail, null],
      [erasedEmail, null],
    ]);
    const devices = (await tenant.get(`/api/activations?license_id=${trialLicense.id}`)).body.items;
    expect(devices).toEqual([expect.objectContaining({ name: null, platform: 'macOS', ipAddress: '' })]);
    expect(detail.payments).toEqual([expect.objectContaining({ id: paymentId, amount: 49, invoicePdfUrl: null })]);
    const activations = (await tenant.get(`/api/activations?license_id=${licenses[0]!.id}`)).body.items;
    expect(activations.map((a: { ipAddress: string }) => a.ipAddress)).toEqual(['', '']);
    const exported = (await tenant.get(`/api/customers/${customer.id}/export`)).body;
    expect(exported.licenses.flatMap((l: { activations: { lastIpAddress: string | null }[] }) => l.activations.map((a) => a.lastIpAddress))).toEqual([null, null, null]);
    expect(exported.feedback).toEqual([expect.objectContaining({ email: null, metadata: null, message: 'The sitemap skips drafts' })]);

    // The licenses keep working: validate, a new activation (a seat counted), search by the old e-mail finds nothing.
    const edge = plugin();
    const validated = await edge.post('/v1/licenses/validate', { license_key: licenses[0]!.licenseKey });
    expect(validated.body).toMatchObject({ valid: true, license: { activatedCount: 1 } });
    expect((await edge.post('/v1/licenses/activate', { license_key: licenses[0]!.licenseKey, domain: 'new-site.com' })).status).toBe(200);
    expect((await edge.post('/v1/licenses/validate', { license_key: licenses[0]!.licenseKey })).body.license.activatedCount).toBe(2);
    expect((await tenant.get(`/api/licenses?search=${encodeURIComponent(email.toLowerCase())}`)).body.items).toEqual([]);

    // Recorded: `customer.erased` reaches the webhook with the erased customer only.
    const erasedEvent = await eventually(
      async () => receiver.requests.find((r) => r.json?.type === 'customer.erased' && r.json.data.id === customer.id),
      (found) => found !== undefined,
      20_000,
    );
    expect(erasedEvent!.json.data).toEqual(res.body);

    // The e-mail is free again, and erasing twice changes nothing.
    expect((await tenant.post('/api/customers', { email })).status).toBe(201);
    const again = await tenant.post(`/api/customers/${customer.id}/erase`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  }, 60_000); // Two scans of the shared stack's whole table, and webhook deliveries awaited.

  it('is 404 for an unknown or foreign customer, and writes nothing', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const { body: customer } = await other.post('/api/customers', { email: 'keep@example.com', lastName: 'Kept' });
    for (const id of [customer.id, newId('cus'), 'cus_nope']) {
      const res = await tenant.post(`/api/customers/${id}/erase`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Customer not found' });
    }
    expect((await other.get(`/api/customers/${customer.id}`)).body.lastName).toBe('Kept');
  });
});
