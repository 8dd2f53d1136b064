import type { DataService, TransactionEntities } from './service.js';
import type { TransactItem } from './transact-item.js';

/**
 * What a request adds to the transaction that makes its change: the audit log's entry (shared/identity/audit), which
 * commits with the change or not at all. The data layer knows it only through this port, which the audit log fills
 * when a request opens its scope, so that the data layer imports no context.
 */
export type TransactionCompanion = {
  /** The items to add to this transaction, or undefined when it is not the one that makes the request's change. */
  addition(data: DataService, items: TransactItem[]): Promise<((tx: TransactionEntities) => unknown[]) | undefined>;
  /** The transaction that carried the addition committed. */
  committed(): void;
};

let provider: () => TransactionCompanion | undefined = () => undefined;

/** What `transact` asks for the companion of the request it runs in. */
export function provideTransactionCompanion(next: () => TransactionCompanion | undefined): void {
  provider = next;
}

export const transactionCompanion = (): TransactionCompanion | undefined => provider();
