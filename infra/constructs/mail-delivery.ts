import { Duration, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { MAIL_QUEUE_SETTINGS } from '../../shared/messaging/mail/mail-queue.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { deadLetterAlarm, queueWithDeadLetters } from './queue-with-dead-letters.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

export interface MailDeliveryProps {
  readonly table: Table;
  /** The sender address as the functions get it (`MAIL_FROM`): written out, or a reference to an SSM parameter. */
  readonly mailFrom: string;
  /** The environment every function shares (RUNTIME, …); the sender adds `MAIL_FROM`, which is its alone. */
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
      environment: { ...props.environment, MAIL_FROM: props.mailFrom },
      bundle: props.bundle,
    });
    bindTable(this.sender, props.table, { access: 'readWrite', keys: 'mailSender' });
    this.sender.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: MAIL_QUEUE_SETTINGS.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: MAIL_QUEUE_SETTINGS.maxConcurrency,
      }),
    );
    this.sender.addToRolePolicy(sendAsStatement(Stack.of(this), props.mailFrom));
    NagSuppressions.addResourceSuppressions(
      this.sender,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'SES checks recipients’ identities in the sandbox and any configuration set: only identity/* and configuration-set/* cover them; the ses:FromAddress condition pins the sender',
          // As written for an environment-agnostic stack, or resolved for one with an account and region.
          appliesTo: [{ regex: '/^Resource::arn:.+:ses:.+:(identity|configuration-set)\\/\\*$/g' }],
        },
      ],
      true,
    );

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
 * `ses:SendEmail` as the configured sender only. SES authorizes a send against every resource it involves: the sender's
 * identity (the address or its domain, whichever the vendor verified), the configuration set when the identity has a
 * default one (or the account a default set), and, while the account is in the SES sandbox, each recipient's identity
 * too. So the statement covers the account's identities and configuration sets in this region, and the
 * `ses:FromAddress` condition is what pins it: only mail from the configured address is allowed.
 */
function sendAsStatement(stack: Stack, mailFrom: string): PolicyStatement {
  const arn = (resource: string) => stack.formatArn({ service: 'ses', resource, resourceName: '*' });
  return new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: [arn('identity'), arn('configuration-set')],
    conditions: { StringEquals: { 'ses:FromAddress': mailFrom } },
  });
}
