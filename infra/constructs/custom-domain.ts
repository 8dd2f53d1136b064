import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ApiMapping, DomainName, type HttpApi, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { CustomDomainSettings } from '../settings.js';
import { settingValue } from './setting-value.js';

export interface CustomDomainProps extends CustomDomainSettings {
  readonly api: HttpApi;
  readonly stage: HttpStage;
}

/**
 * The API under the vendor's own host name: a regional API Gateway domain name mapped to the stage. The certificate
 * is an existing one (`certificateArn`) or, given the Route 53 zone, a new one validated by DNS in that zone; with
 * the zone the stack also adds the alias record (`ServiceRecords`; A: the regional endpoint is IPv4), without it the
 * vendor points a CNAME at `target`.
 */
export class CustomDomain extends Construct {
  readonly domainName: DomainName;
  /** `https://<domainName>`, no trailing slash: the base generated links use by default. */
  readonly url: string;
  /** Where the name must point (CNAME) when the stack does not manage its zone. */
  readonly target: string;
  /** The alias target of the name (`ServiceRecords` adds the record when the stack manages the zone). */
  readonly aliasTarget: RecordTarget;

  constructor(scope: Construct, id: string, props: CustomDomainProps) {
    super(scope, id);
    const zone =
      props.hostedZone && HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZone.hostedZoneId, zoneName: props.hostedZone.zoneName });
    let certificate: ICertificate;
    if (props.certificateArn) certificate = Certificate.fromCertificateArn(this, 'Certificate', settingValue(this, props.certificateArn));
    else if (zone) certificate = new Certificate(this, 'Certificate', { domainName: props.domainName, validation: CertificateValidation.fromDns(zone) });
    else throw new Error(`The custom domain ${props.domainName} needs a certificate ARN or a hosted zone`);

    this.domainName = new DomainName(this, 'DomainName', { domainName: props.domainName, certificate });
    new ApiMapping(this, 'Mapping', { api: props.api, domainName: this.domainName, stage: props.stage });
    this.url = `https://${props.domainName}`;
    this.target = this.domainName.regionalDomainName;
    this.aliasTarget = RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(this.domainName.regionalDomainName, this.domainName.regionalHostedZoneId));
  }
}
