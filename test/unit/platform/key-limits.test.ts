import { RATE_LIMITS } from '../../../shared/platform/rate-limits/limits.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { edgeRoutes } from '../../../functions/edge/app.js';
import { createManagementDeps, managementRoutes } from '../../../functions/management/app.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { nameSearchOf } from '../../../shared/customers/customer-view.js';
import type { Route } from '../../../shared/platform/http/route.js';
import { newId } from '../../../shared/platform/ids.js';
import { normalizeDomain } from '../../../shared/licensing/operations/domain.js';

/**
 * DynamoDB refuses a partition key over 2048 bytes and a sort key over 1024 (UTF-8), in the table and in
 * every index, and a key condition value likewise. Each case takes the longest value the route's own schema
 * accepts, in characters of three UTF-8 bytes where the field allows them, and measures the key ElectroDB
 * builds from it; raising a schema's limit too far fails here rather than as a 500 in production.
 */
const PARTITION_KEY_BYTES = 2048;
const SORT_KEY_BYTES = 1024;
const WIDE = '中'; // three bytes in UTF-8, and lower-casing keeps it so
const ASCII = 'a';

const deps = createManagementDeps(loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, ALL_CONFIG_SECTIONS));
await deps.data.load();
const { entities } = deps.data;
const routes: Route[] = [...managementRoutes(deps), ...edgeRoutes(deps)];
const tenantId = newId('usr');

function schemaOf(method: string, path: string, part: 'body' | 'query'): z.core.$ZodType {
  const schema = routes.find((route) => route.method === method && route.path === path)?.input?.[part];
  if (!schema) throw new Error(`${method} ${path} has no ${part} schema`);
  return schema;
}

/** The longest `make(n)` the schema accepts as `field` of `base` (its limits are maxima, so acceptance only falls with n). */
function longestAccepted(schema: z.core.$ZodType, base: Record<string, unknown>, field: string, make: (n: number) => string): string {
  const accepts = (n: number) => z.safeParse(schema, { ...base, [field]: make(n) }).success;
  if (!accepts(1)) throw new Error(`${field}: even the shortest value is refused`);
  let [low, high] = [1, 1 << 17];
  if (accepts(high)) throw new Error(`${field}: no limit below ${high} characters`);
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (accepts(middle)) low = middle;
    else high = middle;
  }
  return make(low);
}

const bytes = (value: unknown) => Buffer.byteLength(String(value));
const repeat = (char: string) => (n: number) => char.repeat(n);
const emailOf = (n: number) => `${'a'.repeat(Math.max(1, n - 12))}@example.com`;
const keyShaped = (n: number) => `${WIDE.repeat(Math.max(0, n - 19))}AAAA-BBBB-CCCC-DDDD`;
const now = new Date().toISOString();

