import { App, Aspects } from 'aws-cdk-lib';
import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EdgeCertificateStack } from '../infra/edge-certificate-stack.js';
import { EdgeFirewallStack } from '../infra/edge-firewall-stack.js';
import { readDeploySettings } from '../infra/settings.js';
import { LicensingStack } from '../infra/stack.js';

/**
 * The CDK app. Every setting comes from CDK context (`cdk.json` or `-c key=value`; `infra/settings.ts`), never
 * from the shell's environment. Without `account`/`region` the stacks are environment-agnostic: nothing in them
 * looks anything up, so `cdk synth` works offline.
 */
const app = new App();
const settings = readDeploySettings((key) => app.node.tryGetContext(key));
const { account, region, stage, customDomain } = settings;
const frontDoor = settings.dashboard !== false;

const edgeFirewall =
  settings.edgeRateLimit === undefined
    ? undefined
    : new EdgeFirewallStack(app, `LicensingServiceEdgeFirewall-${stage}`, {
        description: `Licensing service (${stage}): WAF web ACL of the edge firewall (CloudFront scope, us-east-1)`,
        env: { account, region: 'us-east-1' },
        crossRegionReferences: true,
        requestsPer5Minutes: settings.edgeRateLimit,
      });

// The front door's certificate must be in us-east-1: made there by a stack of its own when the service is elsewhere.
const edgeCertificate =
  frontDoor && customDomain?.hostedZone && !customDomain.certificateArn && region !== 'us-east-1'
    ? new EdgeCertificateStack(app, `LicensingServiceEdgeCertificate-${stage}`, {
        description: `Licensing service (${stage}): certificate of ${customDomain.domainName} on the front door (us-east-1)`,
        env: { account, region: 'us-east-1' },
        crossRegionReferences: true,
        domainName: customDomain.domainName,
        hostedZone: customDomain.hostedZone,
      })
    : undefined;

new LicensingStack(app, `LicensingService-${stage}`, {
  description: `Licensing service (${stage}): HTTP API, one function per surface, one DynamoDB table`,
  ...(account || region ? { env: { account, region } } : {}),
  ...((edgeFirewall || edgeCertificate) && { crossRegionReferences: true }),
  ...(edgeFirewall && { edgeFirewall: { webAclArn: edgeFirewall.webAclArn } }),
  dashboard: frontDoor,
  ...(settings.priceClass && { priceClass: settings.priceClass as PriceClass }),
  publicBaseUrl: settings.publicBaseUrl,
  dashboardUrl: settings.dashboardUrl,
  mailFrom: settings.mailFrom,
  alarmEmail: settings.alarmEmail,
  customDomain: customDomain && edgeCertificate ? { ...customDomain, certificateArn: edgeCertificate.certificateArn } : customDomain,
  oauth: settings.oauth,
  registration: settings.registration,
});

// AWS Solutions checks on every synthesis: a finding that is neither fixed nor acknowledged beside its construct,
// with a reason, fails `cdk synth` and `cdk deploy` (test/infra/cdk-nag.test.ts holds the same line).
Aspects.of(app).add(new AwsSolutionsChecks());
