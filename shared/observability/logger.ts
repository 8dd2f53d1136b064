import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { errorDetails } from './error-details.js';
import { redactLogField } from './redact.js';

/**
 * Powertools' standard fields, less those that repeat on every line of a function (its ARN and
 * memory size), and errors written with their whole cause chain (shared/observability/error-details.ts).
 */
class ServiceLogFormatter extends LogFormatter {
  /** `POWERTOOLS_DEV` (the local runtime) prints JSON indented; stacks then read best as lines. */
  readonly #stackAsLines = process.env.POWERTOOLS_DEV === 'true';
  /** API Gateway's id of the request being served (see `setCorrelationId`). */
  correlationId: string | undefined;

  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: context?.coldStart,
        function_name: context?.functionName,
        function_request_id: context?.awsRequestId,
        correlation_id: this.correlationId,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }

  override formatError(error: Error): LogAttributes {
    return errorDetails(error, { stackAsLines: this.#stackAsLines });
  }
}

/**
 * The one logger of every function. Level from `POWERTOOLS_LOG_LEVEL` or `LOG_LEVEL` (INFO when unset;
 * the local runtime sets WARN), service from `POWERTOOLS_SERVICE_NAME`. Every field of every record,
 * messages and error causes included, passes the redaction hook on its way out.
 */
const formatter = new ServiceLogFormatter();
export const logger = new Logger({ logFormatter: formatter, jsonReplacerFn: redactLogField });

/**
 * Sets the `correlation_id` of the lines to come, for the invocation starting (undefined: none). Read only
 * when a line is written: Logger's `appendKeys` would merge and later reset keys on every request, work the
 * hot path would pay for lines it almost never writes. Per-request fields otherwise go in the log call.
 */
export function setCorrelationId(id: string | undefined): void {
  formatter.correlationId = id;
}
