import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** API Gateway HTTP API (payload 2.0) event and result: the one format handlers see, locally and in AWS. */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number };
