import { RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** What a function does with payment-provider secrets: seal new ones (and open them), or only open them. */
export type ProviderSecretsAccess = 'sealAndOpen' | 'open';

/**
 * The KMS key that wraps the data keys sealing vendors' payment-provider secrets (shared/secrets/secret-box.ts).
 * Rotated yearly by KMS; retained with the table, whose sealed secrets would not open without it.
 */
export class ProviderSecretsKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Wraps the data keys of stored payment-provider secrets',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** The grant and the `PROVIDER_KEY_ID` variable the function's secret box reads, in one call. */
  bind(fn: LambdaFunction, access: ProviderSecretsAccess): void {
    this.key.grant(fn, ...(access === 'sealAndOpen' ? ['kms:GenerateDataKey', 'kms:Decrypt'] : ['kms:Decrypt']));
    fn.addEnvironment('PROVIDER_KEY_ID', this.key.keyArn);
  }
}
