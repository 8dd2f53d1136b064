import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { leadingKeyPatterns } from '../../shared/platform/data/key-access.js';
import { cdkApp } from './support/app.js';
import { LicensingStack } from '../../infra/stack.js';

const outdir = mkdtempSync(join(tmpdir(), 'lease-expiry-stack-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const jobId = stack.getLogicalId(stack.leaseExpiry.function.node.defaultChild as CfnElement);

describe('lease expiry job', () => {
  it('runs every minute through an EventBridge rule, a failed run retried by neither EventBridge nor Lambda', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [jobId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: jobId }, MaximumRetryAttempts: 0 });
  });

  it('may touch only the keys of its role: due leases by shard, the leases, and their events', () => {
    const roleId = template.findResources('AWS::Lambda::Function')[jobId]!.Properties.Role['Fn::GetAtt'][0];
    const policy = Object.values(template.findResources('AWS::IAM::Policy')).find((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))!;
    const text = JSON.stringify(policy.Properties.PolicyDocument);
    for (const pattern of [...leadingKeyPatterns('leaseExpiry', 'read'), ...leadingKeyPatterns('leaseExpiry', 'write')]) expect(text).toContain(pattern);
    expect(text).not.toContain('licenseKey_');
  });
});
