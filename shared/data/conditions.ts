/** True when DynamoDB refused a write because its condition did not hold (as thrown through ElectroDB). */
export function isConditionFailure(error: unknown): boolean {
  for (let e = error as { name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.name === 'ConditionalCheckFailedException') return true;
  }
  return false;
}

type TransactionOutcome = { canceled: boolean; data: ReadonlyArray<{ rejected?: boolean; code?: string }> };

/** The positions of the items whose conditions failed in a cancelled ElectroDB write transaction. */
export function failedConditions(outcome: TransactionOutcome): number[] {
  if (!outcome.canceled) return [];
  return outcome.data.flatMap((item, index) => (item.code === 'ConditionalCheckFailed' ? [index] : []));
}
