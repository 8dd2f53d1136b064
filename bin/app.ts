import { App } from 'aws-cdk-lib';
import { EdgeFirewallStack } from '../infra/edge-firewall-stack.js';
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

/** A whole number, checked here for the same reason; its range is checked by what uses it. */
function integerSetting(contextKey: string, envName: string): number | undefined {
  const value = setting(contextKey, envName);
  if (value !== undefined && !/^\d+$/.test(value)) throw new Error(`${contextKey} (${envName}) must be a whole number, got "${value}"`);
  return value === undefined ? undefined : Number(value);
}

const account = setting('account', 'CDK_DEPLOY_ACCOUNT');
const region = setting('region', 'CDK_DEPLOY_REGION');
/** Requests per 5 minutes per IP address; set, it puts the API behind CloudFront with a WAF rate limit. */
const edgeRateLimit = integerSetting('edgeRateLimit', 'EDGE_RATE_LIMIT');

if (edgeRateLimit !== undefined && (!account || !region)) {
  throw new Error(
    'edgeRateLimit needs an explicit account and region (-c account=123456789012 -c region=eu-west-1, or CDK_DEPLOY_ACCOUNT ' +
      'and CDK_DEPLOY_REGION): its web ACL lives in a stack in us-east-1 that the service stack references across regions',
  );
}
const edgeFirewall =
  edgeRateLimit === undefined
    ? undefined
    : new EdgeFirewallStack(app, 'LicensingServiceEdgeFirewall', {
        description: 'Licensing service: WAF web ACL of the edge firewall (CloudFront scope, us-east-1)',
        env: { account, region: 'us-east-1' },
        crossRegionReferences: true,
        requestsPer5Minutes: edgeRateLimit,
      });

new LicensingStack(app, 'LicensingService', {
  description: 'Licensing service: HTTP API, one function per surface, one DynamoDB table',
  ...(account || region ? { env: { account, region } } : {}),
  ...(edgeFirewall && { crossRegionReferences: true, edgeFirewall: { webAclArn: edgeFirewall.webAclArn } }),
  publicBaseUrl: urlSetting('publicBaseUrl', 'PUBLIC_BASE_URL'),
  dashboardUrl: urlSetting('dashboardUrl', 'DASHBOARD_URL'),
  mailFrom: setting('mailFrom', 'MAIL_FROM'),
});
