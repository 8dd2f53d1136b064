import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { LicensingStack } from '../../infra/stack.js';

const outdir = mkdtempSync(join(tmpdir(), 'expiry-sweep-stack-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const sweepId = logicalId(stack.expirySweep.function);
const tableId = logicalId(stack.table);

describe('expiry sweep', () => {
  it('runs every 5 minutes through an EventBridge rule that may invoke it, a failed run retried by neither EventBridge nor Lambda', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweepId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: sweepId }, MaximumRetryAttempts: 0 });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [sweepId, 'Arn'] },
    });
  });

  it('is a Node 22 arm64 function with the table name and a timeout below the rate', () => {
    const sweep = template.findResources('AWS::Lambda::Function')[sweepId]!;
    expect(sweep.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 120,
    });
    expect(sweep.Properties.Environment.Variables).toMatchObject({ RUNTIME: 'aws', TABLE_NAME: { Ref: tableId } });
  });

  it('may read and write the table and its indexes, and nothing else', () => {
    const roleId = template.findResources('AWS::Lambda::Function')[sweepId]!.Properties.Role['Fn::GetAtt'][0];
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as { Action: string[]; Resource: unknown[] }[];
    const actions = statements.flatMap((s) => s.Action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem']));
    expect(actions.every((a) => a.startsWith('dynamodb:'))).toBe(true);
    for (const statement of statements) {
      expect(statement.Resource).toEqual([{ 'Fn::GetAtt': [tableId, 'Arn'] }, { 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/*']] }]);
    }
  });
});
