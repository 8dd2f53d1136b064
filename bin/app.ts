import { App } from 'aws-cdk-lib';
import { LicensingStack } from '../infra/stack.js';

/**
 * The CDK app. Optional settings come from context (`-c dashboardUrl=https://…`) or, failing
 * that, the environment (`DASHBOARD_URL=https://…`). Without `account`/`region` the stack is
 * environment-agnostic: nothing in it looks anything up, so `cdk synth` works offline.
 */
const app = new App();

function setting(contextKey: string, envName: string): string | undefined {
  const value: unknown = app.node.tryGetContext(contextKey) ?? process.env[envName];
  if (value === undefined || value === '') return undefined;
  return String(value);
}

/** Checked here so that a typo fails `cdk synth`, not the first cold start. */
function urlSetting(contextKey: string, envName: string): string | undefined {
  const value = setting(contextKey, envName);
  if (value !== undefined && !URL.canParse(value)) {
    throw new Error(`${contextKey} (${envName}) must be an absolute URL, got "${value}"`);
  }
  return value;
}

const account = setting('account', 'CDK_DEPLOY_ACCOUNT');
const region = setting('region', 'CDK_DEPLOY_REGION');

new LicensingStack(app, 'LicensingService', {
  description: 'Licensing service: HTTP API, one function per surface, one DynamoDB table',
  ...(account || region ? { env: { account, region } } : {}),
  publicBaseUrl: urlSetting('publicBaseUrl', 'PUBLIC_BASE_URL'),
  dashboardUrl: urlSetting('dashboardUrl', 'DASHBOARD_URL'),
  mailFrom: setting('mailFrom', 'MAIL_FROM'),
});
