import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.js';
import { freePort } from '../../../infra/local/ports.js';
import { Client, DASHBOARD_ORIGIN } from '../../support/client.js';
import { finishedImport, importFixture, startImport } from '../../support/imports.js';
import { verifyAddress, type SentEmail } from '../../support/mail.js';
import { settledSnapshot, snapshotChanges, snapshotTable, type TableSnapshot } from '../../support/table-snapshot.js';
import { startReceiver } from '../../support/webhook-receiver.js';

/**
 * What an import writes, compared item by item over the whole table of a stack of its own (nothing else writes
 * there): a dry run writes nothing but its own record (and its request's audit entry), the import then writes exactly what the dry run reported,
 * and importing the same file again changes nothing but its own record and its `import.completed` event. A file
 * with bad rows imports the good ones and lists the bad with their row numbers. No e-mail, and no webhook but
 * `import.completed`, for imported records.
 */

let stack: LocalStack;
let tenant: Client;
let productId: string;
const receiver = await startReceiver();

/** The import's own record, and (for a real import) its event: what an import writes besides the account's data. */
const IMPORT_RECORDS = ['importJob', 'importError', 'importWarning'];
/** The event's outbox items, its delivery, and the webhook's `lastTriggeredAt` it moves. */
const IMPORT_EVENT = ['outboxEvent', 'outboxPending', 'delivery', 'webhook'];
/** The audit log's entries of the import (test/integration/identity/audit-log.test.ts checks them) and its chain's head. */
const AUDIT = ['auditEntry', 'auditHead'];

/** A change line's item (the new one of a `~` line) as `<entity> <action>`. */
const recordOf = (line: string) => {
  const item = JSON.parse(line.startsWith('~ ') ? line.split(' → ')[1]! : line.slice(2));
  return [item.__edb_e__, item.action].filter(Boolean).join(' ');
};

/** Changes to the account's data: the event's delivery counter is the event's, like its delivery. */
const accountChanges = (before: TableSnapshot, after: TableSnapshot) =>
  snapshotChanges(before, after).filter((line) => !line.includes('"name":"delivery#webhook#'));

const snapshot = (ignored: string[]) => snapshotTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!, ignored);

/** The table once the webhook pipeline has settled. */
const settled = (ignored: string[]) => settledSnapshot(() => snapshot(ignored));

