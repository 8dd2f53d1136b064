/** One item of a write transaction, as ElectroDB builds it. */
type Stored = Record<string, unknown>;
export type TransactItem = {
  Put?: { Item: Stored };
  Update?: { Key: Stored; UpdateExpression: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Stored };
  Delete?: { Key: Stored };
  ConditionCheck?: { Key: Stored };
};

/** The entity an item belongs to: ElectroDB's sort keys start `$<entity>_<version>`. */
export function entityOf(item: TransactItem): string | undefined {
  const key = item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key;
  return /^\$([A-Za-z]+)_\d/.exec(String(key?.sk ?? ''))?.[1];
}
