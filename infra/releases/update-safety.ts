import { fullDiff, ResourceImpact, type ResourceDifference } from '@aws-cdk/cloudformation-diff';
import type { Template } from './release-stacks.js';

/**
 * What a stage holds that an update must never lose (DECISIONS §21): the table, buckets, keys, secrets, the
 * distribution and DNS records, and what else keeps state a new resource would not have: queued messages, the alarm
 * topic's confirmed subscriptions, the certificate and custom domain that DNS points at, the logs.
 */
const STATEFUL = new Set([
  'AWS::DynamoDB::Table',
  'AWS::S3::Bucket',
  'AWS::KMS::Key',
  'AWS::SecretsManager::Secret',
  'AWS::CloudFront::Distribution',
  'AWS::Route53::RecordSet',
  'AWS::SQS::Queue',
  'AWS::SNS::Topic',
  'AWS::SNS::Subscription',
  'AWS::CertificateManager::Certificate',
  'AWS::ApiGatewayV2::DomainName',
  'AWS::Logs::LogGroup',
]);

/**
 * The property that names a resource. CloudFormation refuses to replace a resource whose name it was given and keeps:
 * the new one would take the old one's name while the old one still exists, and the whole update rolls back.
 */
const NAME_PROPERTIES: Record<string, string> = {
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::CloudWatch::Alarm': 'AlarmName',
  'AWS::CloudWatch::Dashboard': 'DashboardName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::Events::Rule': 'Name',
  'AWS::CloudFront::Function': 'Name',
  'AWS::CloudFront::OriginRequestPolicy': 'OriginRequestPolicyConfig.Name',
  'AWS::CloudFront::ResponseHeadersPolicy': 'ResponseHeadersPolicyConfig.Name',
  'AWS::CloudFront::OriginAccessControl': 'OriginAccessControlConfig.Name',
  'AWS::ApiGatewayV2::DomainName': 'DomainName',
};

const REPLACED = new Set([ResourceImpact.WILL_REPLACE, ResourceImpact.MAY_REPLACE]);

type Properties = Record<string, unknown>;
type Index = { IndexName: string; KeySchema: unknown; Projection: unknown };
type TableProperties = {
  GlobalSecondaryIndexes?: Index[];
  StreamSpecification?: { StreamViewType?: string };
  TimeToLiveSpecification?: { AttributeName?: string; Enabled?: boolean };
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const valueAt = (properties: Properties | undefined, path: string) =>
  path.split('.').reduce<unknown>((value, key) => (value as Properties | undefined)?.[key], properties);

/**
 * What CloudFormation cannot do to an existing table in place, though its resource specification calls the
 * properties updatable (so `cdk diff` shows a plain update, and the deployment fails and rolls back): change an
 * index's keys or projection ("Cannot update GSI's properties other than Provisioned Throughput…"), add or remove more
 * than one index in one update, change an enabled stream's view, or move TTL to another attribute while it is on.
 */
export function tableHazards(logicalId: string, before: TableProperties, after: TableProperties): string[] {
  const hazards: string[] = [];
  const oldIndexes = new Map((before.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  const newIndexes = new Map((after.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  for (const [name, index] of newIndexes) {
    const old = oldIndexes.get(name);
    if (old && !same(old.KeySchema, index.KeySchema)) hazards.push(`${logicalId}: index ${name} changes its keys`);
    if (old && !same(old.Projection, index.Projection)) hazards.push(`${logicalId}: index ${name} changes its projection`);
  }
  const added = [...newIndexes.keys()].filter((name) => !oldIndexes.has(name));
  const removed = [...oldIndexes.keys()].filter((name) => !newIndexes.has(name));
  if (added.length + removed.length > 1) {
    hazards.push(`${logicalId}: ${[...added.map((n) => `adds ${n}`), ...removed.map((n) => `removes ${n}`)].join(', ')} in one update (one index at a time)`);
  }
  const [oldView, newView] = [before.StreamSpecification?.StreamViewType, after.StreamSpecification?.StreamViewType];
  if (oldView && newView && oldView !== newView) hazards.push(`${logicalId}: the stream's view changes from ${oldView} to ${newView}`);
  const [oldTtl, newTtl] = [before.TimeToLiveSpecification, after.TimeToLiveSpecification];
  if (oldTtl?.Enabled && newTtl?.Enabled && oldTtl.AttributeName !== newTtl.AttributeName) {
    hazards.push(`${logicalId}: TTL moves from ${oldTtl.AttributeName} to ${newTtl.AttributeName}`);
  }
  return hazards;
}

function resourceHazards(logicalId: string, diff: ResourceDifference): string[] {
  const type = diff.oldResourceType ?? diff.newResourceType ?? '';
  if (diff.isAddition) return [];
  if (diff.resourceTypeChanged) return [`${logicalId}: its type changes from ${diff.oldResourceType} to ${diff.newResourceType}`];
  const hazards: string[] = [];
  const impact = diff.changeImpact;
  if (STATEFUL.has(type)) {
    if (diff.isRemoval) hazards.push(`${logicalId} (${type}) is removed from the stack`);
    else if (REPLACED.has(impact)) hazards.push(`${logicalId} (${type}) would be replaced (${replacingProperties(diff).join(', ')})`);
  }
  const nameProperty = NAME_PROPERTIES[type];
  const name = nameProperty && valueAt(diff.oldProperties, nameProperty);
  if (REPLACED.has(impact) && name !== undefined && same(name, valueAt(diff.newProperties, nameProperty))) {
    hazards.push(`${logicalId} (${type}) would be replaced under the name it keeps (${nameProperty}), which CloudFormation refuses`);
  }
  if (type === 'AWS::DynamoDB::Table' && diff.isUpdate) {
    hazards.push(...tableHazards(logicalId, diff.oldProperties as TableProperties, diff.newProperties as TableProperties));
  }
  return hazards;
}

const replacingProperties = (diff: ResourceDifference) =>
  Object.entries(diff.propertyUpdates)
    .filter(([, change]) => change.changeImpact && REPLACED.has(change.changeImpact))
    .map(([name]) => name);

/**
 * What would go wrong if a stage deployed from `previous` were updated to `next`, by CloudFormation's template diff
 * (`@aws-cdk/cloudformation-diff`, what `cdk diff` uses): a stateful resource replaced or removed, a named resource
 * replaced, a table change CloudFormation cannot make in place. Empty: the update is safe.
 */
export function updateHazards(previous: Template, next: Template): string[] {
  const hazards: string[] = [];
  fullDiff(previous, next).resources.forEachDifference((logicalId, diff) => hazards.push(...resourceHazards(logicalId, diff)));
  return hazards;
}
