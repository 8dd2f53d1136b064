import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_LINK_TTL_SECONDS, isValidDownloadLink, signedDownloadUrl } from '../../../shared/portal/download-link.js';

const key = Buffer.alloc(32, 7);
const secret = async () => key;
const releaseId = 'rel_aaaaaaaaaaaaaaaaaaaaaaaa';
const now = new Date('2026-11-23T12:00:00Z');
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

async function link() {
  const url = new URL(await signedDownloadUrl(secret, 'https://licenses.example.com', releaseId, now));
  return { url, expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! };
}

describe('portal download links', () => {
  it('are {base}/dl/{releaseId} with an expiry 24 hours on and HMAC-SHA256 (hex) over releaseId.expires', async () => {
    const { url, expires, signature } = await link();
    expect(`${url.origin}${url.pathname}`).toBe(`https://licenses.example.com/dl/${releaseId}`);
    expect(Number(expires)).toBe(now.getTime() / 1000 + DOWNLOAD_LINK_TTL_SECONDS);
    expect(signature).toBe(createHmac('sha256', key).update(`${releaseId}.${expires}`).digest('hex'));
  });

  it('hold until they expire, and not a second longer', async () => {
    const { expires, signature } = await link();
    expect(await isValidDownloadLink(secret, { releaseId, expires, signature }, at(DOWNLOAD_LINK_TTL_SECONDS - 1))).toBe(true);
    expect(await isValidDownloadLink(secret, { releaseId, expires, signature }, at(DOWNLOAD_LINK_TTL_SECONDS))).toBe(false);
  });

  it('fail for another release, another expiry, another key, or a signature that is missing, short or not hex', async () => {
    const { expires, signature } = await link();
    const valid = (changes: { releaseId?: string; expires?: string; signature?: string }, withSecret = secret) =>
      isValidDownloadLink(withSecret, { releaseId, expires, signature, ...changes }, now);
    expect(await valid({})).toBe(true);
    expect(await valid({ releaseId: 'rel_bbbbbbbbbbbbbbbbbbbbbbbb' })).toBe(false);
    expect(await valid({ expires: String(Number(expires) + 1) })).toBe(false);
    expect(await valid({}, async () => Buffer.alloc(32, 8))).toBe(false);
    for (const bad of [undefined, '', signature.slice(0, 63), `${signature.slice(0, 63)}g`, signature.toUpperCase(), `${signature}00`]) {
      expect(await valid({ signature: bad }), String(bad)).toBe(false);
    }
    for (const bad of [undefined, '', '-1', '1e12', 'x'.repeat(20)]) expect(await valid({ expires: bad }), String(bad)).toBe(false);
  });
});
