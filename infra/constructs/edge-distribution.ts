import { Fn, RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { AllowedMethods, CachePolicy, Distribution, OriginProtocolPolicy, OriginRequestPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The header by which the functions know a request came through the distribution (`shared/http/client-address.ts`). */
const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

export interface EdgeDistributionProps {
  readonly api: HttpApi;
  /** ARN of a CLOUDFRONT-scope web ACL (`EdgeFirewallStack`). */
  readonly webAclArn: string;
  /** Functions that answer HTTP requests: they are told the origin secret, to trust CloudFront's viewer address. */
  readonly httpFunctions: LambdaFunction[];
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
  readonly originVerifySecret: Secret;

  constructor(scope: Construct, id: string, props: EdgeDistributionProps) {
    super(scope, id);
    this.originVerifySecret = new Secret(this, 'OriginVerifySecret', {
      description: 'Sent by CloudFront to the licensing API as x-origin-verify',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // A generated value that nothing outside the stack holds: it goes with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // A CloudFormation dynamic reference, resolved at deployment: the template never holds the value.
    const originVerifyToken = this.originVerifySecret.secretValue.unsafeUnwrap();

    // apiEndpoint is `https://<id>.execute-api.<region>.amazonaws.com`: the origin is its host name.
    const apiDomain = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Licensing service edge (WAF rate limit)',
      webAclId: props.webAclArn,
      defaultBehavior: {
        origin: new HttpOrigin(apiDomain, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          customHeaders: { [ORIGIN_VERIFY_HEADER]: originVerifyToken },
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    });
    for (const fn of props.httpFunctions) fn.addEnvironment('ORIGIN_VERIFY_TOKEN', originVerifyToken);

    NagSuppressions.addResourceSuppressions(this.originVerifySecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'CloudFront and the functions read the value at deployment, so a rotation outside a deployment would refuse every request; it is replaced by redeploying with a new secret',
      },
    ]);
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
