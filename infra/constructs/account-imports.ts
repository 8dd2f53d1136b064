import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { IMPORT_QUEUE_SETTINGS } from '../../shared/portability/imports/import-queue.js';
import { logicalIdOf } from '../names.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { deadLetterAlarm, queueWithDeadLetters } from './queue-with-dead-letters.js';
import { bindBucket } from './release-bucket.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

export interface AccountImportsProps {
  readonly table: Table;
  /** The bucket import files are stored in (`imports/<tenant>/…`): the release bucket. */
  readonly bucket: Bucket;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * Imports (DECISIONS §16): the management API stores the file under `imports/` in the release bucket, records the
 * import and queues it; the worker reads the file once into prepared rows beside it (`imports/…/<upload>.rows/`) and
 * writes them in batches, queueing the import again when its invocation nears its end. At most two workers run at a
 * time (DECISIONS §20: reserved concurrency, and the event source's maximum concurrency so that SQS never finds it
 * throttled). Files expire after a week (the bucket's rule); an import whose worker keeps failing moves to a
 * dead-letter queue that raises an alarm.
 */
export class AccountImports extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: LambdaFunction;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: AccountImportsProps) {
    super(scope, id);
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = queueWithDeadLetters(this, {
      visibilityTimeout: Duration.seconds(IMPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(IMPORT_QUEUE_SETTINGS.fileRetentionDays),
      maxReceiveCount: IMPORT_QUEUE_SETTINGS.maxReceiveCount,
    }));

    // Reading a file of up to 160 MB as it streams and batching its rows: the CPU that comes with the memory.
    this.worker = serviceFunction(this, 'Worker', {
      entry: WORKER_ENTRIES.importWorker,
      memorySize: 1024,
      timeout: Duration.seconds(IMPORT_QUEUE_SETTINGS.workerTimeoutSeconds),
      environment: props.environment,
      bundle: props.bundle,
    });
    bindTable(this.worker, props.table, { access: 'readWrite', keys: 'importWorker' });
    bindBucket(this.worker, props.bucket, 'read');
    // Its prepared rows, beside the files (and expiring with them); nothing else of the bucket.
    props.bucket.grantPut(this.worker, 'imports/*');
    NagSuppressions.addResourceSuppressions(
      this.worker,
      [{ id: 'AwsSolutions-IAM5', reason: 'The import worker writes prepared rows under imports/ only, keyed by tenant and upload', appliesTo: [`Resource::<${logicalIdOf(props.bucket)}.Arn>/imports/*`] }],
      true,
    );
    this.grantEnqueue(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.queue, { batchSize: IMPORT_QUEUE_SETTINGS.batchSize, reportBatchItemFailures: true, maxConcurrency: IMPORT_QUEUE_SETTINGS.maxConcurrency }),
    );

    props.bucket.addLifecycleRule({ id: 'expire-import-files', prefix: 'imports/', expiration: Duration.days(IMPORT_QUEUE_SETTINGS.fileRetentionDays) });

    this.deadLetterAlarm = deadLetterAlarm(this, this.deadLetterQueue, {
      name: 'import-dead-letters',
      description: "An import failed on every receive: see the import worker's log, then redrive (it goes on from its cursor)",
    });
  }

  /** Lets `fn` start imports (management): it queues them, with the queue's address in `IMPORT_QUEUE_URL`. */
  grantEnqueue(fn: LambdaFunction): void {
    fn.addEnvironment('IMPORT_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }
}
