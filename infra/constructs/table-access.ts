import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';

/** How much of the table a function may touch. */
export type TableAccess = 'read' | 'readWrite';

/**
 * Gives a function the table: the IAM grant (data-plane actions on the table and its indexes,
 * nothing else) and the `TABLE_NAME` variable that `shared/config.ts` reads, in one call, so a
 * function can never have the variable without the permission or the permission without a use.
 */
export function bindTable(fn: LambdaFunction, table: ITable, access: TableAccess): void {
  if (access === 'readWrite') table.grantReadWriteData(fn);
  else table.grantReadData(fn);
  fn.addEnvironment('TABLE_NAME', table.tableName);
}
