import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFanOutHandler, FORWARDS_AT_ONCE } from '../../../functions/outbox-fanout/app.js';
import type { MailMessage } from '../../../shared/messaging/mail/mail-queue.js';
import type { Deps } from '../../../shared/platform/runtime.js';
import { NOW } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * A stream batch's records are independent (other licenses' e-mails, other tenants' events): the fan-out hands them
 * on together, not one after another, so a burst on one shard moves at the queue's pace, not at a record per two
 * round trips; and a record that fails is reported without holding up the others.
 */
let table: MockTable;
afterEach(() => {
  table.ddb.restore();
  vi.restoreAllMocks();
});

/** A license e-mail's stream record, as the table's stream shows an insert. */
function licenseMailRecord(licenseId: string, sequenceNumber: string) {
  const image = { __edb_e__: 'licenseMail', __edb_v__: '1', licenseId, createdAt: NOW.toISOString() };
  return { eventID: sequenceNumber, eventName: 'INSERT' as const, dynamodb: { SequenceNumber: sequenceNumber, NewImage: marshall(image) as never } };
}

/** The fan-out over a mocked table, its mail queue sending each license e-mail's id through `send`. */
function fanOutWith(send: (licenseId: string) => Promise<void>) {
  table = mockTable();
  const deps = { data: table.data, clock: { now: () => NOW }, config: {} } as unknown as Deps;
  const deliveries = { enqueue: async () => undefined, retryAfter: async () => undefined, deadLetter: async () => undefined };
  const mail = { enqueue: (message: MailMessage) => send('licenseId' in message ? message.licenseId : message.mailId) };
  return createFanOutHandler(deps, { deliveries, mail });
}

describe('the outbox fan-out', () => {
  it('hands a batch’s records on together: every e-mail is queued before the first is done', async () => {
    const licenseIds = ['lic_1', 'lic_2', 'lic_3'];
    const started: string[] = [];
    let allStarted!: () => void;
    const everyOneStarted = new Promise<void>((resolve) => (allStarted = resolve));
    // Each send waits for the others to begin: one after another, the first would wait for ever (cut off below).
    const fanOut = fanOutWith(async (licenseId) => {
      started.push(licenseId);
      if (started.length === licenseIds.length) allStarted();
      await Promise.race([everyOneStarted, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${started.join(', ')} started`)), 2000))]);
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await fanOut({ Records: licenseIds.map((id, n) => licenseMailRecord(id, String(n + 1))) }, {} as Context);
    expect(result).toEqual({ batchItemFailures: [] });
    expect(started.sort()).toEqual(licenseIds);
  });

  it(`hands on at most ${FORWARDS_AT_ONCE} records at a time`, async () => {
    let sending = 0;
    let most = 0;
    const fanOut = fanOutWith(async () => {
      most = Math.max(most, ++sending);
      await new Promise((resolve) => setImmediate(resolve));
      sending--;
    });
    const records = Array.from({ length: 3 * FORWARDS_AT_ONCE }, (_, n) => licenseMailRecord(`lic_${n}`, String(n + 1)));
    expect(await fanOut({ Records: records }, {} as Context)).toEqual({ batchItemFailures: [] });
    expect(most).toBe(FORWARDS_AT_ONCE);
  });

  it('reports each record it could not forward, and forwards the rest', async () => {
    const queued: string[] = [];
    const fanOut = fanOutWith(async (licenseId) => {
      if (licenseId === 'lic_2' || licenseId === 'lic_4') throw new Error('queue refused');
      queued.push(licenseId);
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const records = ['lic_1', 'lic_2', 'lic_3', 'lic_4'].map((id, n) => licenseMailRecord(id, String(n + 1)));
    const result = await fanOut({ Records: records }, {} as Context);
    expect(result.batchItemFailures.map(({ itemIdentifier }) => itemIdentifier).sort()).toEqual(['2', '4']);
    expect(queued.sort()).toEqual(['lic_1', 'lic_3']);
    // Marked forwarded: the two queued; the failed two stay pending, for the stream's retry or the sweep.
    expect(table.writes()).toEqual(['DeleteCommand', 'DeleteCommand']);
  });
});
