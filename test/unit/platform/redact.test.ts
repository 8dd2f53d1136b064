import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId, newPublicKey, randomBase32 } from '../../../shared/platform/ids.js';
import { generateLicenseKey } from '../../../shared/licensing/licenses/license-key.js';
import { MASK, redact, redactLogField } from '../../../shared/platform/observability/redact.js';
import { generateSecret } from '../../../shared/messaging/webhooks/signing.js';

describe('redact', () => {
  it('keeps a license key’s prefix and last group only, in any text and any case, with or without a separator', () => {
    for (const prefix of ['WIDGET-', 'ACME_', 'PRO', '']) {
      const key = generateLicenseKey(prefix);
      const last = key.slice(-4);
      const message = `Error thrown by DynamoDB client: "key ${key} refused"`;
      expect(redact(message)).toBe(`Error thrown by DynamoDB client: "key ${prefix}${MASK}-${MASK}-${MASK}-${last} refused"`);
      expect(redact(key.toLowerCase())).not.toContain(key.toLowerCase().slice(prefix.length, -4));
    }
    expect(redact('bucket activation-key#WIDGET-ABCD-EFGH-JKLM-NPQR')).toBe(`bucket activation-key#WIDGET-${MASK}-${MASK}-${MASK}-NPQR`);
  });

  it('masks secret API keys, Stripe keys and webhook secrets, keeping what kind they are', () => {
    const apiKey = `sk_${randomBase32(20)}`;
    const secret = generateSecret();
    expect(redact(`Bearer ${apiKey}`)).toBe(`Bearer ${MASK}`);
    expect(redact(`key ${apiKey} unknown`)).toBe(`key sk_${MASK} unknown`);
    expect(redact('sk_live_51Habcdefghijklmnop and rk_test_51Habcdefghijkl')).toBe(`sk_live_${MASK} and rk_test_${MASK}`);
    expect(redact(`secret ${secret}.`)).toBe(`secret whsec_${MASK}.`);
  });

  it('masks session tokens, passwords and signature headers by their context', () => {
    const token = randomBase32(20);
    expect(redact(`session=${token}; Path=/`)).toBe(`session=${MASK}; Path=/`);
    expect(redact(`token ${token} expired`)).toBe(`token ${MASK} expired`);
    expect(redact('{"email":"a@example.com","password":"hunter2 is long"}')).toBe(`{"email":"a@example.com","password":"${MASK}"}`);
    expect(redact('Stripe-Signature: t=1492774577,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd')).toBe(
      `Stripe-Signature: ${MASK}`,
    );
    expect(redact('authorization: Basic dXNlcjpwYXNz')).toBe(`authorization: ${MASK}`);
  });

  it('leaves what is not secret as it was: request ids, item ids, public keys, plain words', () => {
    const text = [
      randomUUID(),
      '1-5759e988-bd862e3fe1be46a994272793',
      newId('lic'),
      newId('act'),
      newPublicKey(),
      'task_manager disk_usage',
      'POST /v1/licenses/validate',
      'ResourceNotFoundException: Requested resource not found',
    ].join(' ');
    expect(redact(text)).toBe(text);
  });
});

describe('redactLogField (the log record hook)', () => {
  it('masks secret-named fields whole, whatever their shape', () => {
    expect(redactLogField('authorization', 'Bearer x')).toBe(MASK);
    expect(redactLogField('cookie', 'a=b')).toBe(MASK);
    expect(redactLogField('stripe-signature', 't=1,v1=abc')).toBe(MASK);
    expect(redactLogField('newPassword', 'short')).toBe(MASK);
    expect(redactLogField('cookies', ['session=abc'])).toBe(MASK);
  });

  it('searches every other string and passes other values through', () => {
    expect(redactLogField('message', 'key WIDGET-ABCD-EFGH-JKLM-NPQR')).toBe(`key WIDGET-${MASK}-${MASK}-${MASK}-NPQR`);
    expect(redactLogField('httpStatusCode', 400)).toBe(400);
    const nested = { a: 1 };
    expect(redactLogField('', nested)).toBe(nested);
    expect(redactLogField('secret', undefined)).toBeUndefined();
  });
});
