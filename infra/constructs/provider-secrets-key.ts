import { RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { SIGNING_KEY_CONTEXT } from '../../shared/signing/signing-keys.js';

/**
 * What a function does with sealed secrets: seal new ones and open them (payment-provider secrets, products' signing
 * keys), open any, or open products' signing keys only (the edge: it signs answers and reads no vendor's Stripe key).
 */
export type ProviderSecretsAccess = 'sealAndOpen' | 'open' | 'openSigningKeys';

/**
 * The KMS key that wraps the data keys of sealed secrets (shared/secrets/secret-box.ts): vendors' payment-provider
 * secrets and products' signing keys (one key for both; the encryption context tells them apart). Rotated yearly by
 * KMS; retained with the table, whose sealed secrets would not open without it. The construct keeps the name it had
 * when it sealed payment-provider secrets alone: a new logical id would be a new key, and every sealed value lost.
 */
export class ProviderSecretsKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: "Wraps the data keys of sealed secrets: payment-provider secrets and products' signing keys",
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** The grant and the `PROVIDER_KEY_ID` variable the function's secret box reads, in one call. */
  bind(fn: LambdaFunction, access: ProviderSecretsAccess): void {
    if (access === 'openSigningKeys') {
      // Decrypt only data keys sealed with a signing key's context (`{tenant, signingKey}`): not a Stripe secret.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [this.key.keyArn],
          conditions: { Null: { [`kms:EncryptionContext:${SIGNING_KEY_CONTEXT}`]: 'false' } },
        }),
      );
    } else {
      this.key.grant(fn, ...(access === 'sealAndOpen' ? ['kms:GenerateDataKey', 'kms:Decrypt'] : ['kms:Decrypt']));
    }
    fn.addEnvironment('PROVIDER_KEY_ID', this.key.keyArn);
  }
}
