import { Fn } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { OriginProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { OriginVerify } from './origin-verify.js';

/** The HTTP API as a CloudFront origin: HTTPS only, carrying the secret origin header the functions trust. */
export function apiOrigin(api: HttpApi, originVerify: OriginVerify): HttpOrigin {
  // apiEndpoint is `https://<id>.execute-api.<region>.amazonaws.com`: the origin is its host name.
  const apiDomain = Fn.select(2, Fn.split('/', api.apiEndpoint));
  return new HttpOrigin(apiDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY, customHeaders: originVerify.originHeaders });
}
