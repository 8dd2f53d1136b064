import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, type IAccessLogSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * Text fields, written in quotes. API Gateway escapes quotes and backslashes inside a quoted value (not documented,
 * but seen: a user agent `"x"` is logged `\"x\"`), and writes a bare `-` for a variable without a value: the integration's fields on its own answers (404, 413, 429), the error on a
 * function's. Which is why `$context.error.messageString` (the message in quotes, documented for gateway response
 * templates) is not used: unquoted, it would be a bare `-` on every request without an error, and the line no JSON.
 * `integrationStatus` and `integrationLatency` stay text for the same `-`.
 */
export const ACCESS_LOG_TEXT_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  protocol: '$context.protocol',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  userAgent: '$context.identity.userAgent',
} as const;

/** Numbers every answer has, API Gateway's own included: written bare, so metric filters and queries compare numbers. */
export const ACCESS_LOG_NUMBER_FIELDS = {
  status: '$context.status',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
} as const;

/**
 * One JSON object per request, so Logs Insights can filter and aggregate on the fields (`filter status >= 500`).
 * `requestId` is the id the functions log too; `integrationError` says why API Gateway could not reach a function.
 */
export const ACCESS_LOG_FORMAT = `{${[
  ...Object.entries(ACCESS_LOG_TEXT_FIELDS).map(([name, variable]) => `"${name}":"${variable}"`),
  ...Object.entries(ACCESS_LOG_NUMBER_FIELDS).map(([name, variable]) => `"${name}":${variable}`),
].join(',')}}`;

/** The HTTP API's access log: a log group kept for a month, as the functions' are, and the stage's settings for it. */
export class ApiAccessLogs extends Construct {
  readonly logGroup: LogGroup;
  readonly settings: IAccessLogSettings;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.settings = {
      destination: new LogGroupLogDestination(this.logGroup),
      format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
    };
  }
}
