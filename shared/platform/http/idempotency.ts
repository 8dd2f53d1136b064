import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, BadRequestError, UnprocessableEntityError } from '../errors.js';
import { claimKey, completeClaim, readKey, releaseClaim, type IdempotencyClaim, type StoredAnswer } from '../idempotency/records.js';
import { logger } from '../observability/logger.js';
import type { Deps } from '../runtime.js';
import { header, rawBody } from './request.js';
import { inputWith, type Route } from './route.js';
import type { HttpEvent, HttpResult } from './types.js';

/**
 * `Idempotency-Key` on the routes that create or change something: a retried request (same caller, same key, same
 * method, path, query and body) gets the first answer back (status, headers, body) instead of acting twice.
 *
 * Why not Powertools' idempotency utility (`@aws-lambda-powertools/idempotency`, whose logger and metrics this
 * service uses)? Its DynamoDB persistence layer would have to share our single table, and it cannot there:
 * - Keys: with a table that has a sort key (ours: `pk`/`sk`) it writes every record under one partition key, a
 *   static `idempotency#<function>` value (`staticPkValue`), with the hash in the sort key: every idempotent write
 *   of a function in one hot partition, outside ElectroDB's `$licensing#<attribute>_…` layout that the functions'
 *   `dynamodb:LeadingKeys` grants are written in (shared/platform/data/key-access.ts), so it would need a grant of its own and
 *   could not be told from an entity of ours. Here the record is an entity keyed by its own hash, one partition each.
 * - Concurrency: a duplicate that arrives while the first is running gets `IdempotencyAlreadyInProgressError` at once;
 *   ten concurrent retries of one activate would answer one 200 and nine errors. Here a duplicate waits (polling the
 *   record) for the first answer and replays it, and answers 409 only if the first is still running after 5 s.
 * - Its completion and release writes are unconditional (a request whose lease was taken over overwrites the new
 *   holder's record), and its writes bypass shared/platform/data/writes.ts (conflict retries, 503 mapping).
 * - Scope and body: its key is a JMESPath over the event; the caller (the tenant authenticated from a cookie or an
 *   `sk_` key) is not in the event, so keys would have to be made unique across callers by a synthetic payload
 *   anyway; and it would add its JMESPath engine and client to the edge bundle, whose size is a target.
 * A separate Powertools table would solve the keys but not the rest, and cost a table, its grants and its alarms.
 * What is kept from it: the claim by one conditional put with a lease for crashed invocations, the payload hash
 * (422 on mismatch), TTL expiry, an answer returned, never the action repeated, and only successes kept: a request
 * that fails (a thrown 4xx or 5xx, or an answer of 400 or more) lets its key go, so nothing of it stays in the
 * table (the service's rule for failures) and a retry runs again, to the same refusal while nothing has changed.
 *
 * Opt a route in with `idempotentRoute(deps, scopeOf, route)` (a whole route) or `runIdempotently` (inside a route
 * builder that knows the caller, as the management API's does). Signing or other decoration of the answer belongs
 * outside this wrapper, so that a replayed answer is decorated afresh for the request that gets it.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Answer header set on a replayed answer. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: `${IDEMPOTENCY_HEADER} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
  mismatch: `${IDEMPOTENCY_HEADER} was used with a different request`,
  inProgress: `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry later`,
} as const;

/** How long a duplicate waits for the first request's answer before answering 409 (functions run at most 10 s). */
export const IN_PROGRESS_WAIT_MS = 5_000;
/** Answers above this are not recorded (an item holds 400 KB): the claim is released and a retry acts again. */
const MAX_RECORDED_ANSWER_BYTES = 300 * 1024;

type IdempotencyDeps = Pick<Deps, 'data' | 'clock'>;

/** Who is calling, as a string that keeps one caller's keys apart from another's; undefined: no scope, no idempotency. */
export type IdempotencyScope = (event: HttpEvent) => string | undefined;

/**
 * How a route whose answer holds a secret has it kept: `redact` is the answer as recorded, without the secret (the
 * table holds no secret in clear); `restore` the answer a replay gets from the record, the secret read again.
 */
export type AnswerKeeping = {
  redact(answer: StoredAnswer): StoredAnswer;
  restore(answer: StoredAnswer): Promise<StoredAnswer>;
};

export type IdempotencyOptions = {
  /** How long a duplicate waits for the first request's answer (default IN_PROGRESS_WAIT_MS). */
  waitMs?: number;
  /** Default: the answer is recorded as it is. */
  keeping?: AnswerKeeping;
};

const KEY_SHAPE = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);

const sha256 = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('base64url');
};

/** The key a request sends, or undefined; a key of another shape is 400. */
export function idempotencyKeyOf(event: HttpEvent): string | undefined {
  const key = header(event, IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (!KEY_SHAPE.test(key)) throw new BadRequestError(IDEMPOTENCY_MESSAGES.invalidKey);
  return key;
}

/** What makes two requests the same: method, path, query and the body's bytes. */
function requestHashOf(event: HttpEvent): string {
  const http = event.requestContext.http;
  return sha256(`${http.method} ${event.rawPath}?${event.rawQueryString ?? ''}\n`, rawBody(event));
}

/** Only a success is recorded: after a failure nothing stays, and a retry runs again. */
const isSuccess = (statusCode: number) => statusCode < 400;

function storedAnswerOf(result: HttpResult): StoredAnswer {
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {})
      .filter(([name]) => name.toLowerCase() !== 'set-cookie')
      .map(([name, value]) => [name, String(value)]),
  );
  return { statusCode: result.statusCode, headers, ...(result.body !== undefined ? { body: result.body } : {}), ...(result.isBase64Encoded ? { isBase64Encoded: true } : {}) };
}

