import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * The key that signs portal download links (`/dl`, shared/portal/download-link.ts): an SSM `SecureString` parameter
 * named after the stack, made by the first portal container that signs a link (shared/platform/aws/generated-parameter.ts)
 * and read once per container after that. A parameter rather than a Secrets Manager secret: it is free, and nothing
 * but the portal reads it. CloudFormation cannot create a SecureString, so the stack creates nothing: it names the
 * parameter and lets the portal alone read it and create it. It outlives the stack (docs/deploy.md, "Removal"); links
 * live 24 hours, so deleting it only ends the links given out.
 */
export class DownloadLinkKey extends Construct {
  /** `/<stack name>/download-link-key`: each stage, and each region, has its own. */
  readonly parameterName: string;
  private readonly parameterArn: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.parameterName = `/${stack.stackName}/download-link-key`;
    this.parameterArn = stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: this.parameterName.slice(1) });
  }

  /** The read (and create) grant and the `DOWNLOAD_LINK_PARAMETER` variable, in one call. */
  bind(fn: LambdaFunction): void {
    // The parameter is encrypted with SSM's AWS managed key, whose policy lets the account use it through SSM.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:GetParameter', 'ssm:PutParameter'], resources: [this.parameterArn] }));
    fn.addEnvironment('DOWNLOAD_LINK_PARAMETER', this.parameterName);
  }
}
