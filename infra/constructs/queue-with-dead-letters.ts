import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

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

/** An alarm, `<stack>-<name>`, as soon as the dead-letter queue holds a message; a period without data is OK. */
export function deadLetterAlarm(scope: Construct, deadLetterQueue: Queue, props: { name: string; description: string }): Alarm {
  return new Alarm(scope, 'DeadLetterAlarm', {
    alarmName: `${Stack.of(scope).stackName}-${props.name}`,
    alarmDescription: props.description,
    metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
