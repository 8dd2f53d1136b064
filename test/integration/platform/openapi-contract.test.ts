import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Client, uniqueEmail, type Response } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { zipBytes } from '../../support/licensing-fixtures.js';
import { verifyAddress } from '../../support/mail.js';
import { invitationToken } from '../../support/team.js';
import { operationFinder, schemaValidator } from '../../support/openapi.js';
import { signInLink } from '../../support/portal-buyer.js';
import { desktopBuild } from '../../support/desktop-fixtures.js';
import { deliver, stripeEvent } from '../../support/stripe-events.js';
import { paidSession, stripeId, stripeSubscription, unixNow } from '../../support/stripe-objects.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

/**
 * The document describes what the service really answers: every answer of a scenario that goes through every
 * surface (a vendor's whole day: products, plans, releases, licenses, a purchase through Stripe, the portal, the
 * plugins' calls, refusals of many kinds) must have its status documented for its route, and its body must
 * validate against the documented schema of that route and status. The document is the committed one, as served.
 */
type Json = Record<string, any>;
type Sample = { method: string; path: string; status: number; body: unknown; text: string; contentType: string };

const document = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8')) as Json;
const { errorsOf, resolveResponse } = schemaValidator(document);
const findOperation = operationFinder(document);
const samples: Sample[] = [];
const fake = fakeStripeClient(inject('stripeUrl'));
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';

/** A client whose every answer becomes a sample. */
class RecordingClient extends Client {
  override async request(method: string, path: string, options: Parameters<Client['request']>[2] = {}): Promise<Response> {
    const res = await super.request(method, path, options);
    record(method, path, res);
    return res;
  }
}

function record(method: string, path: string, res: Response) {
  samples.push({ method, path, status: res.status, body: res.body, text: res.text, contentType: res.headers.get('content-type') ?? '' });
}

/** The problems of one sample against the document, empty when it is described. */
function violations(sample: Sample): string[] {
  const label = `${sample.method} ${sample.path.split('?')[0]} → ${sample.status}`;
  const found = findOperation(sample.method, sample.path);
  if (!found) return [`${label}: no operation in the document`];
  const documented = found.operation.responses[String(sample.status)];
  if (!documented) return [`${label}: status not documented for ${sample.method} ${found.template} (documented: ${Object.keys(found.operation.responses).join(', ')})`];
  const response = resolveResponse(documented);
  const json = response.content?.['application/json'];
  if (sample.contentType.startsWith('application/json')) {
    if (!json) return [`${label}: answered JSON, documented without a JSON body`];
    return errorsOf(json.schema, sample.body).map((error) => `${label}: ${error} in ${sample.text.slice(0, 300)}`);
  }
  // YAML and XML (the desktop feeds): documented with their content type.
  if (response.content?.[sample.contentType.split(';')[0]!.trim()]) return [];
  if (sample.contentType.startsWith('text/html')) return response.content?.['text/html'] ? [] : [`${label}: answered HTML, documented without it`];
  if (sample.text && !sample.path.startsWith('/docs/')) return [`${label}: a body of ${sample.contentType || 'no type'} not documented`];
  return [];
}

const expectStatus = (res: Response, status: number) => expect(res.status, res.text).toBe(status);

let receiver: Receiver;
afterAll(async () => receiver?.close());

