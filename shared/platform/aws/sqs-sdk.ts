/**
 * The part of SQS's SDK the service uses, which it imports (lazily) through this module: a bundle then holds these
 * commands and the schemas they need, where importing the SDK's own module keeps every SQS operation's (esbuild keeps
 * all of a module that `import()` returns; shared/platform/aws/s3-sdk.ts does the same for S3).
 */
export { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
