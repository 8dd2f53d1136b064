import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsClientOptions } from '../clients.js';
import type { CoreConfig } from '../config.js';

/**
 * Sends JSON messages to one SQS queue (locally, the in-process queue's endpoint), with one client per container.
 * `variable` names the queue's setting, for the error when a function that sends has none.
 */
export function queueSender<Message>(config: CoreConfig, queueUrl: string | undefined, variable: string): (message: Message) => Promise<void> {
  const sqs = new SQSClient(awsClientOptions(config, config.endpoints.sqs));
  return async (message) => {
    if (!queueUrl) throw new Error(`${variable} is not configured`);
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
  };
}
