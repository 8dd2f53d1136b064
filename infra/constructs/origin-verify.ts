import { RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../../shared/platform/http/front-door.js';

/**
 * A generated secret that the stack's CloudFront distribution sends to the HTTP API as `x-origin-verify`, and that the
 * HTTP functions read at run time (`ORIGIN_VERIFY_SECRET_ARN`, `shared/platform/http/front-door.ts`): behind
 * CloudFront, API Gateway sees CloudFront's address, and the functions trust CloudFront's `cloudfront-viewer-address`
 * only on a request that carries this secret, so per-address limits count each viewer, not each CloudFront edge. The
 * functions accept its current and its previous value: it is rotated without a refused request (docs/deploy.md).
 */
export class OriginVerify extends Construct {
  readonly secret: Secret;
  /**
   * A CloudFormation dynamic reference to the current value, resolved when the distribution is created or updated: the
   * template never holds the value. (CloudFront's configuration does, as every custom origin header is kept.)
   */
  readonly token: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Sent by CloudFront to the licensing API as x-origin-verify; the functions accept its current and previous value',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // A generated value that nothing outside the stack holds: it goes with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.token = this.secret.secretValue.unsafeUnwrap();
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'CloudFront reads the value when the distribution is deployed, so it is rotated by a deployment: put a new value, deploy with -c originSecretRotation=<label>, then drop the previous (docs/deploy.md); the functions accept both meanwhile',
      },
    ]);
  }

  /** The functions that answer HTTP requests may read the secret, and know where it is (never its value). */
  trustedBy(functions: LambdaFunction[]): void {
    for (const fn of functions) {
      this.secret.grantRead(fn);
      fn.addEnvironment('ORIGIN_VERIFY_SECRET_ARN', this.secret.secretArn);
    }
  }

  /** The custom header a distribution's origin sends to the API. */
  get originHeaders(): Record<string, string> {
    return { [ORIGIN_VERIFY_HEADER]: this.token };
  }
}
