import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { logicalIdOf } from '../../../infra/names.js';
import type { LicensingStack } from '../../../infra/stack.js';

/**
 * That the stack's health check looks at `queue` under `name` (its `HEALTH_CHECK_DEAD_LETTER_QUEUES`), may read the
 * queue's attributes, and that the queue's alarm is the health check's, which reports to the alarm topic.
 */
export function expectWatchedByHealthCheck(stack: LicensingStack, template: Template, queue: Queue, alarm: unknown, name: string): void {
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const checkId = logicalIdOf(stack.healthCheck.function);
  // A join of the JSON's text and the queues' URLs (`Ref`): each URL read as `Ref:<logical id>`.
  const [separator, parts] = resources[checkId]!.Properties.Environment.Variables.HEALTH_CHECK_DEAD_LETTER_QUEUES['Fn::Join'] as [string, unknown[]];
  const watched = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : `Ref:${(part as { Ref: string }).Ref}`)).join(separator));
  expect(watched[name]).toEqual({ url: `Ref:${logicalIdOf(queue)}`, about: expect.any(String) });
  const roleId = resources[checkId]!.Properties.Role['Fn::GetAtt'][0];
  const statements = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  const readable = statements.filter((s) => s.Effect === 'Allow' && [s.Action].flat().includes('sqs:GetQueueAttributes')).flatMap((s) => [s.Resource].flat());
  expect(readable).toContainEqual({ 'Fn::GetAtt': [logicalIdOf(queue), 'Arn'] });
  expect(alarm).toBe(stack.healthCheck.alarm);
  expect(resources[logicalIdOf(stack.healthCheck.alarm)]!.Properties.AlarmActions).toEqual([{ Ref: logicalIdOf(stack.alarmTopic.topic) }]);
}
