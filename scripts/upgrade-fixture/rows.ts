import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { Client, type Response } from '../../test/support/client.js';
import type { FakeGitHub } from '../../test/support/fake-oauth-providers.js';
import { fakeStripeClient } from '../../test/support/fake-stripe.js';
import { pluginZip } from '../../test/support/plugin-zip.js';
import { stripeEvent } from '../../test/support/stripe-events.js';
import { paidSession, stripeId, stripeSubscription, unixNow } from '../../test/support/stripe-objects.js';

/**
 * One request of the rehearsal: the upgraded service must answer it as the release that wrote the data did.
 * `auth`: the account's API key (`key`), or none. Only requests whose answer does not move with the clock (no
 * windows of days, no expiring items) and that change nothing are probes.
 */
export type Probe = { name: string; method: 'GET' | 'POST'; path: string; body?: unknown; auth: 'key' | 'none' };

/** A release's service at `baseUrl`, and the fake Stripe and GitHub it calls. */
export type RowContext = { baseUrl: string; stripeUrl: string; github: FakeGitHub };

const PASSWORD = 'correct horse battery staple';
/** Far in the future: the licenses' answers must not change while the fixture is kept. */
const FAR_FUTURE = '2099-01-01T00:00:00.000Z';
const DAY = 24 * 3600;
const stripeSigner = new Stripe('sk_test_signer_only');

function expectStatus(res: Response, status: number, what: string): Response {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

/** Polls `read` until `done` holds (at most `timeoutMs`). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not done after ${timeoutMs} ms (${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The local stack's outgoing mail (DECISIONS §1). */
async function mailTo(ctx: RowContext, address: string, subject: RegExp): Promise<string> {
  const local = new Client(ctx.baseUrl);
  const found = await until(
    async () => ((await local.get('/_local/mail')).body.emails as { to: string[]; subject: string; text: string }[]).filter((m) => m.to.includes(address) && subject.test(m.subject)),
    (mails) => mails.length > 0,
    `mail to ${address}`,
  );
  return found.at(-1)!.text;
}

/** A user registered with a verified address, signed in. */
async function verifiedUser(ctx: RowContext, email: string, name: string): Promise<Client & { userId: string }> {
  const client = new Client(ctx.baseUrl);
  const registered = expectStatus(await client.post('/api/auth/register', { email, password: PASSWORD, name }), 201, `register ${email}`);
  const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[a-z2-7]{32}/.exec(await mailTo(ctx, email, /Confirm your e-mail address/))![0];
  const opened = await fetch(link.replace(/^https?:\/\/[^/]+/, ctx.baseUrl), { redirect: 'manual' });
  if (opened.status >= 400) throw new Error(`verify ${email}: ${opened.status}`);
  return Object.assign(client, { userId: registered.body.user.id as string });
}

/** The cookies of an answer, as a browser keeps them (`name=value`). */
const cookiesOf = (res: globalThis.Response) => res.headers.getSetCookie().map((line) => line.split(';')[0]!);

/**
 * Sign-in with GitHub as a browser goes through it: the service's start route, the provider's consent, the callback.
 * `finish: false` stops after the start, leaving the sign-in's state item as an abandoned one does.
 */
async function gitHubSignIn(ctx: RowContext, account: string, finish: boolean): Promise<void> {
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, ctx.baseUrl);
  const started = await fetch(`${ctx.baseUrl}/api/oauth/github`, { redirect: 'manual' });
  if (started.status !== 302) throw new Error(`GitHub sign-in start: ${started.status} ${await started.text()}`);
  if (!finish) return;
  const consent = await fetch(started.headers.get('location')!, { redirect: 'manual', headers: { 'x-fake-account': account } });
  if (consent.status !== 302) throw new Error(`GitHub consent: ${consent.status} ${await consent.text()}`);
  const callback = await fetch(local(consent.headers.get('location')!), { redirect: 'manual', headers: { cookie: cookiesOf(started).join('; ') } });
  if (callback.status !== 302 || !cookiesOf(callback).some((cookie) => /^session=./.test(cookie))) throw new Error(`GitHub callback: ${callback.status} ${await callback.text()}`);
}

/** A receiver of webhook deliveries that takes them all. */
async function webhookReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

/**
 * Writes, over HTTP only, an account with rows of every kind a vendor's use leaves (accounts, products, plans,
 * releases, licenses in each state, activations, leases, customers, webhooks and deliveries, payments and
 * subscriptions from Stripe's events, coupons, a trial, feedback and usage, a team, an import), waits until the
 * service's own work on them is done (deliveries, e-mails, the import), and answers the probes and the API key
 * they are sent with.
 */
