import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { logicalIdOf } from '../names.js';
import { leadingKeyPatterns, type TableKeyAccess } from '../../shared/platform/data/key-access.js';

/** Whether a function may change items or only read them. */
export type TableAccess = 'read' | 'readWrite';

/** What a function is given of the table: read or write, and which partition keys (`'all'`, or a role of `KEY_ACCESS`). */
export type TableBinding = { access: TableAccess; keys: TableKeyAccess };

/** Actions that change no item: a transaction's condition check is one. */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/**
 * Gives a function the table: the IAM grant (data-plane actions on the table and its indexes,
 * nothing else) and the `TABLE_NAME` variable that `shared/platform/config.ts` reads, in one call, so a
 * function can never have the variable without the permission or the permission without a use.
 */
export function bindTable(fn: LambdaFunction, table: ITable, binding: TableBinding): void {
  if (binding.keys !== 'all') {
    fn.addToRolePolicy(leadingKeyStatement(table, READ_ACTIONS, leadingKeyPatterns(binding.keys, 'read')));
    if (binding.access === 'readWrite') fn.addToRolePolicy(leadingKeyStatement(table, WRITE_ACTIONS, leadingKeyPatterns(binding.keys, 'write')));
  } else if (binding.access === 'readWrite') table.grantReadWriteData(fn);
  else table.grantReadData(fn);
  fn.addEnvironment('TABLE_NAME', table.tableName);
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      {
        id: 'AwsSolutions-IAM5',
        reason: 'Queries on the indexes gsi1…gsi5, which entities share; outside management the dynamodb:LeadingKeys condition limits every item action to the partition keys of the function\'s role',
        appliesTo: [`Resource::<${logicalIdOf(table)}.Arn>/index/*`],
      },
    ],
    true,
  );
}

/**
 * Item actions on some partition keys only: a role's reads on the keys it may read, its changes on the keys it
 * may write. `ForAllValues` holds vacuously for a request that names no partition key (a Scan), so Scan is
 * simply not among the actions; transactions need no action of their own, IAM checks each item against the item
 * action it performs (a condition check against `ConditionCheckItem`).
 */
function leadingKeyStatement(table: ITable, actions: string[], patterns: string[]): PolicyStatement {
  return new PolicyStatement({
    actions,
    resources: [table.tableArn, `${table.tableArn}/index/*`],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } },
  });
}

