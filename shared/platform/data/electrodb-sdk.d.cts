import type * as DocumentCommands from '@aws-sdk/lib-dynamodb';
import type { unmarshall } from '@aws-sdk/util-dynamodb';

/** The document commands ElectroDB's client sends. */
type ElectroDbCommands = Pick<
  typeof DocumentCommands,
  | 'BatchGetCommand'
  | 'BatchWriteCommand'
  | 'DeleteCommand'
  | 'GetCommand'
  | 'PutCommand'
  | 'QueryCommand'
  | 'ScanCommand'
  | 'TransactGetCommand'
  | 'TransactWriteCommand'
  | 'UpdateCommand'
>;

declare const electroDbSdk: {
  provide(commands: ElectroDbCommands, marshalling: { unmarshall: typeof unmarshall }): void;
};
export = electroDbSdk;
