import { describe, expect, it } from 'vitest';
import { presignedUrlProblem } from '../../../infra/local/presigned-url-check.js';
import { LOCAL_CREDENTIALS } from '../../../shared/platform/clients.js';
import { createDownloadLinks } from '../../../shared/platform/storage/download-links.js';

const store = new URL('http://127.0.0.1:4569');
const links = createDownloadLinks(
  { region: 'eu-west-1', bucketName: 'releases-bucket', endpoints: { s3: store.origin }, downloadLinks: { releaseFilesUrl: 'http://localhost:3000' } },
  async () => LOCAL_CREDENTIALS,
);

/** What the local front door checks for a link it is given, as S3 would. */
async function check(link: string, changes: { method?: string; path?: (path: string) => string; now?: Date } = {}) {
  const url = new URL(link);
  const path = `/releases-bucket${url.pathname}`;
  return presignedUrlProblem({ method: changes.method ?? 'GET', host: store, path: changes.path?.(path) ?? path, query: url.searchParams }, changes.now);
}

describe('the local check of presigned links (S3 checks them; its stand-in does not)', () => {
  it('passes a link as the functions sign it, on the front door, with a file name to save under', async () => {
    const link = await links.presign('releases/t/p/ab12/My Plugin.zip', 'My Plugin.zip', 300);
    expect(link).toMatch(/^http:\/\/localhost:3000\/releases\/t\/p\/ab12\/My%20Plugin\.zip\?/);
    expect(await check(link)).toBeUndefined();
  });

  it('refuses another path, another method, a changed query and an expired link', async () => {
    const link = await links.presign('releases/t/p/ab12/plugin.zip', 'plugin.zip', 300);
    expect(await check(link, { path: (path) => path.replace('plugin.zip', 'other.zip') })).toBe('SignatureDoesNotMatch');
    expect(await check(link, { method: 'HEAD' })).toBe('SignatureDoesNotMatch');
    expect(await check(link.replace('plugin.zip%22', 'evil.exe%22'))).toBe('SignatureDoesNotMatch');
    expect(await check(link, { now: new Date(Date.now() + 301_000) })).toBe('Request has expired');
    expect(await check(link.replace(/X-Amz-Signature=[^&]+/, ''))).toBe('AuthorizationQueryParametersError');
  });
});
