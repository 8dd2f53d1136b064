import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { errorDetails } from './error-details.js';
import { redactLogField } from './redact.js';

/**
 * What the lines of the invocation being served carry: its Lambda context, API Gateway's id of the request
 * (`correlation_id`) and whether it is the container's first. Set by the observability middleware as each invocation
 * starts, read only when a line is written: Logger's `addContext` would store them in its invocation store on every
 * request (and `appendKeys` merge and later reset them), work the hot path would pay for lines it almost never writes.
 */
const invocation: { context?: Context; correlationId?: string; coldStart?: boolean } = {};
/** Powertools' rule for `cold_start`: the first invocation of an on-demand container; never under provisioned concurrency. */
let firstInvocation = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';

export function startInvocation(context: Context | undefined, correlationId: string | undefined): void {
  invocation.context = context;
  invocation.correlationId = correlationId;
  invocation.coldStart = firstInvocation;
  firstInvocation = false;
}

/**
 * Powertools' standard fields, less those that repeat on every line of a function (its ARN and
 * memory size), and errors written with their whole cause chain (shared/platform/observability/error-details.ts).
 */
class ServiceLogFormatter extends LogFormatter {
  /** `POWERTOOLS_DEV` (the local runtime) prints JSON indented; stacks then read best as lines. */
  readonly #stackAsLines = process.env.POWERTOOLS_DEV === 'true';

  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const { context } = invocation;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: invocation.coldStart,
        function_name: context?.functionName,
        function_request_id: context?.awsRequestId,
        correlation_id: invocation.correlationId,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }

  override formatError(error: Error): LogAttributes {
    return errorDetails(error, { stackAsLines: this.#stackAsLines });
  }
}

let instance: Logger | undefined;
/**
 * The Powertools Logger, built when the container writes its first line: a container that only answers never
 * builds it, and its cold start does not wait for it.
 */
const powertools = () =>
  (instance ??= new Logger({ logFormatter: new ServiceLogFormatter(), jsonReplacerFn: redactLogField }));

/**
 * The one logger of every function. Level from `POWERTOOLS_LOG_LEVEL` or `LOG_LEVEL` (INFO when unset;
 * the local runtime sets WARN), service from `POWERTOOLS_SERVICE_NAME`. Every field of every record,
 * messages and error causes included, passes the redaction hook on its way out.
 */
const level =
  (name: 'debug' | 'info' | 'warn' | 'error'): Logger[typeof name] =>
  (input, ...extraInput) =>
    powertools()[name](input, ...extraInput);
export const logger: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'> = { debug: level('debug'), info: level('info'), warn: level('warn'), error: level('error') };
