import { CfnParameter } from 'aws-cdk-lib';
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

/**
 * The sender address when no `mailFrom` was given: a template parameter without a default, so that the deployment
 * stops before it changes anything ("The following CloudFormation Parameters are missing a value: MailFrom") rather
 * than deploy a service whose every e-mail SES refuses. `-c mailFrom=…` is the usual answer; `--parameters MailFrom=…`
 * works too, and later deployments keep its value.
 */
export function requiredMailFrom(scope: Construct): string {
  return new CfnParameter(scope, 'MailFrom', {
    type: 'String',
    allowedPattern: '[^@\\s<>]+@[^@\\s<>]+\\.[^@\\s<>]+',
    constraintDescription: 'a bare e-mail address (no display name)',
    description: 'Sender address of the e-mails: an SES-verified address, or one at a verified domain. Set it with -c mailFrom=… (docs/deploy.md)',
  }).valueAsString;
}
