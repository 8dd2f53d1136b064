import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { GLOBAL_INDEXES, TABLE_KEYS, TABLE_STREAM_VIEW } from '../../shared/platform/data/table-schema.js';

/**
 * The service's one table, from `shared/platform/data/table-schema.ts`. Made directly in the stack, under the id it
 * has had since the first release: a new logical id would be a new, empty table (test/infra/update-safety.test.ts).
 */
export function serviceTable(stack: Stack): Table {
  const table = new Table(stack, 'Table', {
    partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
    timeToLiveAttribute: TABLE_KEYS.timeToLive,
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    stream: StreamViewType[TABLE_STREAM_VIEW],
    // Vendors' licenses and customers: the table outlives the stack (but not a failed first deployment's rollback),
    // and once created DynamoDB refuses to delete it until someone turns protection off on purpose (docs/deploy.md):
    // that protection is `TableDeletionProtection`'s, which a create's rollback undoes first.
    removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
  });
  for (const index of GLOBAL_INDEXES) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType[index.projection.type],
    });
  }
  return table;
}
