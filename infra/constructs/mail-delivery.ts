import { Duration, Fn, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_QUEUE_SETTINGS } from '../../shared/mail/mail-queue.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { deadLetterAlarm, queueWithDeadLetters } from './queue-with-dead-letters.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

export interface MailDeliveryProps {
  readonly table: Table;
  /** The sender address as the functions get it (`MAIL_FROM`): written out, or a reference to an SSM parameter. */
  readonly mailFrom: string;
  /** The environment every function shares (RUNTIME, MAIL_FROM, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * E-mails (license e-mails, address verifications, …) that are never lost nor doubled: the outbox fan-out queues one
 * message per e-mail item,
 * the sender sends it through SES (retried through the queue's visibility timeout) and records it sent; a message
 * that keeps failing moves to a dead-letter queue that raises an alarm, to be redriven once SES is fixed.
 */
export class MailDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly sender: LambdaFunction;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: MailDeliveryProps) {
    super(scope, id);
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = queueWithDeadLetters(this, {
      visibilityTimeout: Duration.seconds(MAIL_QUEUE_SETTINGS.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(4),
      maxReceiveCount: MAIL_QUEUE_SETTINGS.maxReceiveCount,
    }));

    this.sender = serviceFunction(this, 'Sender', {
      entry: WORKER_ENTRIES.mailSender,
      memorySize: 256,
      timeout: Duration.seconds(MAIL_QUEUE_SETTINGS.senderTimeoutSeconds),
      environment: props.environment,
      bundle: props.bundle,
    });
    bindTable(this.sender, props.table, { access: 'readWrite', keys: 'mailSender' });
    this.sender.addEventSource(new SqsEventSource(this.queue, { batchSize: MAIL_QUEUE_SETTINGS.batchSize, reportBatchItemFailures: true }));
    this.sender.addToRolePolicy(sendAsStatement(Stack.of(this), props.mailFrom));

    this.deadLetterAlarm = deadLetterAlarm(this, this.deadLetterQueue, {
      name: 'mail-dead-letters',
      description: 'E-mails gave up after an hour of SES refusing them: see the mail dead-letter queue, fix SES, then redrive',
    });
  }

  /** Lets `fn` queue e-mails (the outbox fan-out), with the queue's address in its environment. */
  grantEnqueue(fn: LambdaFunction): void {
    fn.addEnvironment('MAIL_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }
}

/**
 * `ses:SendEmail` as the configured sender only: on the SES identities that can cover it (the address itself,
 * or its domain, whichever the vendor verified), and only with that address as the From.
 */
function sendAsStatement(stack: Stack, mailFrom: string): PolicyStatement {
  const identity = (name: string) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name });
  return new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: [identity(mailFrom), identity(Fn.select(1, Fn.split('@', mailFrom)))],
    conditions: { StringEquals: { 'ses:FromAddress': mailFrom } },
  });
}
