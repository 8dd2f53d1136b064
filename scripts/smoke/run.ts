import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { LicensingClient, type PublicSigningKey, type VerifiableResponse } from '../../clients/js/src/index.js';
import { Report, StepFailure } from './report.js';
import { send, Service } from './service.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export type SmokeOptions = {
  /** The service's base URL (`npm start`'s, or the stack's `ApiUrl`), without a trailing slash. */
  baseUrl: string;
  /** An existing or new account to run as (registered on the first run, signed in to later); else a new one each run. */
  account?: { email: string; password: string };
  print?: (line: string) => void;
};

/** How long a webhook delivery may take: the first attempt is sent within seconds of the change. */
const WEBHOOK_WAIT_MS = 30_000;

/** Whether a host is this machine, where the service can reach a receiver the smoke test starts. */
export const isLoopback = (host: string) => host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]';

/**
 * The smallest valid ZIP archive (an empty one: its end-of-central-directory record), with this run's id as the
 * archive comment so that the downloaded bytes can only be this run's upload.
 */
function emptyZip(comment: string): Uint8Array<ArrayBuffer> {
  const text = Buffer.from(comment);
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(text.length, 20);
  return Uint8Array.from(Buffer.concat([record, text]));
}

/**
 * From an empty account through the public routes, as a vendor and a plugin would, then deletes what it made.
 * Resolves to whether every step, cleanup included, passed.
 */
export async function runSmokeTest(options: SmokeOptions): Promise<boolean> {
  const report = new Report(options.print);
  const service = new Service(options.baseUrl);
  const runId = randomBytes(4).toString('hex');
  const cleanup: CleanupStep[] = [];
  const started = performance.now();
  report.line(`Smoke test of ${options.baseUrl} (run ${runId})`);
  try {
    await steps(report, service, runId, options, (name, run) => cleanup.push({ name, run }));
  } catch (error) {
    // A failed step has printed its cause; anything else is a fault of this script, still followed by the cleanup.
    if (!(error instanceof StepFailure)) await report.step('smoke test script', () => Promise.reject(error)).catch(() => undefined);
  }
  if (cleanup.length) report.line('Cleanup');
  for (const { name, run } of cleanup.reverse()) await report.step(name, run).catch(() => undefined);
  const total = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  report.line(report.failed.length ? `Smoke test FAILED (${report.failed.join(', ')}) in ${total}` : `Smoke test passed in ${total}`);
  return report.failed.length === 0;
}

/** Something the run made, and how to delete it. */
type CleanupStep = { name: string; run: () => Promise<unknown> };
type Undo = (name: string, run: () => Promise<unknown>) => void;

