/** What of the table CloudFormation cannot change in place, as its template describes it (DECISIONS §21). */
export type TableShape = {
  KeySchema: unknown;
  AttributeDefinitions: unknown;
  GlobalSecondaryIndexes: { IndexName: string; KeySchema: unknown; Projection: { ProjectionType: string; NonKeyAttributes?: string[] } }[];
  LocalSecondaryIndexes?: unknown;
  StreamSpecification: unknown;
  TimeToLiveSpecification: unknown;
};

/** The shape of a table from its `AWS::DynamoDB::Table` properties; billing, backups and protection are not in it. */
export function tableShapeOf(properties: Record<string, any>): TableShape {
  return {
    KeySchema: properties.KeySchema,
    AttributeDefinitions: properties.AttributeDefinitions,
    GlobalSecondaryIndexes: (properties.GlobalSecondaryIndexes ?? []).map(({ IndexName, KeySchema, Projection }: TableShape['GlobalSecondaryIndexes'][number]) => ({
      IndexName,
      KeySchema,
      Projection,
    })),
    ...(properties.LocalSecondaryIndexes && { LocalSecondaryIndexes: properties.LocalSecondaryIndexes }),
    StreamSpecification: properties.StreamSpecification,
    TimeToLiveSpecification: properties.TimeToLiveSpecification,
  };
}
