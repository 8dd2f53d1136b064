/**
 * The part of Secrets Manager's SDK the service uses, which it imports (lazily) through this module, so that a bundle
 * holds only this command's code and schemas (shared/platform/aws/s3-sdk.ts says why).
 */
export { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
