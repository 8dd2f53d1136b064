import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreConfig } from '../../../shared/platform/config.js';
import { createLinkSecret } from '../../../shared/portal/link-secret.js';
import { startFakeSsm } from '../../support/fake-ssm.js';

const PARAMETER = '/LicensingService-prod/download-link-key';
let ssm: Awaited<ReturnType<typeof startFakeSsm>>;

beforeAll(async () => {
  ssm = await startFakeSsm();
});
afterAll(() => ssm.close());

const configWith = (downloadLinks: CoreConfig['downloadLinks']) =>
  ({
    region: 'us-east-1',
    endpoints: { ssm: ssm.url },
    downloadLinks,
  }) as unknown as CoreConfig;

describe('the download-link key', () => {
  it('is made by the first container that needs it, as an SSM parameter, and read by every other; kept once read', async () => {
    const parameterName = `${PARAMETER}-${Date.now()}`;
    // Two containers signing their first link at once: one puts the key, the other is refused the put and reads it.
    const [first, second] = [createLinkSecret(configWith({ parameterName })), createLinkSecret(configWith({ parameterName }))];
    const [a, b] = await Promise.all([first(), second()]);
    expect(a).toEqual(b);
    expect(a).toEqual(Buffer.from(ssm.get(parameterName)!, 'utf8'));
    expect(ssm.get(parameterName)).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    expect(ssm.puts(parameterName)).toBe(2);
    // A later container reads it; a container reads it once.
    const later = createLinkSecret(configWith({ parameterName }));
    expect(await later()).toEqual(a);
    expect(await later()).toBe(await later());
    expect(ssm.puts(parameterName)).toBe(2);
  });

  it('keeps a key already there: a new deployment of the stage signs as the last did', async () => {
    const parameterName = `${PARAMETER}-kept`;
    ssm.put(parameterName, 'q7Rw2LxV9nTg4KpZ');
    expect(await createLinkSecret(configWith({ parameterName }))()).toEqual(Buffer.from('q7Rw2LxV9nTg4KpZ', 'utf8'));
    expect(ssm.puts(parameterName)).toBe(0);
  });

  it('is the local key, base64, with no SSM read', async () => {
    const local = Buffer.alloc(32, 9);
    expect(await createLinkSecret(configWith({ localKey: local.toString('base64'), parameterName: '/unread' }))()).toEqual(local);
    expect(ssm.get('/unread')).toBeUndefined();
  });

  it('cannot be read without either', async () => {
    await expect(createLinkSecret(configWith({}))()).rejects.toThrow(/DOWNLOAD_LINK_PARAMETER/);
  });
});
