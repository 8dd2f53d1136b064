import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { errorChain, ServiceUnavailableError } from './errors.js';

/**
 * What an invocation keeps of its Lambda time for itself once its calls are cut off: to answer (or report a batch's
 * failures), and for a Stripe retry's pause (at most half a second), which no deadline interrupts.
 */
export const ANSWER_RESERVE_MS = 1000;

/** When an invocation's calls must be done, in epoch milliseconds: its Lambda time left, less the reserve. */
export function deadlineOf(remainingMs: number, now: number, reserveMs = ANSWER_RESERVE_MS): number {
  return now + Math.max(0, remainingMs - reserveMs);
}

/**
 * How long one attempt of a call may take: its own limit, or what is left before the deadline when that is less.
 * 0: no time is left, and the attempt is not made.
 */
export function attemptTimeoutMs(limitMs: number, deadline: number | undefined, now: number): number {
  return deadline === undefined ? limitMs : Math.max(0, Math.min(limitMs, deadline - now));
}

/** Timers and `Date.now()` may disagree by a millisecond or two: an attempt that failed this close to the deadline ran into it. */
const CLOCK_SLACK_MS = 20;

/** The invocation ran out of time for its calls: 503, the caller may retry (answered with CORS headers). */
export class DeadlineExceededError extends ServiceUnavailableError {}

const deadlines = new AsyncLocalStorage<number>();

/** The deadline of the invocation this code runs in, if it runs in one. */
export const currentDeadline = (): number | undefined => deadlines.getStore();

/**
 * The handler with one deadline per invocation, from the Lambda context's remaining time, shared by every AWS and
 * Stripe call the invocation makes (shared/platform/aws/deadline-http-handler.ts, shared/billing/payments/stripe-client.ts):
 * each call's own limits hold per call, and the deadline holds for all of them. A request whose calls are slow one
 * after another ends in the service's own 503 with its CORS headers, a reserve before the Lambda timeout, which API
 * Gateway answers bare (Middy's own last resort answers 5 ms before it, too late to be sure, and leaves the calls
 * running); a batch reports its records that ran out of time as failures instead of failing whole.
 */
export function withDeadline<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) {
  return (event: Event, context: Context): Promise<Result> => {
    // A context without the method (a hand-made one in a test) sets no deadline.
    const remaining = context?.getRemainingTimeInMillis?.();
    return remaining === undefined ? handler(event, context) : deadlines.run(deadlineOf(remaining, Date.now()), () => handler(event, context));
  };
}

/**
 * Runs one attempt of a call within the current deadline: refused at once when no time is left, and ending in
 * `DeadlineExceededError` when it failed because the deadline cut it short (rather than its own limit).
 */
export async function withinDeadline<T>(limitMs: number, attempt: (timeoutMs: number) => Promise<T>): Promise<T> {
  const deadline = currentDeadline();
  const timeoutMs = attemptTimeoutMs(limitMs, deadline, Date.now());
  if (timeoutMs === 0) throw new DeadlineExceededError();
  try {
    return await attempt(timeoutMs);
  } catch (error) {
    if (deadline !== undefined && Date.now() >= deadline - CLOCK_SLACK_MS) throw new DeadlineExceededError();
    throw error;
  }
}

/** The deadline's error, where a client wrapped it: down the `cause` chain, or in a Stripe error's `detail`. */
export function deadlineExceededIn(error: unknown): DeadlineExceededError | undefined {
  const links = errorChain(error).flatMap((link) => [link, (link as { detail?: unknown }).detail]);
  return links.find((link): link is DeadlineExceededError => link instanceof DeadlineExceededError);
}
