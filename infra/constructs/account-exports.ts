import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { EXPORT_RETENTION_DAYS } from '../../shared/portability/exports/export-jobs.js';
import { EXPORT_QUEUE_SETTINGS } from '../../shared/portability/exports/export-queue.js';
import { logicalIdOf } from '../names.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { deadLetterAlarm, queueWithDeadLetters } from './queue-with-dead-letters.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

export interface AccountExportsProps {
  readonly table: Table;
  /** Where the export bucket's requests are logged (the release bucket's access log bucket). */
  readonly accessLogBucket: IBucket;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * Account exports (DECISIONS §16): the management API records a job and queues it, the worker writes the file into
 * a bucket of its own, a part at a time, and queues the job again when its invocation nears its end; at most two
 * workers run at a time (DECISIONS §20: reserved concurrency, and the event source's maximum). The bucket keeps
 * files 7 days (they hold every customer's data) and is reached only through the presigned links the management API
 * hands the account's owner. A job whose worker keeps failing moves to a dead-letter queue that raises an alarm.
 */
export class AccountExports extends Construct {
  readonly bucket: Bucket;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: LambdaFunction;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: AccountExportsProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Like the other buckets, kept when the stack goes (but not by a failed first deployment's rollback); its files
      // expire within the week anyway.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'exports/',
      lifecycleRules: [
        { id: 'expire-exports', expiration: Duration.days(EXPORT_RETENTION_DAYS) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });

    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = queueWithDeadLetters(this, {
      visibilityTimeout: Duration.seconds(EXPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(EXPORT_RETENTION_DAYS),
      maxReceiveCount: EXPORT_QUEUE_SETTINGS.maxReceiveCount,
    }));

    this.worker = serviceFunction(this, 'Worker', {
      entry: WORKER_ENTRIES.exportWorker,
      memorySize: 1024,
      timeout: Duration.seconds(EXPORT_QUEUE_SETTINGS.workerTimeoutSeconds),
      environment: props.environment,
      bundle: props.bundle,
    });
    bindTable(this.worker, props.table, { access: 'readWrite', keys: 'exportWorker' });
    this.bindBucket(this.worker, 'readWrite');
    this.grantEnqueue(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.queue, { batchSize: EXPORT_QUEUE_SETTINGS.batchSize, reportBatchItemFailures: true, maxConcurrency: EXPORT_QUEUE_SETTINGS.maxConcurrency }),
    );

    this.deadLetterAlarm = deadLetterAlarm(this, this.deadLetterQueue, {
      name: 'export-dead-letters',
      description: "An account export failed on every receive (its job is marked failed): see the export worker's log; the vendor can start a new export",
    });
  }

  /** Lets `fn` start exports and fetch their files (management): it queues jobs and presigns downloads. */
  grantStart(fn: LambdaFunction): void {
    this.grantEnqueue(fn);
    this.bindBucket(fn, 'read');
  }

  private grantEnqueue(fn: LambdaFunction): void {
    fn.addEnvironment('EXPORT_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }

  /** The bucket (read; or write too, with deletes: the worker's stashed bytes), and its name in `EXPORT_BUCKET_NAME`. */
  private bindBucket(fn: LambdaFunction, access: 'read' | 'readWrite'): void {
    this.bucket.grantRead(fn);
    if (access === 'readWrite') {
      this.bucket.grantPut(fn);
      this.bucket.grantDelete(fn);
    }
    fn.addEnvironment('EXPORT_BUCKET_NAME', this.bucket.bucketName);
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: "CDK's read, put and delete grants on the export bucket's objects: files are keyed by tenant and export id, which the function checks before it reads or presigns one",
          appliesTo: [
            'Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:Abort*', 'Action::s3:DeleteObject*',
            `Resource::<${logicalIdOf(this.bucket)}.Arn>/*`,
          ],
        },
      ],
      true,
    );
  }
}
