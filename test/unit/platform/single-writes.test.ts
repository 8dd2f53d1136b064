import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { resumeSession } from '../../../shared/identity/accounts/sessions.js';
import { ServiceUnavailableError } from '../../../shared/platform/errors.js';
import { sha256Hex } from '../../../shared/platform/ids.js';
import { NOW } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * A single-item write that meets an item held by a transaction fails with TransactionConflictException,
 * which the SDK does not retry; throttling the SDK has already retried. Session refresh shows both.
 */
const token = 'a'.repeat(32);
let table: MockTable;
afterEach(() => table.ddb.restore());

function setUp() {
  table = mockTable();
  // Ten days left: the next use extends it.
  const expiresAt = new Date(NOW.getTime() + 10 * 86_400_000);
  table.seed('session', { tokenHash: sha256Hex(token), userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaa', createdAt: NOW.toISOString(), expiresAt: expiresAt.toISOString(), ttl: 1 });
  return { data: table.data, clock: { now: () => NOW } };
}

describe('session refresh', () => {
  it('retries a write that met a transaction and extends the session', async () => {
    const deps = setUp();
    table.failItemWrites(UpdateCommand, 'TransactionConflictException', 2);
    expect(await resumeSession(deps, token)).toMatchObject({ refreshed: true });
    expect(table.writes()).toEqual(['UpdateCommand', 'UpdateCommand', 'UpdateCommand']);
  });

  it('answers 503 when the table stays throttled', async () => {
    const deps = setUp();
    table.failItemWrites(UpdateCommand, 'ProvisionedThroughputExceededException');
    await expect(resumeSession(deps, token)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('answers 503 when every retry meets a transaction', async () => {
    const deps = setUp();
    table.failItemWrites(UpdateCommand, 'TransactionConflictException');
    await expect(resumeSession(deps, token)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('treats a session ended between the read and the extension as no session', async () => {
    const deps = setUp();
    table.failItemWrites(UpdateCommand, 'ConditionalCheckFailedException');
    expect(await resumeSession(deps, token)).toBeUndefined();
  });
});
