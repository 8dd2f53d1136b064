import type * as DocumentCommands from '@aws-sdk/lib-dynamodb';
import type { unmarshall } from '@aws-sdk/util-dynamodb';

declare const electroDbSdk: {
  provide(commands: typeof DocumentCommands, marshalling: { unmarshall: typeof unmarshall }): void;
};
export = electroDbSdk;
