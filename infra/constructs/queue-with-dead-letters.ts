import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { HealthCheck } from './health-check.js';

/** An encrypted, TLS-only dead-letter queue, `DeadLetterQueue` in `scope`, that keeps messages 14 days (for inspection and redrive). */
export function deadLetterQueue(scope: Construct): Queue {
  return new Queue(scope, 'DeadLetterQueue', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
}

/** An encrypted, TLS-only SQS queue whose messages move to a dead-letter queue after `maxReceiveCount` receives. */
export function queueWithDeadLetters(scope: Construct, props: { visibilityTimeout: Duration; retentionPeriod: Duration; maxReceiveCount: number }) {
  const deadLetters = deadLetterQueue(scope);
  const queue = new Queue(scope, 'Queue', {
    visibilityTimeout: props.visibilityTimeout,
    retentionPeriod: props.retentionPeriod,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: props.maxReceiveCount },
  });
  return { queue, deadLetterQueue: deadLetters };
}

/**
 * The alarm of a dead-letter queue: the stack's health check (`<stack>-health-check`), which looks at every dead-letter
 * queue registered here each run and reports each one that holds a message by `name`, with `description` for what it
 * means. One alarm for every queue, where one each cost $0.10 a month apiece (docs/cost.md).
 */
export function deadLetterAlarm(scope: Construct, deadLetterQueue: Queue, props: { name: string; description: string }): Alarm {
  return HealthCheck.of(scope).watchDeadLetters(deadLetterQueue, props);
}