async function steps(report: Report, service: Service, runId: string, options: SmokeOptions, undo: Undo) {
  const asKey = { auth: 'key' } as const;

  await report.step('service answers /health', async () => {
    const health = await send(`${service.baseUrl}/health`);
    const text = await health.text();
    if (health.status !== 200 || !/"status"\s*:\s*"ok"/.test(text)) {
      throw new Error(
        `GET /health answered ${health.status} ${text.slice(0, 120)}: ${service.baseUrl} is not the licensing service's base URL ` +
          '(npm start prints it; in AWS it is the stack output ApiUrl, without a path)',
      );
    }
  });

  const account = options.account ?? { email: `smoke-${runId}@example.com`, password: randomBytes(18).toString('base64url') };
  await report.step('account', async () => {
    const registered = await service.call('POST', '/api/auth/register', { body: { ...account, name: 'Smoke test' }, expect: [201, 409] });
    const user = registered.status === 201 ? { ...registered.body.user, how: 'registered' } : { ...(await service.call('POST', '/api/auth/login', { body: account, expect: 200 })).body.user, how: 'signed in' };
    // Webhooks need a verified address (DECISIONS §20): on `npm start` its link is in the local mailbox.
    if (!user.emailVerified && (await verifyThroughLocalMail(service, account.email))) user.how += ', address verified';
    return user;
  }, (u) => `${u.how} ${u.email}`);
  undo('sign out', () => service.call('POST', '/api/auth/logout', { auth: 'session', expect: 204 }));

  const apiKey = await report.step('secret API key', async () =>
    (await service.call('POST', '/api/api-keys', { auth: 'session', body: { name: `Smoke test ${runId}` }, expect: 201 })).body,
  (k) => k.prefix);
  undo('delete the API key', () => service.call('DELETE', `/api/api-keys/${apiKey.id}`, { auth: 'session', expect: 204 }));
  service.apiKey = apiKey.key;

  const product = await report.step('product', async () => {
    const { body } = await service.call('POST', '/api/products', { ...asKey, body: { name: `Smoke test ${runId}`, productType: 'plugin' }, expect: 201 });
    undo('delete the product', () => service.call('DELETE', `/api/products/${body.id}`, { ...asKey, expect: 204 }));
    if (!body.signingKeys?.length) throw new Error('the new product has no signing key');
    return body;
  }, (p) => p.slug);
  // What a vendor copies from the product into the plugin, to pin.
  const publicKeys = (product.signingKeys as PublicSigningKey[]).map(({ keyId, publicKey }) => ({ keyId, publicKey }));

  // Subscribed before anything happens, so the webhook index has it well before the activation.
  const webhook = await subscribeWebhook(report, service, runId, undo);

  const bytes = emptyZip(`licensing smoke test ${runId}`);
  const release = await report.step('release upload (presigned URL)', async () => {
    const base = `/api/products/${product.id}/releases`;
    const grant = (await service.call('POST', `${base}/upload-url`, { ...asKey, body: { fileName: 'smoke-test.zip', fileSize: bytes.length }, expect: 200 })).body;
    const put = await send(grant.uploadUrl, { method: 'PUT', body: bytes });
    if (!put.ok) throw new Error(`PUT to the presigned upload URL answered ${put.status}: ${(await put.text()).slice(0, 300)}`);
    const body = { version: '1.0.0', filePath: grant.filePath, fileName: grant.fileName, fileSize: bytes.length, releaseNotes: 'Smoke test release.' };
    return (await service.call('POST', base, { ...asKey, body, expect: 201 })).body;
  }, (r) => `${r.version}, ${r.fileSize} bytes`);
  undo('delete the release', () => service.call('DELETE', `/api/products/${product.id}/releases/${release.id}`, { ...asKey, expect: 204 }));

  const buyer = `smoke-buyer-${runId}@example.com`;
  const license = await report.step('license', async () =>
    (await service.call('POST', '/api/licenses', { ...asKey, body: { productId: product.id, customerEmail: buyer, seats: 1 }, expect: 201 })).body,
  (l) => l.licenseKey);
  // Creating the license made its customer; deleting the license removes its activations.
  undo('delete the customer', () => service.call('DELETE', `/api/customers/${license.customerId}`, { ...asKey, expect: 204 }));
  undo('delete the license', () => service.call('DELETE', `/api/licenses/${license.id}`, { ...asKey, expect: 204 }));

  // The plugin: only the product's public key and slug, and its signing keys pinned as a vendor ships them.
  let signedBy: string | undefined;
  const plugin = new LicensingClient({
    baseUrl: service.baseUrl,
    publicKey: product.public_key,
    productSlug: product.slug,
    cache: false,
    retries: 0,
    signing: { publicKeys },
    verifier: { verify: (response: VerifiableResponse) => void (signedBy = /keyid="([^"]+)"/.exec(response.headers.get('signature-input') ?? '')?.[1]) },
  });
  const domain = `smoke-${runId}.example.com`;

  await report.step('activate', async () => plugin.activate(license.licenseKey, domain), (a) => `${domain}, ${a.activationId}`);

  await report.step('validate (signature verified)', async () => {
    signedBy = undefined;
    const result = await plugin.validate(license.licenseKey, { domain });
    if (!result.valid) throw new Error(`validate answered valid: false: ${result.error.message}`);
    if (!signedBy) throw new Error('the answer carried no signature');
    return signedBy;
  }, (keyId) => `signed by ${keyId}`);

  const update = await report.step('update check (signature verified)', async () => {
    const result = await plugin.checkForUpdate({ licenseKey: license.licenseKey, version: '0.9.0', domain });
    if (result.latestVersion !== release.version || !result.updateAvailable || !result.downloadUrl) {
      throw new Error(`expected ${release.version} with a download link, got ${JSON.stringify({ latestVersion: result.latestVersion, downloadUrl: result.downloadUrl })}`);
    }
    return result;
  }, (u) => `${u.latestVersion} available`);

  await report.step('download', async () => {
    const redirect = await send(update.downloadUrl!);
    const location = redirect.headers.get('location');
    if (redirect.status !== 302 || !location) throw new Error(`the download link answered ${redirect.status} (expected 302): ${(await redirect.text()).slice(0, 300)}`);
    const file = await send(location);
    const downloaded = new Uint8Array(await file.arrayBuffer());
    if (file.status !== 200 || Buffer.compare(downloaded, bytes) !== 0) {
      throw new Error(`the storage URL answered ${file.status} with ${downloaded.length} bytes, not the ${bytes.length} uploaded`);
    }
  });

  if (webhook) {
    await report.step('webhook delivered and verified', async () => {
      const delivery = await webhook.receiver.next((d) => d.body.includes(license.licenseKey), WEBHOOK_WAIT_MS);
      const event = new Webhook(webhook.secret).verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: { domain: string } };
      if (event.type !== 'license.activated' || event.data.domain !== domain) throw new Error(`unexpected event ${delivery.body.slice(0, 300)}`);
      return event;
    }, (e) => e.type);
  }

  await report.step('portal read', async () => {
    const { body } = await service.call('GET', `/v1/portal/licenses?email=${encodeURIComponent(buyer)}`, { ...asKey, expect: 200 });
    const listed = (body.data as { id: string; siteCount: number }[]).find((l) => l.id === license.id);
    if (listed?.siteCount !== 1) throw new Error(`the portal lists ${JSON.stringify(body.data).slice(0, 300)}, not the license with its one site`);
  });
}

