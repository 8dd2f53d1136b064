import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** How much of the release bucket a function may touch; nothing may delete files. */
export type BucketAccess = 'read' | 'readWrite';

export interface ReleaseBucketProps {
  /**
   * Origins whose pages may PUT to presigned upload URLs and GET presigned downloads (the dashboard).
   * Unset: any origin, which is safe because only a presigned URL grants access and no credentials are sent.
   */
  readonly corsOrigin?: string;
}

/**
 * The private bucket of release ZIP files. Nothing in it is public: files are reached only through
 * presigned URLs that the functions hand out after checking who is asking.
 */
export class ReleaseBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: ReleaseBucketProps = {}) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Vendors' releases are their data: the bucket outlives the stack.
      removalPolicy: RemovalPolicy.RETAIN,
      cors: [
        {
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
          allowedOrigins: [props.corsOrigin ?? '*'],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [{ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
  }
}

/**
 * Gives a function the bucket: the IAM grant and the `BUCKET_NAME` variable that `shared/config.ts`
 * reads, in one call. Read includes listing, so a missing file answers 404 rather than 403.
 */
export function bindBucket(fn: LambdaFunction, bucket: IBucket, access: BucketAccess): void {
  bucket.grantRead(fn);
  if (access === 'readWrite') bucket.grantPut(fn);
  fn.addEnvironment('BUCKET_NAME', bucket.bucketName);
}