describe('the OpenAPI document against real answers', () => {
  it('describes every answer of a scenario through every surface', async () => {
    receiver = await startReceiver();
    const vendor = new RecordingClient();
    const nobody = new RecordingClient();
    const email = uniqueEmail('vendor');

    // Accounts and keys.
    expectStatus(await nobody.get('/api/auth/registration'), 200);
    expectStatus(await vendor.post('/api/auth/register', { email, password: 'short' }), 400);
    expectStatus(await vendor.post('/api/auth/register', { email, password: 'correct horse battery', name: 'Vendor' }), 201);
    expectStatus(await vendor.post('/api/auth/register', { email, password: 'correct horse battery' }), 409);
    expectStatus(await vendor.post('/api/auth/login', { email, password: 'wrong password' }), 401);
    expectStatus(await vendor.post('/api/auth/login', { email, password: 'correct horse battery' }), 200);
    const me = (await vendor.get('/api/auth/me')).body.user;
    expectStatus(await vendor.post('/api/auth/verify-email/resend'), 202);
    expectStatus(await nobody.get('/api/auth/verify-email?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), 302);
    // DECISIONS §20: the routes that reach beyond the account wait for the address.
    expectStatus(await vendor.post('/api/exports', { format: 'jsonl' }), 403);
    await verifyAddress(email);
    expectStatus(await vendor.post('/api/auth/verify-email/resend'), 400);
    expectStatus(await vendor.put('/api/auth/me', { name: 'Acme Software', avatarUrl: null }), 200);
    expectStatus(await vendor.post('/api/auth/change-password', { currentPassword: 'nope nope nope', newPassword: 'battery staple horse' }), 400);
    expectStatus(await vendor.post('/api/auth/change-password', { currentPassword: 'correct horse battery', newPassword: 'battery staple horse' }), 200);
    expectStatus(await nobody.get('/api/products'), 401);
    expectStatus(await vendor.post('/api/products', { name: 'x', productType: 'plugin' }, { origin: 'https://evil.example' }), 403);
    expectStatus(await vendor.request('POST', '/api/products', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }), 415);
    expectStatus(await vendor.request('POST', '/api/products', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), 400);
    const apiKey = (await vendor.post('/api/api-keys', { name: 'Server' })).body;
    expectStatus(await vendor.get('/api/api-keys'), 200);
    const server = new RecordingClient();
    server.bearer = apiKey.key;
    const wrongKey = new RecordingClient();
    wrongKey.bearer = 'pk_notasecretkey';
    expectStatus(await wrongKey.get('/api/products'), 401);
    expectStatus(await server.post('/api/api-keys', { name: 'From a key' }, { origin: null }), 403);

    // Products, plans, releases.
    expectStatus(await vendor.post('/api/products', { name: 'x', productType: 'gadget' }), 400);
    const product = (await vendor.post('/api/products', { name: 'Contract Plugin', productType: 'plugin', color: '#3366ff' })).body;
    expectStatus(await vendor.post('/api/products', { name: 'Again', productType: 'plugin', slug: product.slug }), 409);
    expectStatus(await server.get('/api/products?search=contract&per_page=5'), 200);
    expectStatus(await vendor.get(`/api/products/${product.id}`), 200);
    expectStatus(await vendor.get('/api/products/prd_aaaaaaaaaaaaaaaaaaaaaaaa'), 404);
    expectStatus(await vendor.put(`/api/products/${product.id}`, { description: 'Does things.', homepage: 'https://example.com/p', offlineValidityDays: 14 }), 200);
    expectStatus(await vendor.put(`/api/products/${product.id}`, { offlineValidityDays: 0 }), 400);
    const spareProduct = (await vendor.post('/api/products', { name: 'Contract Rotation', productType: 'plugin' })).body;
    expectStatus(await vendor.post(`/api/products/${spareProduct.id}/signing-key/rotate`), 200);
    expectStatus(await vendor.post('/api/products/prd_aaaaaaaaaaaaaaaaaaaaaaaa/signing-key/rotate'), 404);
    const plan = (await vendor.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49.5, currency: 'usd', siteLimit: 2 })).body;
    expectStatus(await vendor.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 1, currency: 'usd' }), 409);
    expectStatus(await vendor.get(`/api/products/${product.id}/plans`), 200);
    expectStatus(await vendor.get(`/api/products/${product.id}/plans/${plan.id}`), 200);
    expectStatus(await vendor.put(`/api/products/${product.id}/plans/${plan.id}`, { shortDescription: 'Two sites' }), 200);
    const spare = (await vendor.post(`/api/products/${product.id}/plans`, { name: 'Spare', billingCycle: 'lifetime', price: 0, currency: 'eur' })).body;
    expectStatus(await vendor.delete(`/api/products/${product.id}/plans/${spare.id}`), 204);
    const form = new FormData();
    form.set('version', '1.0.0');
    form.set('file', new Blob([new Uint8Array(zipBytes(512))], { type: 'application/zip' }), 'contract-plugin.zip');
    const upload = await vendor.request('POST', `/api/products/${product.id}/releases/upload`, { rawBody: form });
    expectStatus(upload, 201);
    const notZip = new FormData();
    notZip.set('file', new Blob(['not a zip']), 'x.zip');
    expectStatus(await vendor.request('POST', `/api/products/${product.id}/releases/upload`, { rawBody: notZip }), 400);
    expectStatus(await vendor.post(`/api/products/${product.id}/releases/upload-url`, { fileName: 'big.zip', fileSize: 10_000_000 }), 200);
    const release = (await vendor.post(`/api/products/${product.id}/releases`, { version: '1.0.0', filePath: upload.body.filePath, releaseNotes: 'First.' })).body;
    expectStatus(await vendor.get(`/api/products/${product.id}/releases`), 200);
    expectStatus(await vendor.get(`/api/products/${product.id}/releases/${release.id}`), 200);
    expectStatus(await vendor.put(`/api/products/${product.id}/releases/${release.id}`, { tested: '6.7' }), 200);

    // Webhooks, with a receiver on this machine.
    const webhook = (await vendor.post('/api/webhooks', { name: 'Receiver', url: receiver.url, events: ['license.created'] })).body;
    expectStatus(await vendor.post('/api/webhooks', { name: 'x', url: receiver.url, events: [] }), 400);
    expectStatus(await vendor.get('/api/webhooks'), 200);
    expectStatus(await vendor.get(`/api/webhooks/${webhook.id}`), 200);
    expectStatus(await vendor.put(`/api/webhooks/${webhook.id}`, { events: ['license.created', 'license.activated'] }), 200);
    expectStatus(await vendor.post(`/api/webhooks/${webhook.id}/test`), 200);
    expectStatus(await vendor.post(`/api/webhooks/${webhook.id}/regenerate-secret`), 200);

    // Licenses, customers, activations.
    const buyer = uniqueEmail('buyer');
    expectStatus(await vendor.post('/api/licenses', { productId: 'prd_aaaaaaaaaaaaaaaaaaaaaaaa', customerEmail: buyer }), 404);
    const license = (await vendor.post('/api/licenses', { productId: product.id, planId: plan.id, customerEmail: buyer, customerName: 'Jane Buyer' })).body;
    expectStatus(await vendor.get('/api/licenses?status=active'), 200);
    expectStatus(await vendor.get('/api/licenses?status=bogus'), 400);
    expectStatus(await vendor.get(`/api/licenses/${license.id}`), 200);
    expectStatus(await vendor.put(`/api/licenses/${license.id}`, { seats: 3, expiresAt: null }), 200);
    const deliveries = await vendor.get(`/api/webhooks/${webhook.id}/deliveries`);
    expectStatus(deliveries, 200);
    const customers = (await vendor.get(`/api/customers?search=${encodeURIComponent(buyer)}`)).body;
    const customerId = customers.items[0].id as string;
    expectStatus(await vendor.put(`/api/customers/${customerId}`, { city: 'Utrecht', metadata: { crm: 1 } }), 200);
    expectStatus(await vendor.post('/api/customers', { email: buyer }), 409);
    const other = (await vendor.post('/api/customers', { email: uniqueEmail('other'), firstName: 'Other' })).body;

    // The plugins' calls: edge and public.
    const plugin = new RecordingClient();
    const edge = (body: unknown, path: string) => plugin.post(path, body, { origin: null });
    expectStatus(await edge({ license_key: license.licenseKey, domain: 'https://www.shop.example.com/x' }, '/v1/licenses/activate'), 200);
    expectStatus(await edge({ license_key: license.licenseKey, domain: 'shop.example.com' }, '/v1/licenses/validate'), 200);
    expectStatus(await edge({ license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD' }, '/v1/licenses/validate'), 404);
    expectStatus(await edge({}, '/v1/licenses/validate'), 400);
    expectStatus(await edge({ license_key: license.licenseKey, product_slug: 'other-product' }, '/v1/licenses/validate'), 400);
    expectStatus(await edge({ license_key: license.licenseKey }, '/v1/licenses/activate'), 400);
    const pub = { public_key: product.public_key, license_key: license.licenseKey };
    expectStatus(await edge({ ...pub, domain: 'second.example.com' }, '/public/v1/licenses/activate'), 200);
    expectStatus(await edge({ ...pub, domain: 'second.example.com' }, '/public/v1/licenses/check'), 200);
    expectStatus(await edge({ ...pub, domain: 'never.example.com' }, '/public/v1/licenses/check'), 200);
    expectStatus(await edge(pub, '/public/v1/licenses/validate'), 200);
    expectStatus(await edge({ ...pub, public_key: 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }, '/public/v1/licenses/validate'), 404);
    expectStatus(await edge({ ...pub, domain: 'third.example.com' }, '/public/v1/licenses/activate'), 200);
    expectStatus(await edge({ ...pub, domain: 'fourth.example.com' }, '/public/v1/licenses/activate'), 400);
    expectStatus(await edge({ ...pub, domain: 'third.example.com' }, '/public/v1/licenses/deactivate'), 200);
    expectStatus(await edge({ license_key: license.licenseKey, activation_id: 'act_aaaaaaaaaaaaaaaaaaaaaaaa' }, '/v1/licenses/deactivate'), 400);
    // Staging sites take no seat, up to the limit; a retry with an Idempotency-Key gets the first answer, the key reused is 422.
    const once = (key: string) => ({ origin: null, headers: { 'Idempotency-Key': key } });
    const staged = { license_key: license.licenseKey, domain: 'localhost' };
    expectStatus(await plugin.post('/v1/licenses/activate', staged, once('contract-staging')), 200);
    expectStatus(await plugin.post('/v1/licenses/activate', staged, once('contract-staging')), 200);
    expectStatus(await plugin.post('/v1/licenses/activate', { ...staged, domain: 'shop.test' }, once('contract-staging')), 422);
    expectStatus(await plugin.post('/v1/licenses/activate', { ...staged, domain: 'shop.test' }, once('x'.repeat(256))), 400);
    expectStatus(await edge({ ...pub, domain: 'shop.test' }, '/public/v1/licenses/activate'), 200);
    expectStatus(await edge({ ...pub, domain: 'staging.shop.com' }, '/public/v1/licenses/activate'), 200);
    expectStatus(await edge({ ...pub, domain: '10.0.0.7' }, '/public/v1/licenses/activate'), 400);
    expectStatus(await plugin.post('/public/v1/licenses/deactivate', { ...pub, domain: 'shop.test' }, once('contract-off')), 200);
    expectStatus(await plugin.post('/public/v1/licenses/deactivate', { ...pub, domain: 'shop.test' }, once('contract-off')), 200);
    const retried = { headers: { 'Idempotency-Key': 'contract-customer' } };
    const repeatCustomer = { email: uniqueEmail('again') };
    expectStatus(await vendor.post('/api/customers', repeatCustomer, retried), 201);
    expectStatus(await vendor.post('/api/customers', repeatCustomer, retried), 201);
    expectStatus(await vendor.post('/api/customers', { email: uniqueEmail('again') }, retried), 422);
    expectStatus(await vendor.put(`/api/products/${product.id}`, { stagingPatterns: ['*'] }), 400);
    expectStatus(await vendor.put(`/api/products/${product.id}`, { stagingPatterns: null, stagingActivationLimit: 3 }), 200);
    expectStatus(await edge({ ...pub, domain: 'second.example.com' }, '/public/v1/licenses/offline'), 200);
    expectStatus(await edge({ ...pub, domain: 'never.example.com' }, '/public/v1/licenses/offline'), 400);
    expectStatus(await edge({ ...pub, public_key: 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', domain: 'second.example.com' }, '/public/v1/licenses/offline'), 404);
    expectStatus(await plugin.get(`/public/v1/signing-key?public_key=${product.public_key}`), 200);
    expectStatus(await plugin.get(`/public/v1/signing-key?public_key=${spareProduct.public_key}`), 200);
    expectStatus(await plugin.get('/public/v1/signing-key?public_key=pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), 404);
    expectStatus(await plugin.get('/public/v1/signing-key'), 400);
    expectStatus(await plugin.get(`/v1/wp/update-check?slug=${product.slug}&license_key=${license.licenseKey}&version=0.9`), 200);
    expectStatus(await plugin.get(`/v1/wp/update-check?slug=${product.slug}&license_key=nope&version=0.9`), 200);
    expectStatus(await plugin.get('/v1/wp/update-check?slug=no-such-product&license_key=x&version=1'), 404);
    expectStatus(await plugin.get(`/v1/download/${release.id}?license_key=${license.licenseKey}`), 302);
    expectStatus(await plugin.get(`/v1/download/${release.id}?license_key=NOPE-AAAA-BBBB-CCCC-DDDD`), 403);
    expectStatus(await plugin.get(`/v1/download/${release.id}`), 400);
    // Desktop files and the update feeds (DECISIONS §26).
    const desktop = desktopBuild();
    const grant = (await vendor.post(`/api/products/${product.id}/releases/upload-url`, { fileName: 'app.deb', fileSize: desktop.bytes.length })).body;
    expect((await fetch(grant.uploadUrl, { method: 'PUT', body: new Uint8Array(desktop.bytes) })).ok).toBe(true);
    const desktopFile = { platform: 'linux-x64', fileName: 'app.deb', fileSize: desktop.bytes.length, filePath: grant.filePath, sha512: desktop.sha512, signature: 'c2ln' };
    const files = `/api/products/${product.id}/releases/${release.id}/files`;
    expectStatus(await vendor.post(files, { ...desktopFile, platform: 'beos-x64' }), 400);
    expectStatus(await vendor.post(files, { ...desktopFile, fileSize: 600 * 1024 * 1024 }), 413);
    expectStatus(await vendor.post(files, desktopFile), 201);
    const feeds = `/v1/feeds/${product.slug}`;
    const keyed = `license_key=${license.licenseKey}&machine=desk-1`;
    for (const name of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml', 'latest-linux-arm64.yml']) expectStatus(await plugin.get(`${feeds}/electron/${name}?${keyed}`), 200);
    expectStatus(await plugin.get(`${feeds}/electron/latest-linux.yml?license_key=NOPE-AAAA-BBBB-CCCC-DDDD`), 403);
    expectStatus(await plugin.get(`/v1/feeds/no-such-product/electron/latest.yml?${keyed}`), 404);
    expectStatus(await plugin.get(`${feeds}/tauri/linux/x86_64/0.0.1?${keyed}`), 200);
    expectStatus(await plugin.get(`${feeds}/tauri/linux/x86_64/999.0.0?${keyed}`), 204);
    expectStatus(await plugin.get(`${feeds}/tauri/beos/x86_64/1.0.0?${keyed}`), 400);
    expectStatus(await plugin.get(`${feeds}/sparkle/appcast.xml?${keyed}`), 200);
    expectStatus(await plugin.get(`${feeds}/sparkle/appcast.xml`), 400);
    expectStatus(await plugin.get(`/v1/download/${release.id}/linux-x64/app.deb?${keyed}`), 302);
    expectStatus(await plugin.get(`/v1/download/${release.id}/linux-arm64/app.deb?${keyed}`), 404);
    expectStatus(await plugin.get(`/v1/download/${release.id}/linux-x64/app.deb?license_key=NOPE-AAAA-BBBB-CCCC-DDDD`), 403);
    // The Composer repository (DECISIONS §24), with the account's vendor.
    expectStatus(await vendor.get('/api/account/settings'), 200);
    const composerVendor = `contract-${Date.now().toString(36)}`;
    expectStatus(await vendor.put('/api/account/settings', { composerVendor }), 200);
    expectStatus(await vendor.put('/api/account/settings', { composerVendor: 'Not Valid' }), 400);
    const composer = (path: string, key = license.licenseKey) =>
      plugin.get(`/composer${path}`, { origin: null, headers: { authorization: `Basic ${Buffer.from(`${key}:https://example.com`).toString('base64')}` } });
    expectStatus(await composer('/packages.json'), 200);
    expectStatus(await composer('/packages.json', 'NOPE-AAAA-BBBB-CCCC-DDDD'), 401);
    expectStatus(await composer(`/p2/${composerVendor}/${product.slug}.json`), 200);
    expectStatus(await composer(`/p2/${composerVendor}/no-such-package.json`), 404);
    expectStatus(await composer(`/dist/${composerVendor}/${product.slug}/${release.id}.zip`), 302);
    expectStatus(await composer(`/dist/${composerVendor}/${product.slug}/rel_aaaaaaaaaaaaaaaaaaaaaaaa.zip`), 404);
    // A floating license's seats, lent by leases on both surfaces (DECISIONS §18).
    const floating = (await vendor.post('/api/licenses', { productId: product.id, customerEmail: 'team@example.com', seats: 1, floating: true })).body;
    const lent = await edge({ license_key: floating.licenseKey, machine: 'desk-1' }, '/v1/licenses/leases');
    expectStatus(lent, 201);
    expectStatus(await edge({ license_key: floating.licenseKey, machine: 'desk-2' }, '/v1/licenses/leases'), 409);
    expectStatus(await edge({ license_key: floating.licenseKey }, `/v1/licenses/leases/${lent.body.lease_id}/heartbeat`), 200);
    expectStatus(await vendor.get(`/api/licenses/${floating.id}/leases`), 200);
    expectStatus(await plugin.delete(`/v1/licenses/leases/${lent.body.lease_id}?license_key=${floating.licenseKey}`, { origin: null }), 204);
    const publicLease = await edge({ public_key: product.public_key, license_key: floating.licenseKey, machine: 'desk-3' }, '/public/v1/licenses/leases');
    expectStatus(publicLease, 201);
    expectStatus(await edge({ public_key: product.public_key, license_key: floating.licenseKey }, `/public/v1/licenses/leases/${publicLease.body.lease_id}/heartbeat`), 200);
    expectStatus(await plugin.delete(`/public/v1/licenses/leases/${publicLease.body.lease_id}?public_key=${product.public_key}&license_key=${floating.licenseKey}`, { origin: null }), 204);
    expectStatus(await edge({ license_key: floating.licenseKey }, `/v1/licenses/leases/${publicLease.body.lease_id}/heartbeat`), 404);
    // What installed plugins report, and what the vendor reads of it.
    const analytics = { public_key: product.public_key, license_key: license.licenseKey, domain: 'second.example.com' };
    expectStatus(await edge({ ...analytics, type: 'bug', message: 'It broke', metadata: { wp: '6.7' } }, '/public/v1/feedback'), 201);
    expectStatus(await edge({ ...analytics, type: 'praise', message: 'x' }, '/public/v1/feedback'), 400);
    expectStatus(await edge({ ...analytics, event: 'settings_saved', properties: { tab: 'main' } }, '/public/v1/events'), 202);
    expectStatus(await edge({ ...analytics, public_key: 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', event: 'x' }, '/public/v1/events'), 404);
    expectStatus(await edge({ ...analytics, reason: 'too_expensive', details: 'Renewal' }, '/public/v1/deactivation-reasons'), 201);
    for (const list of ['feedback', 'events', 'deactivation-reasons', 'analytics']) expectStatus(await vendor.get(`/api/products/${product.id}/${list}`), 200);
    expectStatus(await vendor.get(`/api/products/${product.id}/analytics?from=2026-02-30`), 400);
    expectStatus(await nobody.get('/api/oauth/google'), 404);
    expectStatus(await nobody.get('/api/oauth/github/callback?code=x&state=y'), 404);
    const activations = (await vendor.get(`/api/activations?license_id=${license.id}`)).body;
    expectStatus(await vendor.post(`/api/activations/${activations.items[0].id}/deactivate`), 200);
    expectStatus(await vendor.post('/api/activations/act_aaaaaaaaaaaaaaaaaaaaaaaa/deactivate'), 404);

    // A purchase: Stripe connected, checkout on the public API, Stripe's signed event, the way back.
    expectStatus(await vendor.get('/api/payment-provider'), 200);
    expectStatus(await plugin.get(`/public/v1/checkout?public_key=${product.public_key}&plan=pro`, { origin: null }), 400);
    const secretKey = stripeTestKey();
    expectStatus(await vendor.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(false), webhookSecret }), 400);
    expectStatus(await vendor.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret }), 200);
    expectStatus(await plugin.get(`/public/v1/plans?public_key=${product.public_key}`, { origin: null }), 200);
    // The lifecycle's settings: tax, coupons, no-card trials (the plan has none), a plan change of nothing.
    expectStatus(await vendor.patch('/api/payment-provider', { automaticTax: false }), 200);
    const coupon = await vendor.post('/api/coupons', { code: stripeId('C').replace('_', '-').slice(0, 20), percentOff: 10, duration: 'once' });
    expectStatus(coupon, 201);
    expectStatus(await vendor.get('/api/coupons'), 200);
    expectStatus(await vendor.delete(`/api/coupons/${coupon.body.id}`), 200);
    expectStatus(await plugin.post('/public/v1/trials', { public_key: product.public_key, plan: 'pro', email: buyer }, { origin: null }), 400);
    expectStatus(await vendor.post('/api/subscriptions/sub_aaaaaaaaaaaaaaaaaaaaaaaa/change-plan', { planId: plan.id }), 404);
    expectStatus(await plugin.get('/public/v1/plans', { origin: null }), 400);
    expectStatus(await plugin.get(`/public/v1/checkout?public_key=${product.public_key}&plan=nope`, { origin: null }), 404);
    const opened = await plugin.get(`/public/v1/checkout/${plan.id}?public_key=${product.public_key}&email=${encodeURIComponent(buyer)}&return_url=https://example.com/back`, { origin: null });
    expectStatus(opened, 303);
    const sessionId = /\/(cs_test_\w+)$/.exec(opened.headers.get('location')!)![1]!;
    expectStatus(await plugin.get(`/public/v1/checkout/return?session_id=${sessionId}`, { origin: null }), 303);
    expectStatus(await plugin.get('/public/v1/checkout/return?session_id=cs_test_unknown', { origin: null }), 404);
    const checkoutSession = (await fake.session(sessionId))!.session;
    const subscription = stripeSubscription({ start: unixNow(), end: unixNow() + 365 * 86_400 });
    await fake.putSubscription(secretKey, subscription);
    const session = paidSession(checkoutSession, { email: buyer, name: 'Jane Buyer', amountTotal: 4950, invoice: stripeId('in'), subscription: subscription.id });
    const path = `/v1/webhooks/stripe/${me.id}`;
    const event = stripeEvent('checkout.session.completed', session);
    for (const [res, status] of [
      [await deliver(path, event, webhookSecret), 200],
      [await deliver(path, event, webhookSecret), 200],
      [await deliver(path, event, webhookSecret, { signature: 't=1,v1=bad' }), 400],
      [await deliver('/v1/webhooks/stripe/usr_aaaaaaaaaaaaaaaaaaaaaaaa', event, webhookSecret), 404],
    ] as const) {
      expectStatus(res, status);
      record('POST', path, res);
    }
    expectStatus(await vendor.get(`/api/customers/${customerId}`), 200);
    expectStatus(await vendor.get('/api/customers'), 200);

    // Imports and exports, and a customer's data (issue 29).
    const csv = `license_key,customer_email\nCONTRACT-${me.id.slice(-8)}-KEPT,kept@example.com\nshort,kept@example.com\n`;
    const imported = await vendor.request('POST', `/api/imports?productId=${product.id}&format=csv&dryRun=true`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expectStatus(imported, 202);
    expectStatus(await vendor.request('POST', `/api/imports?productId=${product.id}&format=csv`, { rawBody: csv, headers: { 'content-type': 'text/plain' } }), 415);
    expectStatus(await vendor.post(`/api/imports?productId=${product.id}&format=nope`), 400);
    await expect.poll(async () => (await vendor.get(`/api/imports/${imported.body.id}`)).body.status, { timeout: 30_000, interval: 200 }).toBe('done');
    expectStatus(await vendor.get('/api/imports'), 200);
    expectStatus(await vendor.get('/api/imports/imp_aaaaaaaaaaaaaaaaaaaaaaaa'), 404);
    expectStatus(await vendor.post('/api/imports/upload-url', { fileSize: 5_000_000 }), 200);
    const exported = await vendor.post('/api/exports', { format: 'jsonl' });
    expectStatus(exported, 202);
    expectStatus(await vendor.post('/api/exports', { format: 'xml' }), 400);
    await expect.poll(async () => (await vendor.get(`/api/exports/${exported.body.id}`)).body.status, { timeout: 30_000, interval: 200 }).toBe('done');
    expectStatus(await vendor.get('/api/exports/exp_aaaaaaaaaaaaaaaaaaaaaaaa'), 404);
    expectStatus(await vendor.get(`/api/customers/${other.id}/export`), 200);
    expectStatus(await vendor.post(`/api/customers/${other.id}/erase`), 200);
    expectStatus(await vendor.post('/api/customers/cus_aaaaaaaaaaaaaaaaaaaaaaaa/erase'), 404);

    // The portal, from the vendor's server.
    const q = `email=${encodeURIComponent(buyer)}`;
    for (const route of ['overview', 'licenses', 'downloads', 'invoices', 'subscriptions']) expectStatus(await server.get(`/v1/portal/${route}?${q}`), 200);
    expectStatus(await server.get('/v1/portal/licenses'), 400);
    expectStatus(await nobody.get(`/v1/portal/licenses?${q}`), 401);
    const subscriptions = (await server.get(`/v1/portal/subscriptions?${q}`)).body.data;
    expectStatus(await server.post(`/v1/portal/subscriptions/${subscriptions[0].id}/cancel?${q}`), 200);
    expectStatus(await server.post(`/v1/portal/subscriptions/sub_aaaaaaaaaaaaaaaaaaaaaaaa/cancel?${q}`), 404);
    expectStatus(await server.post(`/v1/portal/subscriptions/${subscriptions[0].id}/change-plan`, { email: buyer, planId: subscriptions[0].planId }), 400);
    const downloads = (await server.get(`/v1/portal/downloads?${q}`)).body.data;
    const link = new URL(downloads[0].downloadUrl);
    expectStatus(await plugin.get(`${link.pathname}${link.search}`), 302);
    expectStatus(await plugin.get(`${link.pathname}?expires=1&signature=00`), 403);

    // The hosted customer portal (DECISIONS §25): its settings, a buyer's sign-in by e-mailed link, and its forms.
    expectStatus(await vendor.get('/api/portal-settings'), 200);
    expectStatus(await vendor.put('/api/portal-settings', { enabled: true, name: 'Contract Plugins' }), 200);
    expectStatus(await nobody.get(`/portal?public_key=${product.public_key}`), 200);
    expectStatus(await nobody.post('/public/v1/portal/sign-in', { email: buyer, public_key: product.public_key }), 202);
    const signIn = new URL(await signInLink(buyer));
    expectStatus(await nobody.get(`${signIn.pathname}${signIn.search}`), 200);
    // The page's forms come from the service's own origin (not the dashboard's).
    const formEncoded = { 'content-type': 'application/x-www-form-urlencoded' };
    const own = new URL(inject('baseUrl')).origin;
    expectStatus(await nobody.request('POST', `${signIn.pathname}${signIn.search}`, { rawBody: '', headers: formEncoded, origin: own }), 303);
    for (const action of ['activations/act_aaaaaaaaaaaaaaaaaaaaaaaa/deactivate', ...['change-plan', 'cancel', 'resume', 'billing-portal'].map((name) => `subscriptions/sub_aaaaaaaaaaaaaaaaaaaaaaaa/${name}`)]) {
      expectStatus(await new RecordingClient().request('POST', `/portal/${action}`, { rawBody: '', headers: formEncoded, origin: own }), 401);
    }
    // The vendor's "View as customer" (issue 51): its link, the preview it opens, and a change refused in it.
    expectStatus(await vendor.post(`/api/customers/${customerId}/portal-preview`, { productId: 'prd_aaaaaaaaaaaaaaaaaaaaaaaa' }), 404);
    const preview = new URL((await vendor.post(`/api/customers/${customerId}/portal-preview`)).body.url);
    const viewer = new RecordingClient();
    const previewing = await viewer.get(`${preview.pathname}${preview.search}`);
    expectStatus(previewing, 303);
    expectStatus(await nobody.get(`${preview.pathname}${preview.search}`), 400);
    const previewCookie = previewing.cookies.find((cookie) => cookie.startsWith('portal_session='))!.split(';')[0]!;
    const inPreview = { ...formEncoded, cookie: previewCookie };
    expectStatus(await viewer.request('POST', '/portal/subscriptions/sub_aaaaaaaaaaaaaaaaaaaaaaaa/cancel', { rawBody: '', headers: inPreview, origin: own }), 403);

    // The team (DECISIONS §17) and the audit log.
    const member = new RecordingClient();
    const memberEmail = uniqueEmail('member');
    const registered = await member.post('/api/auth/register', { email: memberEmail, password: 'correct horse battery', name: 'Member' });
    expectStatus(registered, 201);
    const memberId = registered.body.user.id as string;
    await verifyAddress(memberEmail);
    expectStatus(await vendor.post('/api/team/invitations', { email: memberEmail, role: 'owner' }), 400);
    const invitation = (await vendor.post('/api/team/invitations', { email: memberEmail, role: 'support' })).body;
    expectStatus(await vendor.get('/api/team/invitations'), 200);
    expectStatus(await member.post('/api/team/invitations/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/accept'), 400);
    expectStatus(await member.post(`/api/team/invitations/${await invitationToken(memberEmail)}/accept`), 200);
    expectStatus(await member.post('/api/auth/switch-tenant', { tenantId: me.id }), 200);
    expectStatus(await member.post('/api/products', { name: 'Not mine', productType: 'plugin' }), 403);
    expectStatus(await vendor.get('/api/team/members'), 200);
    expectStatus(await vendor.put(`/api/team/members/${memberId}`, { role: 'viewer' }), 200);
    expectStatus(await vendor.delete(`/api/team/members/${memberId}`), 204);
    expectStatus(await vendor.delete(`/api/team/invitations/${invitation.id}`), 404);
    const withdrawn = (await vendor.post('/api/team/invitations', { email: uniqueEmail('later'), role: 'viewer' })).body;
    expectStatus(await vendor.delete(`/api/team/invitations/${withdrawn.id}`), 204);
    expectStatus(await vendor.get('/api/audit-log?per_page=5&action=product.create'), 200);
    expectStatus(await vendor.get('/api/audit-log?from=yesterday'), 400);
    expectStatus(await vendor.get('/api/audit-log/verify'), 200);

    // Revoke, regenerate, deletes; the docs and health.
    expectStatus(await vendor.post(`/api/licenses/${license.id}/regenerate`), 200);
    expectStatus(await vendor.post(`/api/licenses/${license.id}/revoke`), 200);
    expectStatus(await vendor.delete(`/api/licenses/${license.id}`), 204);
    expectStatus(await vendor.delete(`/api/customers/${other.id}`), 204);
    expectStatus(await vendor.delete(`/api/webhooks/${webhook.id}`), 204);
    expectStatus(await vendor.delete(`/api/products/${product.id}/releases/${release.id}`), 204);
    expectStatus(await vendor.post(`/api/products/${product.id}/regenerate-public-key`), 200);
    expectStatus(await vendor.delete('/api/payment-provider'), 204);
    expectStatus(await server.delete(`/api/api-keys/${apiKey.id}`), 403);
    expectStatus(await vendor.delete(`/api/api-keys/${apiKey.id}`), 204);
    expectStatus(await vendor.delete(`/api/products/${product.id}`), 204);
    expectStatus(await vendor.get(`/api/products/${product.id}`), 200);
    expectStatus(await nobody.get('/health'), 200);
    expectStatus(await nobody.get('/openapi.json'), 200);
    expectStatus(await nobody.get('/docs'), 200);
    expectStatus(await nobody.get('/docs/swagger-ui.css'), 200);
    expectStatus(await nobody.get('/docs/nothing.js'), 404);
    expectStatus(await vendor.post('/api/auth/logout'), 204);

    expect(samples.flatMap(violations)).toEqual([]);
  }, 120_000);

  it('covered most operations of every surface', () => {
    const operations = new Set(samples.map((sample) => findOperation(sample.method, sample.path)).filter(Boolean).map((found) => `${found!.operation.operationId}`));
    const total = Object.values(document.paths as Json).flatMap((item) => Object.keys(item)).length;
    expect(operations.size / total).toBeGreaterThan(0.9);
    const tags = new Set(samples.map((sample) => findOperation(sample.method, sample.path)?.operation.tags[0]));
    expect([...tags].sort()).toEqual(['Edge API', 'Management API', 'Portal API', 'Public API', 'Reference', 'Stripe webhook']);
  });

  it('finds an answer the document does not describe (the check can fail)', () => {
    const base = { method: 'GET', text: '{}', contentType: 'application/json; charset=utf-8' };
    const product = samples.find((sample) => sample.method === 'GET' && /^\/api\/products\/prd_/.test(sample.path) && sample.status === 200)!;
    expect(violations(product)).toEqual([]);
    expect(violations({ ...product, body: { ...(product.body as Json), undocumented: true } })).toHaveLength(1);
    expect(violations({ ...product, body: { ...(product.body as Json), plansCount: '1' } })).toHaveLength(1);
    expect(violations({ ...base, path: '/api/products', status: 418, body: {} })[0]).toMatch(/status not documented/);
    expect(violations({ ...base, path: '/api/nowhere/at/all', status: 200, body: {} })[0]).toMatch(/no operation/);
  });
});
