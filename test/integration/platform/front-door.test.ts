import { describe, expect, inject, it } from 'vitest';
import { createEdgeHandler } from '../../../functions/edge/app.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { NOT_THROUGH_FRONT_DOOR } from '../../../shared/platform/http/front-door.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';
import { createDeps } from '../../../shared/platform/runtime.js';
import { startFakeSecretsManager } from '../../support/fake-secrets-manager.js';
import { licensedProduct, newRelease, plugin, zipBytes } from '../../support/licensing-fixtures.js';

/**
 * The local stack runs as a default deployment does: the gateway is the front door, adding its secret to every
 * request as CloudFront does, and every HTTP function refuses a request that came without it.
 */
const baseUrl = inject('baseUrl');

/**
 * An edge function of this test's own on the shared table, called as API Gateway would: with the front door's secret
 * as the local stack gives it (`ORIGIN_VERIFY_TOKEN`), or as the stack does in AWS (a Secrets Manager secret).
 */
function edgeFunction(secret: Record<string, string> = { ORIGIN_VERIFY_TOKEN: inject('originVerifyToken') }) {
  const config = loadConfig({ RUNTIME: 'local', TABLE_NAME: inject('tableName'), DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), ...secret }, FUNCTION_CONFIG_SECTIONS.edge);
  const handler = createEdgeHandler(createDeps(config, 'edge')) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
  return (headers: Record<string, string>) =>
    handler(
      {
        version: '2.0',
        routeKey: 'ANY /v1/{proxy+}',
        rawPath: '/v1/licenses/validate',
        rawQueryString: '',
        headers: { 'content-type': 'application/json', ...headers },
        requestContext: {
          accountId: 'test', apiId: 'test', domainName: 'abc.execute-api.eu-west-1.amazonaws.com', domainPrefix: 'abc',
          http: { method: 'POST', path: '/v1/licenses/validate', protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'test' },
          requestId: 'test', routeKey: 'ANY /v1/{proxy+}', stage: '$default', time: '', timeEpoch: 0,
        },
        body: JSON.stringify({ license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD' }),
        isBase64Encoded: false,
      },
      {},
    );
}

describe('the front door', () => {
  it('is the only way in: a request without its secret, or with a wrong one, is 403 before any route runs', async () => {
    const call = edgeFunction();
    for (const headers of [{}, { 'x-origin-verify': 'guessed' }] as Record<string, string>[]) {
      const res = await call(headers);
      expect([res.statusCode, JSON.parse(res.body!)]).toEqual([403, { error: NOT_THROUGH_FRONT_DOOR }]);
    }
    const through = await call({ 'x-origin-verify': inject('originVerifyToken') });
    expect([through.statusCode, JSON.parse(through.body!)]).toEqual([404, { valid: false, error: 'License key not found' }]);
  });

  it('takes the current and the previous value of its Secrets Manager secret, so rotating it refuses no request', async () => {
    const secrets = await startFakeSecretsManager();
    try {
      const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:LicensingService-prod/OriginVerify-AbCdEf';
      const inAws = { ORIGIN_VERIFY_SECRET_ARN: SECRET_ARN, SECRETS_MANAGER_ENDPOINT: secrets.url };
      const passes = async (call: ReturnType<typeof edgeFunction>, value?: string) => (await call(value === undefined ? {} : { 'x-origin-verify': value })).statusCode !== 403;
      secrets.put(SECRET_ARN, 'first-value');
      const warm = edgeFunction(inAws);
      expect([await passes(warm, 'first-value'), await passes(warm)]).toEqual([true, false]);

      // The rotation (docs/deploy.md): a new value is put while CloudFront still sends the first; then its edges move
      // to the new one over a few minutes. Every request passes, on a warm container and on one started meanwhile.
      secrets.put(SECRET_ARN, 'second-value');
      const started = edgeFunction(inAws);
      for (const call of [warm, started]) expect([await passes(call, 'first-value'), await passes(call, 'second-value')]).toEqual([true, true]);

      // Once CloudFront sends only the new value the previous is dropped: new containers refuse it at once.
      secrets.dropPrevious(SECRET_ARN);
      const later = edgeFunction(inAws);
      expect([await passes(later, 'first-value'), await passes(later, 'second-value')]).toEqual([false, true]);
    } finally {
      await secrets.close();
    }
  });

  it('replaces what a caller sends as its secret and its viewer address, as CloudFront does', async () => {
    const { tenant, license } = await licensedProduct();
    const forged = { 'x-origin-verify': 'guessed', 'cloudfront-viewer-address': '203.0.113.9:443' };
    const activated = await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'front-door.example' }, { headers: forged, origin: null });
    expect(activated.status).toBe(200);
    // The activation records the address the gateway saw (this machine), not the one the caller claimed.
    const { body } = await tenant.get(`/api/licenses/${license.id}`);
    expect(body.activations.map((activation: { ipAddress: string }) => activation.ipAddress)).toEqual(['127.0.0.1']);
  });

  it('serves release files from storage under /releases/, as signed: a changed signature or method is refused', async () => {
    const { tenant, product, license } = await licensedProduct();
    const bytes = zipBytes(2048, 0x33);
    const release = await newRelease(tenant, product.id, { version: '1.0.0' }, bytes, 'front-door-1.0.0.zip');

    const redirect = await plugin().get(`/v1/download/${release.id}?license_key=${encodeURIComponent(license.licenseKey)}`, { origin: null });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toMatch(new RegExp(`^${baseUrl}/releases/[^?]+/front-door-1\\.0\\.0\\.zip$`));
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="front-door-1.0.0.zip"');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);

    const tampered = new URL(location);
    const signature = tampered.searchParams.get('X-Amz-Signature')!;
    tampered.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);
    const unsigned = new URL(location.pathname, baseUrl);
    expect((await fetch(unsigned)).status).toBe(403);
    expect((await fetch(location, { method: 'PUT', body: 'x' })).status).toBe(403);
  });
});
