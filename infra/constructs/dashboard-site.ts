import { DockerImage, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { buildDashboard, DASHBOARD_DIR } from '../dashboard-build.js';
import { SERVICE_PATH_PREFIXES } from '../routes.js';
import { apiOrigin } from './api-origin.js';
import type { OriginVerify } from './origin-verify.js';

export interface DashboardSiteProps {
  readonly api: HttpApi;
  readonly originVerify: OriginVerify;
  /** Where the dashboard bucket's request logs go (a prefix of the stack's access log bucket). */
  readonly accessLogBucket: IBucket;
  /** The edge firewall's web ACL, when there is one: the dashboard's distribution carries it too. */
  readonly webAclArn?: string;
  /** `false`: a one-file stand-in instead of the Vite build, so stack assertion tests synthesize without building. */
  readonly bundle: boolean;
}

/**
 * A path of the single-page app's own (no file extension, e.g. `/licenses/lic_…`) is answered with `index.html`; files
 * (`/assets/index-….js`) are served as they are. Done per request in a CloudFront Function on the site's behaviour
 * only: custom error responses would also rewrite the API's own 403 and 404 answers under `/api/*`.
 */
const SPA_ROUTING = `function handler(event) {
  var request = event.request;
  if (!/\\.[A-Za-z0-9]+$/.test(request.uri)) request.uri = '/index.html';
  return request;
}`;

/**
 * The vendor dashboard (`dashboard/`): its Vite build in a private bucket, served by CloudFront through origin access
 * control, and the service's own paths (`/api/*`, and `/v1/*`, `/public/*`, `/dl/*`, `/docs`… as the local gateway
 * splits them) routed by the same distribution to the HTTP API, so the dashboard and the management API share one
 * origin and the session cookie is first-party; with `publicBaseUrl` set to the dashboard's URL, every link the service
 * builds (OAuth callbacks included) works through it too. The API behaviours cache nothing and pass every method,
 * query string, cookie and header but `Host` (API Gateway routes by its own host name). Every surface stays reachable
 * on the API's own address as well.
 */
export class DashboardSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution>.cloudfront.net`: the dashboard's origin. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'dashboard/',
      // Retained like the stack's other buckets: deleting a bucket needs it emptied first, which would take one more
      // custom resource function (CDK's auto-delete) for a few hundred KB of files.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const apiBehavior = {
      origin: apiOrigin(props.api, props.originVerify),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    const spaRouting = new CloudFrontFunction(this, 'SpaRouting', { code: FunctionCode.fromInline(SPA_ROUTING), runtime: FunctionRuntime.JS_2_0 });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Licensing service dashboard, with /api/* to the HTTP API',
      ...(props.webAclArn && { webAclId: props.webAclArn }),
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        functionAssociations: [{ function: spaRouting, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: Object.fromEntries(SERVICE_PATH_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/*`]).map((pattern) => [pattern, apiBehavior])),
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    new BucketDeployment(this, 'Deployment', {
      sources: [props.bundle ? dashboardBuild() : Source.data('index.html', '<!doctype html><title>Licensing dashboard</title>')],
      destinationBucket: this.bucket,
      // index.html names the current assets; the hashed assets never change, so only it needs invalidating.
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
      memoryLimit: 512,
    });
    this.acknowledgeFindings();
  }

  private acknowledgeFindings(): void {
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: 'Vendors sign in from anywhere: no country can be refused' },
      { id: 'AwsSolutions-CFR2', reason: 'The edge firewall’s web ACL is attached when it is on (edgeRateLimit); the API behind /api/* keeps its own per-caller limits either way' },
      { id: 'AwsSolutions-CFR3', reason: "Static files and the API's requests; the API's JSON access log records every /api request that passes" },
      {
        id: 'AwsSolutions-CFR4',
        reason: 'The distribution serves the default *.cloudfront.net certificate, whose protocol floor CloudFront fixes; raising it needs a certificate of our own on the distribution',
      },
    ]);
    // CDK's own function for the deployment lives at the stack's root.
    const stack = Stack.of(this);
    for (const child of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      NagSuppressions.addResourceSuppressions(
        child,
        [
          { id: 'AwsSolutions-IAM4', reason: 'CDK’s own deployment function: AWSLambdaBasicExecutionRole, CloudWatch Logs writes only' },
          { id: 'AwsSolutions-IAM5', reason: 'CDK’s grants on the asset bucket and the dashboard bucket’s objects (every file of the build), and the invalidation of this distribution' },
          { id: 'AwsSolutions-L1', reason: 'The runtime of a function CDK provides and updates with aws-cdk-lib' },
        ],
        true,
      );
    }
  }
}

/** The dashboard's production build, made at synthesis by Vite on this machine (as the functions are bundled by esbuild). */
function dashboardBuild(): ISource {
  return Source.asset(DASHBOARD_DIR, {
    exclude: ['dist', 'node_modules', 'src/api/schema.gen.ts'],
    bundling: {
      // Required by the type; never pulled: the local build always runs, and throws when it fails.
      image: DockerImage.fromRegistry('node:22'),
      local: {
        tryBundle(outputDir) {
          buildDashboard(outputDir);
          return true;
        },
      },
    },
  });
}
