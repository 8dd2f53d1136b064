import { CustomResource, Duration } from 'aws-cdk-lib';
import type { BucketDeployment } from 'aws-cdk-lib/aws-s3-deployment';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { logicalIdOf } from '../names.js';
import { acknowledgeFunctionFindings } from './function-findings.js';
import { serviceFunction } from './service-function.js';

/**
 * Runs `infra/handlers/retire-dashboard-assets.ts` after every deployment of the dashboard (`after`, whose source
 * changes with each build): assets the new build no longer names are tagged retired, and the bucket's lifecycle rule
 * expires them a month later. A custom resource with no framework function: the handler answers CloudFormation itself.
 */
export class DashboardAssetRetirement extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: { bucket: IBucket; after: BucketDeployment; bundle: boolean }) {
    super(scope, id);
    this.function = serviceFunction(this, 'Function', {
      entry: 'infra/handlers/retire-dashboard-assets.ts',
      memorySize: 256,
      timeout: Duration.minutes(2),
      environment: {},
      bundle: props.bundle,
    });
    acknowledgeFunctionFindings(this.function);
    props.bucket.grantRead(this.function);
    props.bucket.grantPut(this.function);
    const resource = new CustomResource(this, 'Resource', {
      serviceToken: this.function.functionArn,
      resourceType: 'Custom::DashboardAssetRetirement',
      // The deployment's source changes with each build, and so does this resource: it runs after every deployment.
      properties: { BucketName: props.bucket.bucketName, Build: props.after.objectKeys },
    });
    resource.node.addDependency(props.after);
    NagSuppressions.addResourceSuppressions(
      this.function,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: "CDK's read and put grants on the dashboard bucket's objects: the function lists the build's assets and retags the stale ones",
          appliesTo: ['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:Abort*', `Resource::<${logicalIdOf(props.bucket)}.Arn>/*`],
        },
      ],
      true,
    );
  }
}
