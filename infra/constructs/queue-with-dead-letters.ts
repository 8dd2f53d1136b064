import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * An encrypted, TLS-only SQS queue whose messages move to an encrypted dead-letter queue (kept 14 days, for
 * inspection and redrive) after `maxReceiveCount` receives.
 */
export function queueWithDeadLetters(scope: Construct, props: { visibilityTimeout: Duration; retentionPeriod: Duration; maxReceiveCount: number }) {
  const deadLetterQueue = new Queue(scope, 'DeadLetterQueue', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const queue = new Queue(scope, 'Queue', {
    visibilityTimeout: props.visibilityTimeout,
    retentionPeriod: props.retentionPeriod,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
  });
  return { queue, deadLetterQueue };
}