export async function writeRows(ctx: RowContext): Promise<{ apiKey: string; probes: Probe[] }> {
  const receiver = await webhookReceiver();
  try {
    return await rows(ctx, receiver.url);
  } finally {
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  }
}

async function rows(ctx: RowContext, hookUrl: string): Promise<{ apiKey: string; probes: Probe[] }> {
  const owner = await verifiedUser(ctx, 'owner@vendor.example', 'Olive Owner');
  const created = async (res: Promise<Response>, what: string) => expectStatus(await res, 201, what).body;
  const apiKey = (await created(owner.post('/api/api-keys', { name: 'Rehearsal' }), 'API key')).key as string;
  const vendor = Object.assign(new Client(ctx.baseUrl), { bearer: apiKey });
  const plugin = new Client(ctx.baseUrl);
  const edge = (path: string, body: unknown) => plugin.post(path, body, { origin: null });

  const webhook = await created(vendor.post('/api/webhooks', { name: 'Orders', url: hookUrl, events: ['license.created', 'license.activated', 'payment.completed'] }), 'webhook');

  // What the probes read is in the first product; what changes with time (a trial, a subscription's period, an expired
  // license the sweep would mark) in the second, which no probe lists.
  const product = await created(vendor.post('/api/products', { name: 'Rehearsal Plugin', productType: 'plugin', slug: 'rehearsal-plugin' }), 'product');
  const lifetime = await created(vendor.post(`/api/products/${product.id}/plans`, { name: 'Forever', slug: 'forever', billingCycle: 'lifetime', price: 199, currency: 'usd', siteLimit: 3 }), 'lifetime plan');
  const timed = await created(vendor.post('/api/products', { name: 'Rehearsal Timed', productType: 'plugin', slug: 'rehearsal-timed' }), 'timed product');
  const yearly = await created(vendor.post(`/api/products/${timed.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 2, trialDays: 14 }), 'yearly plan');

  for (const version of ['1.0.0', '1.1.0']) {
    const readme = `=== Rehearsal Plugin ===\nStable tag: ${version}\nRequires at least: 6.0\n\n== Description ==\nRehearses upgrades.\n\n== Changelog ==\n= ${version} =\n* Release ${version}.\n`;
    const zip = await pluginZip({ 'rehearsal-plugin/rehearsal-plugin.php': `<?php /* Plugin Name: Rehearsal Plugin, Version: ${version} */`, 'rehearsal-plugin/readme.txt': readme });
    const grant = expectStatus(await vendor.post(`/api/products/${product.id}/releases/upload-url`, { fileName: `rehearsal-${version}.zip`, fileSize: zip.length }), 200, 'upload URL').body;
    const put = await fetch(grant.uploadUrl, { method: 'PUT', body: zip });
    if (!put.ok) throw new Error(`release upload: ${put.status} ${await put.text()}`);
    await created(vendor.post(`/api/products/${product.id}/releases`, { version, filePath: grant.filePath, fileName: grant.fileName, fileSize: zip.length, releaseNotes: `Release ${version}.` }), `release ${version}`);
  }

  const license = (body: Record<string, unknown>, what: string) => created(vendor.post('/api/licenses', { productId: product.id, ...body }), what);
  const sites = await license({ customerEmail: 'buyer@example.com', seats: 2, planId: lifetime.id }, 'license with sites');
  const dated = await license({ customerEmail: 'buyer@example.com', seats: 1, expiresAt: FAR_FUTURE }, 'license with an expiry');
  const floating = await license({ customerEmail: 'team@example.com', seats: 2, floating: true }, 'floating license');
  const expired = await created(vendor.post('/api/licenses', { productId: timed.id, customerEmail: 'other@example.com', seats: 1, expiresAt: '2020-01-01T00:00:00.000Z' }), 'expired license');
  const revoked = await license({ customerEmail: 'other@example.com', seats: 1 }, 'license to revoke');
  expectStatus(await vendor.post(`/api/licenses/${revoked.id}/revoke`), 200, 'revoke');

  expectStatus(await edge('/v1/licenses/activate', { license_key: sites.licenseKey, domain: 'shop.example.com' }), 200, 'activate');
  expectStatus(await edge('/v1/licenses/activate', { license_key: sites.licenseKey, domain: 'old.example.com' }), 200, 'activate');
  expectStatus(await edge('/v1/licenses/deactivate', { license_key: sites.licenseKey, domain: 'old.example.com' }), 200, 'deactivate');
  expectStatus(await edge('/v1/licenses/activate', { license_key: dated.licenseKey, machine: 'desk-fingerprint-0001', name: 'Desk', platform: 'darwin-arm64' }), 200, 'machine activation');
  for (const machine of ['desk-1', 'desk-2']) expectStatus(await edge('/v1/licenses/leases', { license_key: floating.licenseKey, machine }), 201, `lease ${machine}`);
  // A validate naming its site records the check and, once a day, the install (usage events).
  expectStatus(await edge('/v1/licenses/validate', { license_key: sites.licenseKey, domain: 'shop.example.com' }), 200, 'validate with domain');

  const analytics = { public_key: product.public_key, license_key: sites.licenseKey, domain: 'shop.example.com' };
  expectStatus(await edge('/public/v1/feedback', { ...analytics, type: 'bug', message: 'It broke once.' }), 201, 'feedback');
  expectStatus(await edge('/public/v1/events', { ...analytics, event: 'settings_saved', properties: { tab: 'main' } }), 202, 'usage event');
  expectStatus(await edge('/public/v1/deactivation-reasons', { ...analytics, reason: 'too_expensive', details: 'Renewal' }), 201, 'deactivation reason');

  const customer = await created(vendor.post('/api/customers', { email: 'crm@example.com', firstName: 'Cara', lastName: 'Crm', metadata: { crm: 'c-1' } }, { headers: { 'idempotency-key': 'rehearsal-customer-1' } }), 'customer');

  // Stripe: the provider, a coupon, a trial, and two purchases as Stripe reports them.
  const secretKey = `sk_test_good${'0'.repeat(24)}`;
  const webhookSecret = `whsec_${Buffer.from('rehearsal-webhook-secret').toString('base64')}`;
  expectStatus(await vendor.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret }), 200, 'payment provider');
  await created(vendor.post('/api/coupons', { code: 'LAUNCH10', percentOff: 10, duration: 'once' }), 'coupon');
  expectStatus(await plugin.post('/public/v1/trials', { public_key: timed.public_key, plan: 'pro', email: 'trial@example.com' }, { origin: null }), 201, 'trial');
  const fake = fakeStripeClient(ctx.stripeUrl);
  const stripeWebhook = `/v1/webhooks/stripe/${owner.userId}`;
  const deliver = async (event: Stripe.Event) => {
    const payload = JSON.stringify(event);
    const signature = stripeSigner.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expectStatus(await plugin.request('POST', stripeWebhook, { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, origin: null }), 200, event.type);
  };
  for (const [plan, publicKey, email] of [[lifetime, product.public_key, 'buyer@example.com'], [yearly, timed.public_key, 'subscriber@example.com']] as const) {
    const started = await plugin.get(`/public/v1/checkout/${plan.id}?public_key=${publicKey}&promo=LAUNCH10`, { origin: null });
    expectStatus(started, 303, 'checkout');
    const sessionId = /\/(cs_test_\w+)$/.exec(started.headers.get('location')!)![1]!;
    const opened = (await fake.session(sessionId))!.session;
    const recurring = plan.billingCycle === 'yearly';
    const subscription = recurring ? stripeSubscription({ start: unixNow(), end: unixNow() + 365 * DAY, metadata: opened.metadata ?? {} }) : undefined;
    if (subscription) await fake.putSubscription(secretKey, subscription);
    const session = recurring
      ? paidSession(opened, { email, name: 'Sam Subscriber', amountTotal: 4410, invoice: stripeId('in'), subscription: subscription!.id })
      : paidSession(opened, { email, name: 'Bea Buyer', amountTotal: 17910, payment_intent: stripeId('pi') });
    await deliver(stripeEvent('checkout.session.completed', session));
  }

  // A team: an admin invited and joined, a viewer invited.
  expectStatus(await owner.post('/api/team/invitations', { email: 'admin@vendor.example', role: 'admin' }), 201, 'invitation');
  const admin = await verifiedUser(ctx, 'admin@vendor.example', 'Ada Admin');
  const token = /\/accept-invitation\?token=([a-z2-7]{32})/.exec(await mailTo(ctx, 'admin@vendor.example', /invited to join/))![1]!;
  expectStatus(await admin.post(`/api/team/invitations/${token}/accept`), 200, 'accept invitation');
  expectStatus(await owner.post('/api/team/invitations', { email: 'viewer@vendor.example', role: 'viewer' }), 201, 'invitation');

  // A registration never confirmed, a sign-in with GitHub and one abandoned at the provider.
  expectStatus(await new Client(ctx.baseUrl).post('/api/auth/register', { email: 'pending@vendor.example', password: PASSWORD, name: 'Pat Pending' }), 201, 'register');
  await mailTo(ctx, 'pending@vendor.example', /Confirm your e-mail address/);
  await gitHubSignIn(ctx, ctx.github.addAccount({ name: 'Gil Hub', emails: [{ email: 'octo@vendor.example', primary: true, verified: true }] }), true);
  await gitHubSignIn(ctx, '', false);

  // An account export, and an import with one row refused.
  const exported = expectStatus(await vendor.post('/api/exports', { format: 'jsonl' }), 202, 'export');
  await until(async () => (await vendor.get(`/api/exports/${exported.body.id}`)).body, (job) => job.status === 'done', 'export');
  const csv = 'license_key,customer_email,customer_name,status,seats,expires_at,domains,plan_slug,created_at\nREHEARSAL-IMPORT-0001,imported@example.com,Ida Imported,active,1,,,,\nshort,imported@example.com,,active,1,,,,\n';
  const started = expectStatus(await vendor.request('POST', `/api/imports?productId=${product.id}&format=csv`, { rawBody: csv, headers: { 'content-type': 'text/csv' } }), 202, 'import');
  await until(async () => (await vendor.get(`/api/imports/${started.body.id}`)).body, (job) => job.status === 'done' || job.status === 'failed', 'import');

  // The service's own work settles: deliveries attempted, e-mails sent.
  await until(async () => (await vendor.get(`/api/webhooks/${webhook.id}/deliveries`)).body.items as { status: string }[], (items) => items.length >= 3 && items.every((d) => d.status !== 'pending'), 'deliveries');
  const local = new Client(ctx.baseUrl);
  await until(async () => (await local.get('/_local/mail-queue')).body.messages, (messages) => messages === 0, 'mail queue');

  const p = product.id as string;
  const get = (name: string, path: string, auth: Probe['auth'] = 'key'): Probe => ({ name, method: 'GET', path, auth });
  const email = encodeURIComponent('buyer@example.com');
  return {
    apiKey,
    probes: [
      { name: 'validate', method: 'POST', path: '/v1/licenses/validate', body: { license_key: sites.licenseKey }, auth: 'none' },
      { name: 'validate (expiry)', method: 'POST', path: '/v1/licenses/validate', body: { license_key: dated.licenseKey }, auth: 'none' },
      { name: 'validate (expired)', method: 'POST', path: '/v1/licenses/validate', body: { license_key: expired.licenseKey }, auth: 'none' },
      { name: 'validate (revoked)', method: 'POST', path: '/v1/licenses/validate', body: { license_key: revoked.licenseKey }, auth: 'none' },
      get('update check', `/v1/wp/update-check?slug=${product.slug}&license_key=${sites.licenseKey}&version=1.0.0`, 'none'),
      get('versions', `/v1/wp/versions?slug=${product.slug}&license_key=${sites.licenseKey}`, 'none'),
      get('public plans', `/public/v1/plans?public_key=${product.public_key}`, 'none'),
      get('portal overview', `/v1/portal/overview?email=${email}`),
      get('portal licenses', `/v1/portal/licenses?email=${email}`),
      get('portal downloads', `/v1/portal/downloads?email=${email}`),
      get('portal invoices', `/v1/portal/invoices?email=${email}`),
      get('portal subscriptions', `/v1/portal/subscriptions?email=${encodeURIComponent('subscriber@example.com')}`),
      get('products', '/api/products'),
      get('product', `/api/products/${p}`),
      get('plans', `/api/products/${p}/plans`),
      get('releases', `/api/products/${p}/releases`),
      get('feedback', `/api/products/${p}/feedback`),
      get('deactivation reasons', `/api/products/${p}/deactivation-reasons`),
      get('licenses', `/api/licenses?product_id=${p}`),
      get('license', `/api/licenses/${sites.id}`),
      get('licenses of a product and status', `/api/licenses?product_id=${p}&status=active`),
      get('licenses by e-mail', `/api/licenses?search=${email}`),
      get('activations', '/api/activations'),
      get('customers', '/api/customers'),
      get('customer', `/api/customers/${customer.id}`),
      get('webhooks', '/api/webhooks'),
      get('deliveries', `/api/webhooks/${webhook.id}/deliveries`),
      get('coupons', '/api/coupons'),
      get('payment provider', '/api/payment-provider'),
      get('API keys', '/api/api-keys'),
      get('team members', '/api/team/members'),
      get('imports', '/api/imports'),
      get('audit log', '/api/audit-log'),
      get('audit log check', '/api/audit-log/verify'),
    ],
  };
}