describe('input limits keep every DynamoDB key within its size limit', () => {
  it('customers: e-mail and "first last" in their index keys', () => {
    const create = schemaOf('POST', '/api/customers', 'body');
    const base = { email: 'a@example.com' };
    const firstName = longestAccepted(create, base, 'firstName', repeat(WIDE));
    const lastName = longestAccepted(create, base, 'lastName', repeat(WIDE));
    const email = longestAccepted(create, base, 'email', emailOf);
    const { Item: item } = entities.customer
      .create({ customerId: newId('cus'), tenantId, email, nameSearch: nameSearchOf(firstName, lastName), createdAt: now, updatedAt: now })
      .params();
    expect(bytes(item.gsi2sk)).toBeLessThanOrEqual(SORT_KEY_BYTES);
    expect(bytes(item.gsi3sk)).toBeLessThanOrEqual(SORT_KEY_BYTES);
    expect(bytes(entities.customerEmail.get({ tenantId, email }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
  });

  it("licenses: the customer's e-mail and name, and the customer a license creates", () => {
    const create = schemaOf('POST', '/api/licenses', 'body');
    const base = { productId: newId('prd'), customerEmail: 'a@example.com' };
    const customerEmail = longestAccepted(create, base, 'customerEmail', emailOf);
    const customerName = longestAccepted(create, base, 'customerName', repeat(WIDE));
    const { Item: item } = entities.license
      .create({
        licenseKey: keyShaped(35), licenseId: newId('lic'), tenantId, productId: newId('prd'), customerEmail,
        status: 'active', seats: 1, createdAt: now, updatedAt: now,
      })
      .params();
    expect(bytes(item.gsi5sk)).toBeLessThanOrEqual(SORT_KEY_BYTES);
    const customer = entities.customer
      .create({ customerId: newId('cus'), tenantId, email: customerEmail, nameSearch: nameSearchOf(customerName), createdAt: now, updatedAt: now })
      .params();
    expect(bytes(customer.Item.gsi3sk)).toBeLessThanOrEqual(SORT_KEY_BYTES);
  });

  it('searches: prefixes of e-mails and names, and a key-shaped license search', () => {
    const licenseSearch = longestAccepted(schemaOf('GET', '/api/licenses', 'query'), {}, 'search', repeat(WIDE));
    const byEmail = entities.license.query.byEmail({ tenantId }).begins({ customerEmail: licenseSearch.toLowerCase() }).params();
    expect(bytes(byEmail.ExpressionAttributeValues[':sk1'])).toBeLessThanOrEqual(SORT_KEY_BYTES);
    const keySearch = longestAccepted(schemaOf('GET', '/api/licenses', 'query'), {}, 'search', keyShaped);
    expect(bytes(entities.license.get({ licenseKey: keySearch }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);

    const customerSearch = longestAccepted(schemaOf('GET', '/api/customers', 'query'), {}, 'search', repeat(WIDE)).toLowerCase();
    for (const params of [
      entities.customer.query.byEmail({ tenantId }).begins({ email: customerSearch }).params(),
      entities.customer.query.byName({ tenantId }).begins({ nameSearch: customerSearch }).params(),
    ]) {
      expect(bytes(params.ExpressionAttributeValues[':sk1'])).toBeLessThanOrEqual(SORT_KEY_BYTES);
    }
  });

  it('accounts and slugs: login e-mail, product slug', () => {
    const loginEmail = longestAccepted(schemaOf('POST', '/api/auth/login', 'body'), { password: 'x' }, 'email', repeat(WIDE)).toLowerCase();
    const loginBucket = `${RATE_LIMITS.loginEmail.name}#${loginEmail}`;
    expect(bytes(entities.rateLimit.get({ bucket: loginBucket }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
    expect(bytes(entities.userEmail.get({ email: loginEmail }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
    const slug = longestAccepted(schemaOf('POST', '/api/products', 'body'), { name: 'x', productType: 'plugin' }, 'slug', repeat(ASCII));
    expect(bytes(entities.productSlug.get({ slug }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
  });

  it('edge: license keys, the update-check slug and activated domains', () => {
    const licenseKey = longestAccepted(schemaOf('POST', '/v1/licenses/validate', 'body'), {}, 'license_key', keyShaped);
    expect(bytes(entities.license.get({ licenseKey }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
    const keyBucket = `${RATE_LIMITS.activationKey.name}#${licenseKey}`;
    expect(bytes(entities.rateLimit.get({ bucket: keyBucket }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
    const slug = longestAccepted(schemaOf('GET', '/v1/wp/update-check', 'query'), { license_key: 'k', version: '1' }, 'slug', repeat(WIDE));
    expect(bytes(entities.productSlug.get({ slug }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
    const longestHost = normalizeDomain(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`);
    expect(longestHost).toHaveLength(253);
    expect(bytes(entities.activeDomain.get({ licenseId: newId('lic'), domain: longestHost }).params().Key.pk)).toBeLessThanOrEqual(PARTITION_KEY_BYTES);
  });
});