const replay = (answer: StoredAnswer): HttpResult => ({
  statusCode: answer.statusCode,
  headers: { ...answer.headers, [REPLAYED_HEADER.toLowerCase()]: 'true' },
  ...(answer.body !== undefined ? { body: answer.body } : {}),
  ...(answer.isBase64Encoded ? { isBase64Encoded: true } : {}),
});

/** Records a successful answer, or releases the claim; a failure here is logged, never the request's answer. */
async function settle(deps: IdempotencyDeps, claim: IdempotencyClaim, answer: StoredAnswer | undefined): Promise<void> {
  try {
    const recordable = answer && isSuccess(answer.statusCode) && Buffer.byteLength(JSON.stringify(answer)) <= MAX_RECORDED_ANSWER_BYTES;
    if (recordable) {
      if (!(await completeClaim(deps, claim, answer))) logger.warn('Idempotency claim was taken over before its answer was recorded');
    } else {
      await releaseClaim(deps, claim);
    }
  } catch (error) {
    // The request has acted and answers; a retry within the lease gets 409, after it acts again.
    logger.warn('Idempotency record could not be settled', { error });
  }
}

/** Runs the request as the claim's holder, records its answer if it succeeded (else lets the key go) and answers it. */
async function runClaimed(deps: IdempotencyDeps, claim: IdempotencyClaim, run: () => Promise<HttpResult>, keeping?: AnswerKeeping): Promise<HttpResult> {
  let result: HttpResult;
  try {
    result = await run();
  } catch (error) {
    await settle(deps, claim, undefined);
    throw error;
  }
  const answer = storedAnswerOf(result);
  await settle(deps, claim, keeping && isSuccess(answer.statusCode) ? keeping.redact(answer) : answer);
  return result;
}

/** Polls the key's record (strongly consistent reads, 25 ms doubling to 200 ms) until it settles or `deadline` passes. */
async function waitForAnswer(deps: IdempotencyDeps, keyHash: string, requestHash: string, deadline: number) {
  for (let pause = 25; ; pause = Math.min(pause * 2, 200)) {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(pause, left));
    const outcome = await readKey(deps, keyHash, requestHash);
    if (outcome.kind !== 'inProgress') return outcome;
  }
}

/**
 * Answers a request idempotently within `scope` when it sends an `Idempotency-Key`, else just runs it (no cost).
 * The first request with a key claims it and acts; a retry with the same request gets the recorded answer (with
 * `Idempotent-Replayed: true`); one with another request is 422; one that arrives while the first is still running
 * waits for its answer, and is 409 (with `Retry-After`) if none comes within 5 s. A request that fails lets the key
 * go: its retry (and a duplicate that waited) runs again.
 */
export async function runIdempotently(
  deps: IdempotencyDeps,
  event: HttpEvent,
  scope: string | undefined,
  run: () => Promise<HttpResult>,
  { waitMs = IN_PROGRESS_WAIT_MS, keeping }: IdempotencyOptions = {},
): Promise<HttpResult> {
  const key = idempotencyKeyOf(event);
  if (key === undefined || scope === undefined) return run();
  const keyHash = sha256(scope, '\n', key);
  const requestHash = requestHashOf(event);
  const deadline = Date.now() + waitMs;
  for (;;) {
    let outcome = await claimKey(deps, keyHash, requestHash);
    if (outcome.kind === 'inProgress') outcome = (await waitForAnswer(deps, keyHash, requestHash, deadline)) ?? outcome;
    switch (outcome.kind) {
      case 'claimed':
        return runClaimed(deps, outcome.claim, run, keeping);
      case 'completed':
        return replay(keeping ? await keeping.restore(outcome.answer) : outcome.answer);
      case 'mismatch':
        throw new UnprocessableEntityError(IDEMPOTENCY_MESSAGES.mismatch);
      case 'inProgress':
        throw new AppError(409, IDEMPOTENCY_MESSAGES.inProgress, undefined, { 'retry-after': '1' });
      case 'free':
        // Released (the first request did not come to a final answer), expired or abandoned: claim it ourselves.
        if (Date.now() > deadline) throw new AppError(409, IDEMPOTENCY_MESSAGES.inProgress, undefined, { 'retry-after': '1' });
        continue;
    }
  }
}

/** A route handler made idempotent per caller, as `scopeOf` tells callers apart. */
export function withIdempotency(deps: IdempotencyDeps, scopeOf: IdempotencyScope, handler: Route['handler']): Route['handler'] {
  return (event) => runIdempotently(deps, event, idempotencyKeyOf(event) === undefined ? undefined : scopeOf(event), () => handler(event));
}

/** The route, taking `Idempotency-Key` (its OpenAPI operation documents the header, 409 and 422). */
export function idempotentRoute(deps: IdempotencyDeps, scopeOf: IdempotencyScope, route: Route): Route {
  return { ...route, handler: withIdempotency(deps, scopeOf, route.handler), input: inputWith(route.input, { idempotent: true }) };
}
