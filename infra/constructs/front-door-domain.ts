import { Stack } from 'aws-cdk-lib';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { HostedZone, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import type { Construct } from 'constructs';
import type { CustomDomainSettings } from '../settings.js';
import { settingValue } from './setting-value.js';

/** The vendor's host name on the front door: the name, its certificate (us-east-1) and, when the stack manages it, its zone. */
export type FrontDoorDomain = { domainName: string; certificate: ICertificate; zone?: IHostedZone };

/**
 * The custom domain's certificate for CloudFront, which takes certificates from us-east-1 only: the one given
 * (`certificateArn`, from `infra/edge-certificate-stack.ts` when the app made it), or, for a stack in us-east-1 with
 * the hosted zone, a new one validated by DNS in that zone.
 */
export function frontDoorDomain(scope: Construct, settings: CustomDomainSettings): FrontDoorDomain {
  const zone =
    settings.hostedZone && HostedZone.fromHostedZoneAttributes(scope, 'Zone', { hostedZoneId: settings.hostedZone.hostedZoneId, zoneName: settings.hostedZone.zoneName });
  if (settings.certificateArn) {
    return { domainName: settings.domainName, certificate: Certificate.fromCertificateArn(scope, 'Certificate', settingValue(scope, settings.certificateArn)), zone };
  }
  if (zone && Stack.of(scope).region === 'us-east-1') {
    return { domainName: settings.domainName, certificate: new Certificate(scope, 'Certificate', { domainName: settings.domainName, validation: CertificateValidation.fromDns(zone) }), zone };
  }
  throw new Error(
    `The custom domain ${settings.domainName} is on the front door (CloudFront), which needs a certificate in us-east-1: give certificateArn, ` +
      'or deploy with an explicit account and region so that the app makes one there (bin/app.ts)',
  );
}
