import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { SERVICE_PATH_PREFIXES } from '../routes.js';
import { RELEASE_FILES_PATH } from '../../shared/platform/storage/download-links.js';
import { apiOrigin } from './api-origin.js';
import { dashboardBehavior, dashboardBucket, deployDashboard, type DashboardFiles } from './dashboard-site.js';
import type { FrontDoorDomain } from './front-door-domain.js';
import { apiResponseHeaders, dashboardResponseHeaders, POLICY_NAME_LENGTH } from './front-door-headers.js';
import { accountWideName } from '../names.js';
import type { OriginVerify } from './origin-verify.js';

export interface FrontDoorProps {
  readonly api: HttpApi;
  /** The secret origin header the HTTP functions insist on. */
  readonly originVerify: OriginVerify;
  /** Release files: `/releases/*` is passed to it with presigned queries. */
  readonly releaseBucket: IBucket;
  /** Where the dashboard bucket's request logs go (a prefix of the stack's access log bucket). */
  readonly accessLogBucket: IBucket;
  /** The edge firewall's web ACL (CLOUDFRONT scope, us-east-1), when it is on. */
  readonly webAclArn?: string;
  /**
   * The origin secret's latest rotation, named in the distribution's comment: a new label changes the distribution, so
   * CloudFormation updates it and resolves the secret afresh (it reads a dynamic reference only when the resource it
   * is in changes).
   */
  readonly originSecretRotation?: string;
  readonly priceClass: PriceClass;
  /** The vendor's own host name, when set: the distribution answers it instead of only `*.cloudfront.net`. */
  readonly domain?: FrontDoorDomain;
  /** `false`: a one-file stand-in instead of the Vite build, so stack assertion tests synthesize without building. */
  readonly bundle: boolean;
}

/**
 * The stack's one front door: a CloudFront distribution that serves the dashboard (its Vite build in a private bucket,
 * through origin access control) and sends the service's own paths (`/api`, `/v1`, `/public`, `/dl`, `/docs`… as the
 * local gateway splits them) to the HTTP API, so the dashboard and the API share one origin (a first-party session
 * cookie, OAuth callbacks on the host where the state cookie lives) and every link the service builds, every plugin
 * call and the Stripe webhook pass its firewall. The API behaviours cache nothing and pass every method, query string,
 * cookie and header but `Host` (API Gateway routes by its own host name), with the secret `x-origin-verify` header
 * without which the functions refuse a request. `/releases/*` passes presigned download URLs to the release bucket
 * unchanged, where S3 checks them; the files leave AWS through CloudFront (docs/deploy.md, "Release downloads").
 *
 * Created under the id `DashboardSite` by the stack: it was the dashboard's distribution before it was the front
 * door, and a new id would replace the distribution and change its address.
 */
export class FrontDoor extends Construct {
  readonly distribution: Distribution;
  readonly dashboard: DashboardFiles;
  /** `https://<custom domain or distribution domain>`, no trailing slash: the service's public address. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: FrontDoorProps) {
    super(scope, id);
    const dashboard = dashboardBucket(this, props.accessLogBucket);
    const apiHeaders = apiResponseHeaders(this, 'ApiHeaders');
    const apiBehavior: BehaviorOptions = {
      origin: apiOrigin(props.api, props.originVerify),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: apiHeaders,
    };
    const releaseFilesBehavior: BehaviorOptions = {
      // The bucket's regional host, for which the functions sign (shared/platform/storage/download-links.ts): S3 checks the
      // signature against the Host CloudFront sends, which is this origin's name. No origin access control: the
      // presigned query is the request's authorization, and CloudFront must not replace it with its own.
      origin: new HttpOrigin(props.releaseBucket.bucketRegionalDomainName, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      // Every URL is signed afresh, so nothing could be found again in a cache; caching by path alone would let a
      // cached file out without a signature.
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: new OriginRequestPolicy(this, 'PresignedQuery', {
        originRequestPolicyName: accountWideName(this, 'PresignedQuery', POLICY_NAME_LENGTH),
        comment: 'Licensing service: presigned release-file URLs, query as signed, no viewer header',
        queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      }),
      responseHeadersPolicy: apiHeaders,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Licensing service: the dashboard, the API and release files${props.originSecretRotation ? ` (origin secret: ${props.originSecretRotation})` : ''}`,
      ...(props.webAclArn && { webAclId: props.webAclArn }),
      priceClass: props.priceClass,
      ...(props.domain && {
        domainNames: [props.domain.domainName],
        certificate: props.domain.certificate,
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
      defaultRootObject: 'index.html',
      defaultBehavior: dashboardBehavior(this, dashboard.bucket, dashboardResponseHeaders(this, 'DashboardHeaders', { uploadOrigin: `https://${props.releaseBucket.bucketRegionalDomainName}` })),
      additionalBehaviors: {
        ...Object.fromEntries(SERVICE_PATH_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/*`]).map((pattern) => [pattern, apiBehavior])),
        [`${RELEASE_FILES_PATH}/*`]: releaseFilesBehavior,
      },
    });
    this.url = `https://${props.domain?.domainName ?? this.distribution.distributionDomainName}`;
    this.dashboard = deployDashboard(this, { ...dashboard, distribution: this.distribution, bundle: props.bundle });
    this.acknowledgeFindings(props);
  }

  private acknowledgeFindings(props: FrontDoorProps): void {
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: "Vendors sign in and plugins call from wherever their customers' sites are hosted: no country can be refused" },
      ...(props.webAclArn
        ? []
        : [{ id: 'AwsSolutions-CFR2', reason: 'The edge firewall’s web ACL is attached when it is on (edgeRateLimit); the API keeps its own per-caller limits either way' }]),
      {
        id: 'AwsSolutions-CFR7',
        reason: 'The release bucket is reached without origin access control on purpose: each request carries an S3 presigned query, its only authorization, which OAC would replace with its own signature; the dashboard bucket uses OAC',
      },
      { id: 'AwsSolutions-CFR3', reason: "Standard logs need an ACL-enabled bucket; the API's JSON access log records every service request that passes, and WAF's sampled requests the blocked ones" },
      ...(props.domain
        ? []
        : [
            {
              id: 'AwsSolutions-CFR4',
              reason: 'Without a custom domain the distribution serves the default *.cloudfront.net certificate, whose protocol floor CloudFront fixes',
            },
          ]),
    ]);
  }
}
