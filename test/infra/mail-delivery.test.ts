import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { expectWatchedByHealthCheck } from './support/health-check.js';
import { actionsOn, statementsOf, type Statement } from './support/policies.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';
import { MAIL_QUEUE_SETTINGS } from '../../shared/messaging/mail/mail-queue.js';

const outdir = mkdtempSync(join(tmpdir(), 'mail-delivery-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

function synth(props: LicensingStackProps) {
  const stack = new LicensingStack(cdkApp(join(outdir, String(Math.random()))), 'LicensingService', { bundle: false, ...props });
  return { stack, template: Template.fromStack(stack) };
}
const { stack, template } = synth({ mailFrom: 'licenses@vendor.example' });
// Synthesized here rather than in a test, whose timeout a busy machine can exceed.
const fromSsm = synth({ mailFrom: 'ssm:/licensing/mail-from' });
const mail = stack.mailDelivery;
const id = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);
const queueArn = { 'Fn::GetAtt': [id(stack, mail.queue), 'Arn'] };
const dlqArn = { 'Fn::GetAtt': [id(stack, mail.deadLetterQueue), 'Arn'] };

const sesStatements = (statements: Statement[]) => statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
const sesArn = (resource: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${resource}/*`]],
});

describe('license e-mail infrastructure', () => {
  it('has a mail queue that redrives to an encrypted dead-letter queue after about an hour of failed sends', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: MAIL_QUEUE_SETTINGS.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: dlqArn, maxReceiveCount: MAIL_QUEUE_SETTINGS.maxReceiveCount },
    });
    expect(MAIL_QUEUE_SETTINGS.visibilityTimeoutSeconds * MAIL_QUEUE_SETTINGS.maxReceiveCount).toBeGreaterThanOrEqual(3600);
    expect(MAIL_QUEUE_SETTINGS.visibilityTimeoutSeconds).toBeGreaterThan(MAIL_QUEUE_SETTINGS.senderTimeoutSeconds);
  });

  it('feeds the sender from the mail queue with partial batch failures and a few senders at most, and gives it the sender address', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: queueArn,
      FunctionName: { Ref: id(stack, mail.sender) },
      BatchSize: MAIL_QUEUE_SETTINGS.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: MAIL_QUEUE_SETTINGS.maxConcurrency },
    });
    const fn = template.toJSON().Resources[id(stack, mail.sender)];
    expect(fn.Properties.Timeout).toBe(MAIL_QUEUE_SETTINGS.senderTimeoutSeconds);
    expect(fn.Properties.Environment.Variables).toMatchObject({ MAIL_FROM: 'licenses@vendor.example', RUNTIME: 'aws' });
  });

  it('lets the sender send as the configured address only: on any identity and configuration set, as SES checks recipients in the sandbox', () => {
    expect(sesStatements(statementsOf(stack, template, mail.sender))).toEqual([
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: [sesArn('configuration-set'), sesArn('identity')],
        Condition: { StringEquals: { 'ses:FromAddress': 'licenses@vendor.example' } },
      },
    ]);
    for (const fn of [...Object.values(stack.functions), stack.webhookDelivery.fanOut, stack.webhookDelivery.sweep.function, stack.webhookDelivery.dispatcher, stack.expirySweep.function]) {
      expect(sesStatements(statementsOf(stack, template, fn))).toEqual([]);
    }
  });

  it('takes the sender address from SSM when the setting says so, in the grant as in the environment', () => {
    const [statement] = sesStatements(statementsOf(fromSsm.stack, fromSsm.template, fromSsm.stack.mailDelivery.sender));
    const parameter = Object.entries(fromSsm.template.toJSON().Parameters as Record<string, { Default?: string }>).find(([, p]) => p.Default === '/licensing/mail-from')![0];
    expect(statement!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': { Ref: parameter } } });
    const fn = fromSsm.template.toJSON().Resources[id(fromSsm.stack, fromSsm.stack.mailDelivery.sender)];
    expect(fn.Properties.Environment.Variables.MAIL_FROM).toEqual({ Ref: parameter });
  });

  it('lets only the outbox fan-out and sweep queue e-mails, and only the sender take them', () => {
    for (const forwarder of [stack.webhookDelivery.fanOut, stack.webhookDelivery.sweep.function]) {
      const statements = statementsOf(stack, template, forwarder);
      expect(actionsOn(statements, queueArn)).toContain('sqs:SendMessage');
      expect(actionsOn(statements, queueArn)).not.toContain('sqs:ReceiveMessage');
      const fn = template.toJSON().Resources[id(stack, forwarder)];
      expect(fn.Properties.Environment.Variables.MAIL_QUEUE_URL).toEqual({ Ref: id(stack, mail.queue) });
    }

    const sender = statementsOf(stack, template, mail.sender);
    expect(actionsOn(sender, queueArn)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(actionsOn(sender, queueArn)).not.toContain('sqs:SendMessage');
    for (const fn of Object.values(stack.functions)) expect(actionsOn(statementsOf(stack, template, fn), queueArn)).toEqual([]);
  });

  it('has the health check report the dead-letter queue as soon as it holds an e-mail: its alarm, to the topic', () => {
    expectWatchedByHealthCheck(stack, template, mail.deadLetterQueue, mail.deadLetterAlarm, 'mail-dead-letters');
  });
});
