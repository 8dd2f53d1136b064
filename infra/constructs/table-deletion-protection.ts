import { CfnResource, RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId, type AwsSdkCall } from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';

/**
 * The table's deletion protection, turned on right after the table is created rather than by the table itself. The
 * table is retained on a stack's deletion and update but not on a failed create's rollback (`RetainExceptOnCreate`),
 * and a protected table refuses that rollback's delete: the stack would end `ROLLBACK_FAILED` with the table left
 * behind. So this resource turns protection on once the table exists; a create's rollback deletes it first (it is
 * `RetainExceptOnCreate` too), which turns protection off, and then the table. A stack's deletion retains both, so
 * the table stays protected (docs/deploy.md, "Removal").
 */
export class TableDeletionProtection extends Construct {
  constructor(scope: Construct, id: string, table: Table) {
    super(scope, id);
    const protection = (enabled: boolean): AwsSdkCall => ({
      service: 'DynamoDB',
      action: 'updateTable',
      parameters: { TableName: table.tableName, DeletionProtectionEnabled: enabled },
      physicalResourceId: PhysicalResourceId.of(`${table.tableName}-deletion-protection`),
    });
    const resource = new AwsCustomResource(this, 'Resource', {
      onCreate: protection(true),
      onUpdate: protection(true),
      onDelete: protection(false),
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [table.tableArn] }),
      installLatestAwsSdk: false,
      logGroup: new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    resource.node.findAll().forEach((child) => {
      if (child instanceof CfnResource && child.cfnResourceType === 'Custom::AWS') child.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    });
    // CDK's one function behind every AwsCustomResource of the stack (at the stack's root); its policy names the table.
    NagSuppressions.addResourceSuppressions(resource.grantPrincipal as unknown as IConstruct, [
      { id: 'AwsSolutions-IAM4', reason: 'CDK’s own custom resource function: AWSLambdaBasicExecutionRole, CloudWatch Logs writes only' },
    ]);
  }
}
