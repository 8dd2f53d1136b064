import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { ssmParameterName } from '../settings.js';

/**
 * A setting as the template uses it: the value as written, or for `ssm:<name>` a reference to that SSM String
 * parameter, which CloudFormation reads at each deployment (the template never holds the value).
 */
export function settingValue(scope: Construct, value: string): string {
  const parameterName = ssmParameterName(value);
  return parameterName === undefined ? value : StringParameter.valueForStringParameter(scope, parameterName);
}
