import { RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The header by which the functions know a request came through one of the stack's distributions (`shared/platform/http/client-address.ts`). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * A generated secret that the stack's CloudFront distributions send to the HTTP API as `x-origin-verify`, and that
 * the HTTP functions get as `ORIGIN_VERIFY_TOKEN`: behind CloudFront, API Gateway sees CloudFront's address, and the
 * functions trust CloudFront's `cloudfront-viewer-address` only on a request that carries this secret, so per-address
 * limits (login, register) count each viewer, not each CloudFront edge.
 */
export class OriginVerify extends Construct {
  readonly secret: Secret;
  /** A CloudFormation dynamic reference, resolved at deployment: the template never holds the value. */
  readonly token: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Sent by CloudFront to the licensing API as x-origin-verify',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // A generated value that nothing outside the stack holds: it goes with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.token = this.secret.secretValue.unsafeUnwrap();
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'CloudFront and the functions read the value at deployment, so a rotation outside a deployment would refuse every request; it is replaced by redeploying with a new secret',
      },
    ]);
  }

  /** The functions that answer HTTP requests learn the secret. */
  trustedBy(functions: LambdaFunction[]): void {
    for (const fn of functions) fn.addEnvironment('ORIGIN_VERIFY_TOKEN', this.token);
  }

  /** The custom header a distribution's origin sends to the API. */
  get originHeaders(): Record<string, string> {
    return { [ORIGIN_VERIFY_HEADER]: this.token };
  }
}
