import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, BadRequestError, ServiceUnavailableError } from '../../../shared/platform/errors.js';
import { runIdempotently } from '../../../shared/platform/http/idempotency.js';
import { json, ok } from '../../../shared/platform/http/responses.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';
import { NOW } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * The idempotency wrapper against a table that answers as DynamoDB would: refused claims, throttling and
 * conflicts, and records that change while a duplicate waits, which DynamoDB Local cannot be made to do on cue.
 */
const SCOPE = 'license#WIDGET-ABCD-EFGH-JKLM-NPQR';
const KEY = 'retry-1';
const keyHash = createHash('sha256').update(SCOPE).update('\n').update(KEY).digest('base64url');

function eventWith(body: string, key = KEY): HttpEvent {
  return {
    rawPath: '/v1/licenses/activate',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body,
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST' } },
  } as unknown as HttpEvent;
}
const BODY = '{"license_key":"WIDGET-ABCD-EFGH-JKLM-NPQR","domain":"shop.example.com"}';
const requestHash = createHash('sha256').update('POST /v1/licenses/activate?\n').update(BODY).digest('base64url');
const activated = ok({ success: true, activation_id: 'act_aaaaaaaaaaaaaaaaaaaaaaaa' });

let table: MockTable;
afterEach(() => {
  table.ddb.restore();
  vi.useRealTimers();
});

function setUp() {
  table = mockTable();
  return { data: table.data, clock: { now: () => NOW } };
}

const record = (fields: Record<string, unknown>) => ({
  idempotencyKeyHash: keyHash,
  requestHash,
  state: 'inProgress',
  claimToken: 'other-request',
  leaseUntil: NOW.getTime() + 60_000,
  createdAt: NOW.toISOString(),
  ttl: Math.floor(NOW.getTime() / 1000) + 86_400,
  ...fields,
});
const completed = (answer: HttpResult) => record({ state: 'completed', response: JSON.stringify({ statusCode: answer.statusCode, headers: answer.headers, body: answer.body }) });

