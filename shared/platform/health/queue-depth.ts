import type { CoreConfig } from '../config.js';
import { awsClientOptions } from '../clients.js';

type Sdk = typeof import('../aws/sqs-attributes-sdk.js');

/** How many messages a queue holds for receiving now (`ApproximateNumberOfMessages`), by SQS or the local queue. */
export function queueDepth(config: Pick<CoreConfig, 'region'> & { endpoints: Pick<CoreConfig['endpoints'], 'sqs'> }): (queueUrl: string) => Promise<number> {
  let sqs: Promise<{ client: InstanceType<Sdk['SQSClient']>; sdk: Sdk }> | undefined;
  return async (queueUrl) => {
    // Imported on the first call, as every SQS module of the service is.
    sqs ??= import('../aws/sqs-attributes-sdk.js').then((sdk) => ({ sdk, client: new sdk.SQSClient(awsClientOptions(config, config.endpoints.sqs)) }));
    const { client, sdk } = await sqs;
    const { Attributes } = await client.send(new sdk.GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
  };
}
