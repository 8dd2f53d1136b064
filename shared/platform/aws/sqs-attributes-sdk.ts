/**
 * SQS's queue attributes, for the health check alone: a module of their own, so that the bundles that only send
 * messages (shared/platform/aws/sqs-sdk.ts) do not carry this command's code.
 */
export { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
