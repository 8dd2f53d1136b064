import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { AllowedMethods, CachePolicy, Distribution, OriginRequestPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { apiOrigin } from './api-origin.js';
import type { OriginVerify } from './origin-verify.js';

export interface EdgeDistributionProps {
  readonly api: HttpApi;
  /** ARN of a CLOUDFRONT-scope web ACL (`EdgeFirewallStack`). */
  readonly webAclArn: string;
  /** The secret origin header the HTTP functions trust. */
  readonly originVerify: OriginVerify;
}

/**
 * A CloudFront distribution in front of the HTTP API, carrying the edge firewall's web ACL. It caches
 * nothing and passes every method, query string, cookie and viewer header except `Host` (API Gateway
 * routes by its own host name), plus CloudFront's `cloudfront-viewer-address`. Each origin request
 * carries a generated secret in `x-origin-verify`, and the functions get the same secret, so they trust
 * that viewer address only on requests that really came through CloudFront.
 */
export class EdgeDistribution extends Construct {
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: EdgeDistributionProps) {
    super(scope, id);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Licensing service edge (WAF rate limit)',
      webAclId: props.webAclArn,
      defaultBehavior: {
        origin: apiOrigin(props.api, props.originVerify),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    });

    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: "Plugins call from wherever their customers' sites are hosted: no country can be refused" },
      { id: 'AwsSolutions-CFR3', reason: "The API's JSON access log records every request that passes; WAF's sampled requests show the blocked ones" },
      {
        id: 'AwsSolutions-CFR4',
        reason: 'The distribution serves the default *.cloudfront.net certificate, whose protocol floor CloudFront fixes; raising it needs a certificate of our own on the distribution',
      },
    ]);
  }
}
