import { DockerImage, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  S3OriginAccessControl,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type Distribution,
  type IResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { buildDashboard, DASHBOARD_DIR } from '../dashboard-build.js';
import { DASHBOARD_ASSETS_DIR, IMMUTABLE_CACHE_CONTROL, RETIRED_TAG, REVALIDATE_CACHE_CONTROL } from '../dashboard-headers.js';
import { DashboardAssetRetirement } from './dashboard-asset-retirement.js';
import { accountWideName } from '../names.js';

/** How long a hashed asset stays once a deployment no longer names it: an open tab may still load it. */
export const RETIRED_ASSET_DAYS = 30;

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

export type DashboardFiles = {
  bucket: Bucket;
  /** The hashed assets (immutable, never pruned), then the files that name them (`no-cache`). */
  deployments: { assets: BucketDeployment; root: BucketDeployment };
  retirement: DashboardAssetRetirement;
};

/**
 * The dashboard's private bucket. A hashed asset that a deployment no longer names is tagged `retired` by
 * `DashboardAssetRetirement` and expires a month later, so an open tab of the previous build still loads what it asks for.
 */
export function dashboardBucket(scope: Construct, accessLogBucket: IBucket): { bucket: Bucket } {
  const bucket = new Bucket(scope, 'Bucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    serverAccessLogsBucket: accessLogBucket,
    serverAccessLogsPrefix: 'dashboard/',
    // Retained like the stack's other buckets (deleting a bucket needs it emptied first, which would take one more
    // custom resource function, CDK's auto-delete, for a few hundred KB of files), except by a failed create's rollback.
    removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    lifecycleRules: [
      {
        id: 'expire-retired-assets',
        prefix: `${DASHBOARD_ASSETS_DIR}/`,
        tagFilters: { [RETIRED_TAG.key]: RETIRED_TAG.value },
        expiration: Duration.days(RETIRED_ASSET_DAYS),
      },
    ],
  });
  return { bucket };
}

/** The distribution's default behaviour: the bucket through origin access control, cached, with the app's routing. */
export function dashboardBehavior(scope: Construct, bucket: IBucket, responseHeadersPolicy: IResponseHeadersPolicy): BehaviorOptions {
  const spaRouting = new CloudFrontFunction(scope, 'SpaRouting', { code: FunctionCode.fromInline(SPA_ROUTING), runtime: FunctionRuntime.JS_2_0 });
  return {
    origin: S3BucketOrigin.withOriginAccessControl(bucket, {
      // Named by region: CloudFront's names are the account's, and a stage may be deployed in two regions.
      originAccessControl: new S3OriginAccessControl(scope, 'OriginAccessControl', { originAccessControlName: accountWideName(scope, 'OriginAccessControl', 64) }),
    }),
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
    // Honours each file's Cache-Control: a year for hashed assets, a revalidation for index.html.
    cachePolicy: CachePolicy.CACHING_OPTIMIZED,
    responseHeadersPolicy,
    functionAssociations: [{ function: spaRouting, eventType: FunctionEventType.VIEWER_REQUEST }],
  };
}

/**
 * Copies the build into the bucket in two steps: the hashed assets first (immutable, and never pruned, so a tab
 * opened before the deployment still finds its chunks), then `index.html` and the other root files (`no-cache`, stale
 * ones pruned) and the invalidation of `/index.html`; then the assets the new build no longer names are retired.
 */
export function deployDashboard(scope: Construct, props: { bucket: Bucket; distribution: Distribution; bundle: boolean }): DashboardFiles {
  const source = props.bundle ? dashboardBuild() : Source.data('index.html', '<!doctype html><title>Licensing dashboard</title>');
  const assetFiles = `${DASHBOARD_ASSETS_DIR}/*`;
  const assets = new BucketDeployment(scope, 'Assets', {
    sources: [source],
    destinationBucket: props.bucket,
    exclude: ['*'],
    include: [assetFiles],
    prune: false,
    cacheControl: [CacheControl.fromString(IMMUTABLE_CACHE_CONTROL)],
    memoryLimit: 512,
  });
  const root = new BucketDeployment(scope, 'Deployment', {
    sources: [source],
    destinationBucket: props.bucket,
    exclude: [assetFiles],
    cacheControl: [CacheControl.fromString(REVALIDATE_CACHE_CONTROL)],
    // index.html names the current assets; the hashed assets never change, so only it needs invalidating.
    distribution: props.distribution,
    distributionPaths: ['/index.html'],
    memoryLimit: 512,
  });
  root.node.addDependency(assets);
  const retirement = new DashboardAssetRetirement(scope, 'AssetRetirement', { bucket: props.bucket, after: root, bundle: props.bundle });
  acknowledgeDeploymentFindings(scope);
  return { bucket: props.bucket, deployments: { assets, root }, retirement };
}

/** CDK's own function for the deployments lives at the stack's root. */
function acknowledgeDeploymentFindings(scope: Construct): void {
  const stack = Stack.of(scope);
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
