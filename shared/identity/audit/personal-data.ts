import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type DataService, PERSONAL_FIELDS, type TransactionEntities, untilProcessed, writeItem } from '../../platform/data/index.js';
import type { Changes } from './item-changes.js';

/**
 * A customer's personal data in the audit log, and how erasing the customer takes it out without rewriting an entry
 * (which would break the chain): each personal value an entry records is sealed with a key of that customer's own
 * (AES-256-GCM), and erasure deletes the key. The entry, its ciphertext and its hash stay as they were; what the value
 * was can no longer be read by anyone. The API opens the values whose key exists and shows the others as `[erased]`.
 */

/** What a personal value without a known customer (an activation's address, a record older than its customer link) shows. */
const UNSEALED = '***';
/** What a value whose customer was erased shows. */
const ERASED = '[erased]';

type Stored = Record<string, unknown> | undefined;
type Sealed = { sealed: string; customerId: string };

/** The customer an item's personal data is: its `customerId` (customers, licenses, payments); activations name none. */
const customerOf = (item: Stored) => (typeof item?.customerId === 'string' ? item.customerId : undefined);

const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' && value !== null && typeof (value as Sealed).sealed === 'string' && typeof (value as Sealed).customerId === 'string';

/** Binds a ciphertext to its tenant and customer: moved to another entry's customer it does not open. */
const aad = (tenantId: string, customerId: string) => Buffer.from(`${tenantId}/${customerId}`);

function seal(key: Buffer, tenantId: string, customerId: string, value: unknown): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(tenantId, customerId));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { sealed: Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64'), customerId };
}

function open(key: Buffer, tenantId: string, value: Sealed): unknown {
  const bytes = Buffer.from(value.sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12)).setAAD(aad(tenantId, value.customerId));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8'));
}

/**
 * The customer's key, made on first use. Written on its own, before the change's transaction: a key whose change then
 * fails seals nothing and costs one small item; two first uses at once keep the one written first.
 */
async function customerKey(data: DataService, tenantId: string, customerId: string): Promise<Buffer> {
  const { personalDataKey } = data.entities;
  const stored = async () => (await personalDataKey.get({ tenantId, customerId }).go({ consistent: true })).data?.key;
  let key = await stored();
  if (!key) {
    const fresh = randomBytes(32).toString('base64');
    const made = await writeItem(() => personalDataKey.create({ tenantId, customerId, key: fresh }).go());
    key = made.written ? fresh : await stored();
  }
  return Buffer.from(key!, 'base64');
}

/**
 * `changes` with every personal value sealed under the key of the customer it belongs to: a before value under the
 * customer of the item before, an after value under the customer after (a license transfer records two customers).
 */
export async function sealPersonalData(
  data: DataService,
  tenantId: string,
  entity: string | undefined,
  items: { before: Stored; after: Stored },
  changes: Changes,
): Promise<Changes> {
  const personal = PERSONAL_FIELDS[entity ?? ''];
  if (!personal || !Object.keys(changes).some((field) => personal.has(field))) return changes;
  const keys = new Map<string, Promise<Buffer>>();
  const keyOf = (customerId: string) => keys.get(customerId) ?? keys.set(customerId, customerKey(data, tenantId, customerId)).get(customerId)!;
  const sealedValue = async (value: unknown, item: Stored) => {
    if (value === null) return null;
    const customerId = customerOf(item);
    return customerId ? seal(await keyOf(customerId), tenantId, customerId, value) : UNSEALED;
  };
  const sealed: Changes = {};
  for (const [field, [before, after]] of Object.entries(changes)) {
    sealed[field] = personal.has(field) ? [await sealedValue(before, items.before), await sealedValue(after, items.after)] : [before, after];
  }
  return sealed;
}

/** Entries' `changes` as the API shows them: sealed values opened with their customer's key, or `[erased]`. */
export async function openPersonalData<E extends { changes: Changes }>(data: DataService, tenantId: string, entries: E[]): Promise<E[]> {
  const customerIds = new Set(entries.flatMap((entry) => Object.values(entry.changes).flat().filter(isSealed).map((value) => value.customerId)));
  if (customerIds.size === 0) return entries;
  const keys = new Map<string, Buffer>();
  const { personalDataKey } = data.entities;
  await untilProcessed([...customerIds].map((customerId) => ({ tenantId, customerId })), async (wanted) => {
    const { data: found, unprocessed } = await personalDataKey.get(wanted).go();
    for (const item of found) keys.set(item.customerId, Buffer.from(item.key, 'base64'));
    return { unprocessed: unprocessed as typeof wanted };
  });
  const shown = (value: unknown) => {
    if (!isSealed(value)) return value;
    const key = keys.get(value.customerId);
    if (!key) return ERASED;
    try {
      return open(key, tenantId, value);
    } catch {
      return UNSEALED; // altered in the table: `verify` names the entry
    }
  };
  return entries.map((entry) => ({
    ...entry,
    changes: Object.fromEntries(Object.entries(entry.changes).map(([field, [before, after]]) => [field, [shown(before), shown(after)]])),
  }));
}

/** The transaction item that erases what the customer's sealed values were: their key goes. */
export const forgetPersonalData = (tx: Pick<TransactionEntities, 'personalDataKey'>, tenantId: string, customerId: string) =>
  tx.personalDataKey.delete({ tenantId, customerId }).commit();