const refuseClaim = () => table.failItemWrites(PutCommand, 'ConditionalCheckFailedException', 1);
const updates = () => table.ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const deletes = () => table.ddb.commandCalls(DeleteCommand).map((call) => call.args[0].input);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('idempotent requests', () => {
  it('claims the key, acts once and records the answer on the condition that the claim is still its own', async () => {
    const deps = setUp();
    const run = vi.fn(async () => activated);
    expect(await runIdempotently(deps, eventWith(BODY), SCOPE, run)).toEqual(activated);
    expect(run).toHaveBeenCalledTimes(1);
    const [put] = table.ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(put!.Item).toMatchObject({ idempotencyKeyHash: keyHash, requestHash, state: 'inProgress', ttl: Math.floor(NOW.getTime() / 1000) + 86_400 });
    expect(put!.ConditionExpression).toBe('attribute_not_exists(#state) OR #ttl < :ttl0 OR (#state = :state0 AND #leaseUntil < :leaseUntil0)');
    const [update] = updates();
    expect(update!.ConditionExpression).toContain('#claimToken = :claimToken0');
    expect(update!.ExpressionAttributeValues).toMatchObject({ ':claimToken0': put!.Item!.claimToken, ':state_u0': 'completed' });
    expect(JSON.parse(update!.ExpressionAttributeValues![':response_u0'] as string)).toEqual({ statusCode: 200, headers: activated.headers, body: activated.body });
  });

  it('runs without a key, and writes nothing', async () => {
    const deps = setUp();
    const event = eventWith(BODY);
    delete event.headers['idempotency-key'];
    expect(await runIdempotently(deps, event, SCOPE, async () => activated)).toEqual(activated);
    expect(table.writes()).toEqual([]);
  });

  it('replays a recorded answer without acting, marked as replayed', async () => {
    const deps = setUp();
    refuseClaim();
    table.seed('idempotencyRecord', completed(activated));
    const run = vi.fn(async () => activated);
    const replay = await runIdempotently(deps, eventWith(BODY), SCOPE, run);
    expect(run).not.toHaveBeenCalled();
    expect(replay).toEqual({ ...activated, headers: { ...activated.headers, 'idempotent-replayed': 'true' } });
  });

  it('answers 422 for the same key with another body, without acting', async () => {
    const deps = setUp();
    refuseClaim();
    table.seed('idempotencyRecord', completed(activated));
    const run = vi.fn(async () => activated);
    const error = await failure(runIdempotently(deps, eventWith(BODY.replace('shop.', 'blog.')), SCOPE, run));
    expect([error.statusCode, error.message]).toEqual([422, 'Idempotency-Key was used with a different request']);
    expect(run).not.toHaveBeenCalled();
  });

  it('lets a duplicate wait for the first answer, polling the record, and replay it', async () => {
    const deps = setUp();
    refuseClaim();
    table.seed('idempotencyRecord', record({}));
    setTimeout(() => table.seed('idempotencyRecord', completed(activated)), 120);
    const run = vi.fn(async () => activated);
    const replay = await runIdempotently(deps, eventWith(BODY), SCOPE, run);
    expect([replay.statusCode, replay.body, replay.headers?.['idempotent-replayed']]).toEqual([200, activated.body, 'true']);
    expect(run).not.toHaveBeenCalled();
    // Reads while waiting, never a second claim.
    expect(table.ddb.commandCalls(GetCommand).length).toBeGreaterThan(1);
    expect(table.ddb.commandCalls(PutCommand)).toHaveLength(1);
  });

  it('answers 409 with Retry-After when the first request is still running after the wait', async () => {
    const deps = setUp();
    refuseClaim();
    table.seed('idempotencyRecord', record({}));
    const run = vi.fn(async () => activated);
    const error = await failure(runIdempotently(deps, eventWith(BODY), SCOPE, run, { waitMs: 300 }));
    expect([error.statusCode, error.message, error.headers]).toEqual([409, 'A request with this Idempotency-Key is still in progress; retry later', { 'retry-after': '1' }]);
    expect(run).not.toHaveBeenCalled();
  });

  it('takes over a claim whose lease ran out (a crashed invocation)', async () => {
    const deps = setUp();
    refuseClaim();
    table.seed('idempotencyRecord', record({ leaseUntil: NOW.getTime() - 1 }));
    const run = vi.fn(async () => activated);
    expect(await runIdempotently(deps, eventWith(BODY), SCOPE, run)).toEqual(activated);
    expect(run).toHaveBeenCalledTimes(1);
    expect(table.ddb.commandCalls(PutCommand)).toHaveLength(2);
  });

  it('lets the key go after a refusal, and still throws it for the error handler: nothing of a failed request stays', async () => {
    const deps = setUp();
    const refusal = new BadRequestError('License seat limit reached');
    await expect(runIdempotently(deps, eventWith(BODY), SCOPE, async () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(updates()).toEqual([]);
    expect(deletes()).toHaveLength(1);
  });

  it.each([
    ['a refusal answered (400)', async () => json(400, { valid: false, error: 'License has expired' })],
    ['a 503', () => Promise.reject(new ServiceUnavailableError())],
    ['a bug', () => Promise.reject(new Error('boom'))],
    ['a 409', async () => json(409, { error: 'License was changed concurrently; retry' })],
    ['a 429', async () => json(429, { error: 'Too many requests' }, { headers: { 'retry-after': '6' } })],
  ])('releases the claim after %s, so that a retry acts', async (_name, run) => {
    const deps = setUp();
    await runIdempotently(deps, eventWith(BODY), SCOPE, run).catch(() => undefined);
    expect(updates()).toEqual([]);
    const [release] = deletes();
    expect(release!.ConditionExpression).toContain('#claimToken = :claimToken0');
  });

  it('does not record an answer too large for an item (counted in bytes): the key is let go', async () => {
    const deps = setUp();
    const large = ok({ text: '\u00e9'.repeat(160 * 1024) });
    expect(await runIdempotently(deps, eventWith(BODY), SCOPE, async () => large)).toBe(large);
    expect(updates()).toEqual([]);
    expect(deletes()).toHaveLength(1);
  });

  it('answers 503 and acts on nothing when the claim cannot be written (throttled)', async () => {
    const deps = setUp();
    table.failItemWrites(PutCommand, 'ProvisionedThroughputExceededException');
    const run = vi.fn(async () => activated);
    expect(await failure(runIdempotently(deps, eventWith(BODY), SCOPE, run))).toBeInstanceOf(ServiceUnavailableError);
    expect(run).not.toHaveBeenCalled();
  });

  it('retries a claim that met a transaction (TransactionConflict), then acts', async () => {
    const deps = setUp();
    table.failItemWrites(PutCommand, 'TransactionConflictException', 2);
    expect(await runIdempotently(deps, eventWith(BODY), SCOPE, async () => activated)).toEqual(activated);
    expect(table.ddb.commandCalls(PutCommand)).toHaveLength(3);
  });

  it('answers what the request did when its answer cannot be recorded', async () => {
    const deps = setUp();
    table.failItemWrites(UpdateCommand, 'ProvisionedThroughputExceededException');
    expect(await runIdempotently(deps, eventWith(BODY), SCOPE, async () => activated)).toEqual(activated);
  });

  it('never keeps cookies', async () => {
    const deps = setUp();
    await runIdempotently(deps, eventWith(BODY), SCOPE, async () => ({ ...ok({ done: true }, { cookies: ['session=secret'] }), headers: { 'set-cookie': 'a=b', 'content-type': 'application/json' } }));
    const stored = updates()[0]!.ExpressionAttributeValues![':response_u0'] as string;
    expect(stored).not.toContain('secret');
    expect(JSON.parse(stored).headers).toEqual({ 'content-type': 'application/json' });
  });

  it('refuses a key of another shape', async () => {
    const deps = setUp();
    for (const key of ['', 'x'.repeat(256), 'tab\there']) {
      const error = await failure(runIdempotently(deps, eventWith(BODY, key), SCOPE, async () => activated));
      expect([error.statusCode, error.message]).toEqual([400, 'Idempotency-Key must be 1 to 255 printable ASCII characters']);
    }
    expect(table.writes()).toEqual([]);
  });
});
