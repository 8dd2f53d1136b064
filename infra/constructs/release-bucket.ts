import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { logicalIdOf } from '../names.js';

/** How much of the release bucket a function may touch; nothing may delete files. */
export type BucketAccess = 'read' | 'readWrite';

export interface ReleaseBucketProps {
  /**
   * Origins whose pages may PUT to presigned upload URLs and GET presigned downloads (the dashboard's, wherever it is
   * served). Unset: any origin, which is safe because only a presigned URL grants access and no credentials are sent.
   */
  readonly corsOrigins?: string[];
}

/** A replaced or deleted release file can be restored for this long. */
const NONCURRENT_VERSION_DAYS = 30;
/** S3 server access logs: who fetched or uploaded which file, through which presigned URL. */
const ACCESS_LOG_DAYS = 90;

/**
 * The private bucket of release ZIP files. Nothing in it is public: files are reached only through
 * presigned URLs that the functions hand out after checking who is asking. Versioned, so an overwritten
 * or deleted file can be restored for a while, and its requests logged to a bucket of their own.
 */
export class ReleaseBucket extends Construct {
  readonly bucket: Bucket;
  readonly accessLogBucket: Bucket;

  constructor(scope: Construct, id: string, props: ReleaseBucketProps = {}) {
    super(scope, id);
    this.accessLogBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // Server access logs can only be written with S3-managed keys.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(ACCESS_LOG_DAYS) }],
    });
    NagSuppressions.addResourceSuppressions(this.accessLogBucket, [
      { id: 'AwsSolutions-S1', reason: 'This is the access log bucket: logging its own requests would log the log writes' },
    ]);

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Vendors' releases are their data: the bucket outlives the stack.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      versioned: true,
      serverAccessLogsBucket: this.accessLogBucket,
      serverAccessLogsPrefix: 'release-files/',
      cors: [
        {
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
          allowedOrigins: props.corsOrigins ?? ['*'],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'expire-noncurrent-versions', noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS) },
      ],
    });
  }
}

/**
 * Gives a function the bucket: the IAM grant and the `BUCKET_NAME` variable that `shared/platform/config.ts`
 * reads, in one call. Read includes listing, so a missing file answers 404 rather than 403.
 */
export function bindBucket(fn: LambdaFunction, bucket: IBucket, access: BucketAccess): void {
  bucket.grantRead(fn);
  if (access === 'readWrite') bucket.grantPut(fn);
  fn.addEnvironment('BUCKET_NAME', bucket.bucketName);
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      {
        id: 'AwsSolutions-IAM5',
        reason: "CDK's read and put grants on the bucket's objects: keys are per tenant and product, and the function checks ownership before it presigns a URL for one",
        appliesTo: ['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:Abort*', `Resource::<${logicalIdOf(bucket)}.Arn>/*`],
      },
    ],
    true,
  );
}