beforeAll(async () => {
  const port = await freePort();
  stack = await startLocalStack({
    port,
    dataDir: ':memory:',
    lightJvm: true,
    env: { DASHBOARD_URL: DASHBOARD_ORIGIN, PUBLIC_BASE_URL: `http://localhost:${port}`, WEBHOOK_RETRY_SCALE: '0.0001', EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '0' },
  });
  tenant = new Client(stack.url);
  expect((await tenant.post('/api/auth/register', { email: 'mover@example.com', password: 'correct horse battery' })).status).toBe(201);
  // Imports and webhooks need a verified address (DECISIONS §20).
  await verifyAddress('mover@example.com', stack.url);
  productId = (await tenant.post('/api/products', { name: 'Moved Plugin', productType: 'plugin' })).body.id;
  // Every event kind: only import.completed may arrive.
  const events = (await tenant.get('/api/webhooks')).body.events;
  expect((await tenant.post('/api/webhooks', { name: 'All', url: receiver.url, events })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver.close();
});

const BAD_ROWS_COUNTS = { licenses: 3, customers: 1, activations: 3, skipped: 1 };
const BAD_ROWS = [
  { row: 3, message: 'license key must be 8 to 128 printable characters without spaces' },
  { row: 4, message: 'customer e-mail "not-an-email" is not a valid e-mail address' },
  { row: 5, message: 'status: "cancelled" is not one of active, expired, revoked, suspended' },
  { row: 6, message: 'seats must be a whole number from 1 to 1000000' },
  { row: 7, message: 'expires_at: "31/12/2026" is not a date' },
  { row: 9, message: 'plan "gold" is not a plan of this product' },
];
/** Two sites in one seat: no key is lost (DECISIONS §27), the seats are raised and the row is told. */
const WARNINGS = [{ row: 8, message: '2 active sites are more than its 1 seat: seats raised to 2, so every one keeps working' }];

describe('an import, compared with the whole table', () => {
  it('reports in a dry run what it then does, writes the good rows, lists the bad, and changes nothing the second time', async () => {
    const file = importFixture('bad-rows.csv');
    const query = { productId, format: 'csv' };
    const before = await settled(IMPORT_RECORDS);

    const dryRun = await finishedImport(tenant, await startImport(tenant, { ...query, dryRun: true }, file));
    expect(dryRun).toMatchObject({ status: 'done', dryRun: true, counts: BAD_ROWS_COUNTS, errors: BAD_ROWS, errorCount: 6, warnings: WARNINGS, warningCount: 1, rows: 10, processedRows: 10 });
    // Its own record, and the audit entry of the request that made it (the chain's head moved to it); nothing else.
    expect(snapshotChanges(before, await settled(IMPORT_RECORDS)).map(recordOf).sort()).toEqual(['auditEntry import.create', 'auditHead']);
    const beforeImport = await settled([...IMPORT_RECORDS, ...IMPORT_EVENT, ...AUDIT]);

    const imported = await finishedImport(tenant, await startImport(tenant, query, file));
    expect(imported).toMatchObject({ status: 'done', dryRun: false, counts: BAD_ROWS_COUNTS, errors: BAD_ROWS, errorCount: 6, warnings: WARNINGS });
    const afterImport = await settled([...IMPORT_RECORDS, ...IMPORT_EVENT, ...AUDIT]);
    const changes = accountChanges(beforeImport, afterImport);
    // Existing items changed: counters only; new items: what the good rows are.
    for (const line of changes.filter((change) => change.startsWith('~ '))) expect(JSON.parse(line.split(' → ')[1]!).__edb_e__).toBe('counter');
    expect(changes.filter((line) => line.startsWith('- '))).toEqual([]);
    const written = changes.map((line) => JSON.parse(line.startsWith('~ ') ? line.split(' → ')[1]! : line.slice(2)).__edb_e__ as string);
    // Three licenses (with their refs), one customer (with its e-mail), three sites (their activations and domains), the counters.
    const times = (n: number, entity: string) => Array.from({ length: n }, () => entity);
    expect(written.filter((entity) => entity !== 'counter').sort()).toEqual(
      [...times(3, 'activation'), ...times(3, 'activeDomain'), 'customer', 'customerEmail', ...times(3, 'license'), ...times(3, 'licenseRef')].sort(),
    );
    const listed = await tenant.get(`/api/licenses?product_id=${productId}`);
    expect(listed.body.pagination.total).toBe(3);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(1);

    const again = await finishedImport(tenant, await startImport(tenant, query, file));
    expect(again).toMatchObject({ status: 'done', counts: { licenses: 0, customers: 0, activations: 0, skipped: 4 }, errorCount: 6, warningCount: 0 });
    expect(accountChanges(afterImport, await settled([...IMPORT_RECORDS, ...IMPORT_EVENT, ...AUDIT]))).toEqual([]);

    // One import.completed per (non-dry) import, and nothing else: no license, customer or activation events.
    const delivered = await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests.map((request) => request.json.type)).toEqual(['import.completed', 'import.completed']);
    expect(delivered[0]!.json.data).toMatchObject({ id: imported.id, status: 'done', counts: BAD_ROWS_COUNTS });
    // No e-mail but the vendor's own address verification, once the mail queue is empty.
    await expect.poll(async () => (await tenant.get('/_local/mail-queue')).body.messages, { timeout: 15_000, interval: 100 }).toBe(0);
    const mail = (await tenant.get('/_local/mail')).body.emails as SentEmail[];
    expect(mail.filter((email) => email.subject !== 'Confirm your e-mail address' || !email.to.includes('mover@example.com'))).toEqual([]);
  }, 90_000);
});
