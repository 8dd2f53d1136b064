import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSecret, isValidSecret, signatureHeaders } from '../../../shared/messaging/webhooks/signing.js';

describe('webhook signing', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('signs so that the Standard Webhooks library verifies, and only with the same secret and body', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ id: 'evt_1', type: 'license.created', createdAt: '2025-01-01T00:00:00.000Z', data: { a: 1 } });
    const headers = signatureHeaders(secret, 'evt_1', body, new Date());
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('"a":1', '"a":2'), headers)).toThrow();
  });

  it('puts the send time in webhook-timestamp (unix seconds), which is part of the signature', () => {
    const secret = generateSecret();
    const old = signatureHeaders(secret, 'evt_1', '{}', new Date(Date.now() - 3600_000));
    expect(Number(old['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000 - 3600, -1);
    expect(() => new Webhook(secret).verify('{}', old)).toThrow(/timestamp/i);
  });

  it('accepts supplied secrets of 24 to 64 bytes with the whsec_ prefix only', () => {
    const of = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
    expect(isValidSecret(of(24))).toBe(true);
    expect(isValidSecret(of(64))).toBe(true);
    expect(isValidSecret(of(23))).toBe(false);
    expect(isValidSecret(of(65))).toBe(false);
    expect(isValidSecret(of(32).slice(6))).toBe(false);
    expect(isValidSecret('whsec_not base64!!')).toBe(false);
  });
});
