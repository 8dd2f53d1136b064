import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

const DEADLINE = Symbol('deadline');
type LocalContext = Context & { [DEADLINE]: number };

/**
 * The functions every context shares, made once: a function made per invocation costs the local runtime a
 * `defineProperty` each (tsx keeps functions' names), which Lambda does not pay. The deadline is the context's own.
 */
function getRemainingTimeInMillis(this: LocalContext): number {
  return Math.max(0, this[DEADLINE] - Date.now());
}
const nothing = () => undefined;

/** The context Lambda hands one invocation of `functionName`: a request id of its own and its deadline (default 30 s). */
export function lambdaContext(functionName: string, timeoutSeconds = 30): Context {
  const context: LocalContext = {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis,
    done: nothing,
    fail: nothing,
    succeed: nothing,
    [DEADLINE]: Date.now() + timeoutSeconds * 1000,
  };
  return context;
}
