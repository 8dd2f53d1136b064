import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, type IAccessLogSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * One JSON object per request, so Logs Insights can filter and aggregate on the fields (`filter status >= 500`).
 * `requestId` is the id the functions log too; `integrationError` says why API Gateway could not reach a function.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  userAgent: '$context.identity.userAgent',
} as const;

/** The HTTP API's access log: a log group kept for a month, as the functions' are, and the stage's settings for it. */
export class ApiAccessLogs extends Construct {
  readonly logGroup: LogGroup;
  readonly settings: IAccessLogSettings;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.settings = {
      destination: new LogGroupLogDestination(this.logGroup),
      format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
    };
  }
}
