import { Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import type { Construct } from 'constructs';

export interface EdgeCertificateStackProps extends StackProps {
  readonly domainName: string;
  /** The Route 53 zone that holds the name, where ACM's validation records go. */
  readonly hostedZone: { readonly hostedZoneId: string; readonly zoneName: string };
}

/**
 * The custom domain's certificate for the front door. CloudFront takes certificates from us-east-1 only, so when the
 * service's stack is elsewhere this stack makes it there, validated by DNS in the vendor's zone, and the service's
 * stack reads its ARN through a cross-region reference (as it reads the edge firewall's web ACL).
 */
export class EdgeCertificateStack extends Stack {
  readonly certificate: Certificate;
  readonly certificateArn: string;

  constructor(scope: Construct, id: string, props: EdgeCertificateStackProps) {
    super(scope, id, props);
    if (this.region !== 'us-east-1') throw new Error(`The front door's certificate must be in us-east-1 (CloudFront takes no other), got ${this.region}`);
    const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', props.hostedZone);
    this.certificate = new Certificate(this, 'Certificate', { domainName: props.domainName, validation: CertificateValidation.fromDns(zone) });
    this.certificateArn = this.certificate.certificateArn;
  }
}
