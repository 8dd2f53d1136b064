import type { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsClientOptions } from '../clients.js';
import type { CoreConfig } from '../config.js';

export type SqsSdk = typeof import('./sqs-sdk.js');
/** SQS's SDK, loaded by the first message a container sends: not at cold start (see `queueSender`). */
export const loadSqsSdk = (): Promise<SqsSdk> => import('./sqs-sdk.js');

/**
 * Sends JSON messages to one SQS queue (locally, the in-process queue's endpoint), with one client per container.
 * `variable` names the queue's setting, for the error when a function that sends has none. The SQS client is loaded
 * and built on the first message: most edge and public containers send none (a usage message goes out on an
 * install's first check of a day), and their cold start does not wait for it.
 */
export function queueSender<Message>(config: CoreConfig, queueUrl: string | undefined, variable: string): (message: Message) => Promise<void> {
  let sqs: Promise<{ client: SQSClient; Send: typeof SendMessageCommand }> | undefined;
  const load = async () => {
    const { SQSClient, SendMessageCommand: Send } = await loadSqsSdk();
    return { client: new SQSClient(awsClientOptions(config, config.endpoints.sqs)), Send };
  };
  return async (message) => {
    if (!queueUrl) throw new Error(`${variable} is not configured`);
    const { client, Send } = await (sqs ??= load());
    await client.send(new Send({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
  };
}
