import type { App } from 'aws-cdk-lib';
import type { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { EdgeCertificateStack } from './edge-certificate-stack.js';
import { EdgeFirewallStack } from './edge-firewall-stack.js';
import type { DeploySettings } from './settings.js';
import { LicensingStack } from './stack.js';

/**
 * The stacks of one stage, as `bin/app.ts` deploys them: `LicensingService-<stage>` in the stage's region and, when
 * needed, the small stacks CloudFront takes from us-east-1. Those are named after the stage and its region, so the same
 * stage deployed in a second region of the account has its own (docs/deploy.md, "A second region").
 * `bundle: false` is for tests (inline stand-ins instead of esbuild and Vite).
 */
export function buildStacks(app: App, settings: DeploySettings, options: { bundle?: boolean } = {}) {
  const { account, region, stage, customDomain } = settings;
  const frontDoor = settings.dashboard !== false;
  const edgeStackName = (kind: string) => `LicensingServiceEdge${kind}-${stage}-${region}`;

  const edgeFirewall =
    settings.edgeRateLimit === undefined
      ? undefined
      : new EdgeFirewallStack(app, edgeStackName('Firewall'), {
          description: `Licensing service (${stage}, ${region}): WAF web ACL of the edge firewall (CloudFront scope, us-east-1)`,
          env: { account, region: 'us-east-1' },
          crossRegionReferences: true,
          requestsPer5Minutes: settings.edgeRateLimit,
        });

  // The front door's certificate must be in us-east-1: made there by a stack of its own when the service is elsewhere.
  const edgeCertificate =
    frontDoor && customDomain?.hostedZone && !customDomain.certificateArn && region !== 'us-east-1'
      ? new EdgeCertificateStack(app, edgeStackName('Certificate'), {
          description: `Licensing service (${stage}, ${region}): certificate of ${customDomain.domainName} on the front door (us-east-1)`,
          env: { account, region: 'us-east-1' },
          crossRegionReferences: true,
          domainName: customDomain.domainName,
          hostedZone: customDomain.hostedZone,
        })
      : undefined;

  const service = new LicensingStack(app, `LicensingService-${stage}`, {
    description: `Licensing service (${stage}): HTTP API, one function per surface, one DynamoDB table`,
    ...(account || region ? { env: { account, region } } : {}),
    ...((edgeFirewall || edgeCertificate) && { crossRegionReferences: true }),
    ...(edgeFirewall && { edgeFirewall: { webAclArn: edgeFirewall.webAclArn } }),
    dashboard: frontDoor,
    ...(settings.originSecretRotation && { originSecretRotation: settings.originSecretRotation }),
    ...(settings.priceClass && { priceClass: settings.priceClass as PriceClass }),
    publicBaseUrl: settings.publicBaseUrl,
    dashboardUrl: settings.dashboardUrl,
    mailFrom: settings.mailFrom,
    allowDefaultMailFrom: settings.allowDefaultMailFrom,
    alarmEmail: settings.alarmEmail,
    customDomain: customDomain && edgeCertificate ? { ...customDomain, certificateArn: edgeCertificate.certificateArn } : customDomain,
    oauth: settings.oauth,
    registration: settings.registration,
    ...(options.bundle === false && { bundle: false }),
  });
  return { service, edgeFirewall, edgeCertificate };
}
