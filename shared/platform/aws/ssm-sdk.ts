/**
 * The part of SSM's SDK the service uses, which it imports (lazily) through this module, so that a bundle holds only
 * these commands' code and schemas (shared/platform/aws/s3-sdk.ts says why).
 */
export { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
