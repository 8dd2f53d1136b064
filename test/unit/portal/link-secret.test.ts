import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreConfig } from '../../../shared/platform/config.js';
import { createLinkSecret } from '../../../shared/portal/link-secret.js';
import { startFakeSecretsManager } from '../../support/fake-secrets-manager.js';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:licensing/download-links-AbCdEf';
let secrets: Awaited<ReturnType<typeof startFakeSecretsManager>>;

beforeAll(async () => {
  secrets = await startFakeSecretsManager();
});
afterAll(() => secrets.close());

const configWith = (downloadLinks: CoreConfig['downloadLinks']) =>
  ({
    region: 'us-east-1',
    endpoints: { secretsManager: secrets.url },
    downloadLinks,
  }) as unknown as CoreConfig;

describe('the download-link key', () => {
  it('is the Secrets Manager secret in AWS: read on the first use and kept; a failed read is tried again', async () => {
    const key = createLinkSecret(configWith({ secretArn: SECRET_ARN }));
    await expect(key()).rejects.toThrow();
    secrets.put(SECRET_ARN, 'q7Rw2LxV9nTg4KpZ');
    const first = await key();
    expect(first).toEqual(Buffer.from('q7Rw2LxV9nTg4KpZ', 'utf8'));
    expect(await key()).toBe(first);
    expect(secrets.reads(SECRET_ARN)).toBe(2);
  });

  it('is the local key, base64, with no Secrets Manager read', async () => {
    const local = Buffer.alloc(32, 9);
    expect(await createLinkSecret(configWith({ localKey: local.toString('base64'), secretArn: 'unread' }))()).toEqual(local);
    expect(secrets.reads('unread')).toBe(0);
  });

  it('cannot be read without either', async () => {
    await expect(createLinkSecret(configWith({}))()).rejects.toThrow(/DOWNLOAD_LINK_SECRET_ARN/);
  });
});
