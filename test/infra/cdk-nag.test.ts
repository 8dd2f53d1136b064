import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aspects, type Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { EdgeCertificateStack } from '../../infra/edge-certificate-stack.js';
import { EdgeFirewallStack } from '../../infra/edge-firewall-stack.js';
import { LicensingStack } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

const outRoot = mkdtempSync(join(tmpdir(), 'cdk-nag-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

/**
 * The stacks as `bin/app.ts` builds them, checked as it checks them: every optional part on (the firewall, the custom
 * domain with its us-east-1 certificate, sign-in, a sender, another price class), the defaults, and the API alone.
 */
function checkedStacks(): Stack[] {
  const app = cdkApp(mkdtempSync(join(outRoot, 'app-')));
  const env = { account: '123456789012', region: 'eu-west-1' };
  const hostedZone = { hostedZoneId: 'Z0123456789ABC', zoneName: 'example.com' };
  const firewall = new EdgeFirewallStack(app, 'LicensingServiceEdgeFirewall-test', {
    env: { ...env, region: 'us-east-1' },
    crossRegionReferences: true,
    requestsPer5Minutes: 2000,
  });
  const certificate = new EdgeCertificateStack(app, 'LicensingServiceEdgeCertificate-test', {
    env: { ...env, region: 'us-east-1' },
    crossRegionReferences: true,
    domainName: 'licenses.example.com',
    hostedZone,
  });
  const service = new LicensingStack(app, 'LicensingService-test', {
    env,
    crossRegionReferences: true,
    edgeFirewall: { webAclArn: firewall.webAclArn },
    alarmEmail: 'ops@example.com',
    mailFrom: 'ssm:/licensing/test/mail-from',
    priceClass: PriceClass.PRICE_CLASS_ALL,
    customDomain: { domainName: 'licenses.example.com', certificateArn: certificate.certificateArn, hostedZone },
    oauth: {
      google: { clientId: 'ssm:/licensing/test/google-client-id', clientSecretId: 'licensing/test/google-client-secret' },
      github: { clientId: 'Iv1.0123456789abcdef', clientSecretId: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:licensing/test/github-AbCdEf' },
    },
    bundle: false,
  });
  const plain = new LicensingStack(app, 'LicensingService-plain', { bundle: false });
  const apiOnly = new LicensingStack(app, 'LicensingService-api-only', {
    dashboard: false,
    customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc', hostedZone },
    bundle: false,
  });
  Aspects.of(app).add(new AwsSolutionsChecks());
  return [service, firewall, certificate, plain, apiOnly];
}

const findings = (stack: Stack, kind: 'findError' | 'findWarning') =>
  Annotations.fromStack(stack)[kind]('*', Match.stringLikeRegexp('AwsSolutions-.*')).map((m) => `${m.id}: ${String(m.entry.data).split(':')[0]}`);

// Read up front: the first read synthesizes the whole app, which can take longer than a test's timeout. An unacknowledged
// error can also stop that synthesis itself (cdk.json's `annotationsInValidationReport`): the file then fails with its list.
const results = checkedStacks().map((stack) => ({ name: stack.stackName, errors: findings(stack, 'findError'), warnings: findings(stack, 'findWarning') }));

describe('AWS Solutions checks (cdk-nag)', () => {
  it.each(results.map((result) => [result.name, result] as const))('%s: no error or warning is left unfixed or unacknowledged', (_name, result) => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});
