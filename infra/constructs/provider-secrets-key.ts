import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { SealedKind, SecretAccess } from '../../shared/platform/secrets/secret-access.js';
import { SIGNING_KEY_CONTEXT } from '../../shared/catalog/products/signing-keys.js';

const KIND = 'kms:EncryptionContext:kind';
const SIGNING_KEY = `kms:EncryptionContext:${SIGNING_KEY_CONTEXT}`;

/**
 * Values sealed before encryption contexts named their kind, told apart as they were: a signing key by its
 * `signingKey` part, a payment-provider secret by having no part but the tenant. Webhook secrets never lacked a kind.
 */
const LEGACY_CONDITIONS: Partial<Record<SealedKind, Record<string, string>>> = {
  'signing-key': { [KIND]: 'true', [SIGNING_KEY]: 'false' },
  'stripe-secret': { [KIND]: 'true', [SIGNING_KEY]: 'true' },
};

/**
 * How often KMS rotates the key: its longest period. Each of a key's first two rotations adds $1 a month to its $1 for
 * good (docs/cost.md), so a yearly rotation would triple the key's price from its third year, for little: the key never
 * leaves KMS, old material stays to open what it sealed, and a key wrapping a few thousand data keys is far from wearing
 * out. Rotate sooner by hand when a policy asks for it (`aws kms rotate-key-on-demand`, docs/deploy.md).
 */
export const KEY_ROTATION_PERIOD = Duration.days(2560);

/**
 * The KMS key that wraps the data keys of sealed secrets (shared/platform/secrets/secret-box.ts): vendors' payment-provider
 * secrets, products' signing keys and webhooks' signing secrets (one key for all; the encryption context's `kind`
 * tells them apart). A customer key, the one the stack keeps: only with one can each function be let to open only the kinds it
 * needs (`kms:EncryptionContext:kind`). Retained with the table, whose sealed secrets would not open without it.
 * The construct keeps the name it had when it sealed payment-provider secrets alone: a new logical id would be a new
 * key, and every sealed value lost.
 */
export class ProviderSecretsKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: "Wraps the data keys of sealed secrets: payment-provider secrets, products' signing keys, webhooks' secrets",
      enableKeyRotation: true,
      rotationPeriod: KEY_ROTATION_PERIOD,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
  }

  /**
   * The grant and the `PROVIDER_KEY_ID` variable the function's secret box reads, in one call. `access` is the
   * function's entry in `SECRET_ACCESS`, which its secret box enforces too: sealing (the management API) is granted on
   * every kind; opening only, on the listed kinds (`kms:EncryptionContext:kind`), and on values of those kinds sealed
   * before contexts named their kind.
   */
  bind(fn: LambdaFunction, access: SecretAccess): void {
    if (access === 'sealAndOpen') {
      this.key.grant(fn, 'kms:GenerateDataKey', 'kms:Decrypt');
    } else {
      const decrypt = (conditions: Record<string, unknown>) =>
        fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [this.key.keyArn], conditions }));
      decrypt({ StringEquals: { [KIND]: access.open.length === 1 ? access.open[0] : [...access.open] } });
      for (const kind of access.open) {
        const legacy = LEGACY_CONDITIONS[kind];
        if (legacy) decrypt({ Null: legacy });
      }
    }
    fn.addEnvironment('PROVIDER_KEY_ID', this.key.keyArn);
  }
}