/** A webhook to a receiver on this machine, when the service can reach it (it runs here too); else undefined. */
async function subscribeWebhook(report: Report, service: Service, runId: string, undo: Undo): Promise<{ receiver: WebhookReceiver; secret: string } | undefined> {
  const name = 'webhook subscription';
  const { hostname } = new URL(service.baseUrl);
  if (!isLoopback(hostname)) {
    report.skipped(name, `the service at ${hostname} cannot reach a receiver on this machine`);
    return undefined;
  }
  const subscribed = await report.step(name, async () => {
    const receiver = await startWebhookReceiver();
    undo('stop the webhook receiver', () => receiver.close());
    const body = { name: `Smoke test ${runId}`, url: receiver.url, events: ['license.activated'] };
    const answer = await service.call('POST', '/api/webhooks', { auth: 'key', body, expect: [201, 400, 403] });
    // Only the address guard's refusal (WEBHOOK_ADDRESS_GUARD=on, as in AWS) is a reason to go on without a webhook, or
    // an account whose address is not verified yet (DECISIONS §20).
    if (answer.status === 400 && !/private or loopback/.test(answer.text)) throw new Error(`POST /api/webhooks answered 400: ${answer.text}`);
    if (answer.status === 403 && answer.body?.error !== 'Verify your e-mail address first') throw new Error(`POST /api/webhooks answered 403: ${answer.text}`);
    if (answer.status !== 201) return { refused: answer.body.error as string };
    undo('delete the webhook', () => service.call('DELETE', `/api/webhooks/${answer.body.id}`, { auth: 'key', expect: 204 }));
    return { receiver, secret: answer.body.secret as string };
  });
  if ('refused' in subscribed) {
    report.skipped('webhook delivery', `the service refuses the webhook (${subscribed.refused})`);
    return undefined;
  }
  return subscribed;
}

const VERIFICATION_LINK = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[a-z2-7]{32}/;

/** How long the verification e-mail may take to reach the local mailbox (it goes through the mail queue). */
const LOCAL_MAIL_WAIT_MS = 15_000;

/**
 * Opens the newest verification link e-mailed to `email`, when the service is the local runtime (`GET /_local/mail`,
 * which a deployment does not have), waiting for the e-mail: true when the address is verified then.
 */
async function verifyThroughLocalMail(service: Service, email: string): Promise<boolean> {
  for (const deadline = Date.now() + LOCAL_MAIL_WAIT_MS; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const mailbox = await send(`${service.baseUrl}/_local/mail`);
    if (mailbox.status !== 200) return false;
    const { emails } = (await mailbox.json()) as { emails: { to: string[]; subject: string; text: string }[] };
    const sent = emails.filter((mail) => mail.to.includes(email.toLowerCase()) && mail.subject === 'Confirm your e-mail address').at(-1);
    const link = sent && VERIFICATION_LINK.exec(sent.text)?.[0];
    if (link) return (await send(link)).status < 400;
  }
  return false;
}
