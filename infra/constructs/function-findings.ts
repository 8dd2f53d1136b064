import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';

/**
 * cdk-nag findings that every function of the stack (`serviceFunction`) has by design, acknowledged with the reason.
 * Kept apart from `service-function.ts` so that its build settings and these reasons change independently.
 */
export function acknowledgeFunctionFindings(fn: LambdaFunction): void {
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      {
        id: 'AwsSolutions-L1',
        reason: "Node.js 22 is the runtime the bundles are built for (esbuild target node22): it moves with serviceFunction's build settings, not whenever Lambda adds a runtime",
      },
      {
        id: 'AwsSolutions-IAM4',
        reason: 'AWSLambdaBasicExecutionRole grants CloudWatch Logs writes only (log groups, streams, events): what every function needs to log, attached by CDK',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
      },
    ],
    true,
  );
}
