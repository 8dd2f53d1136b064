import type { CfnRecordSet } from 'aws-cdk-lib/aws-route53';
import { AaaaRecord, ARecord, HostedZone, type RecordSet, type RecordTarget } from 'aws-cdk-lib/aws-route53';
import { Construct } from 'constructs';
import type { CustomDomainSettings } from '../settings.js';

/**
 * The logical ids of the custom domain's alias records: the ones the front door's records have had since it first had
 * them (`DashboardSite/AliasRecord`, `AliasRecordIpv6`), kept whatever the records point at. A move from the HTTP API's
 * own domain (`dashboard=false`) to the front door then updates the `A` record in place, from the API's regional name to
 * the distribution: a new resource of the same name and type would be refused ("it already exists") while the old one
 * still stood (docs/deploy.md, "New accounts").
 */
export const SERVICE_RECORD_IDS = { A: 'DashboardSiteAliasRecordC5D530AA', AAAA: 'DashboardSiteAliasRecordIpv6342047B6' } as const;

export interface ServiceRecordsProps {
  readonly domainName: string;
  readonly hostedZone: NonNullable<CustomDomainSettings['hostedZone']>;
  readonly target: RecordTarget;
  /** The front door answers IPv6 as well (`AAAA`); API Gateway's regional names do not. */
  readonly ipv6: boolean;
}

/** The custom domain's alias records in its Route 53 zone, to the front door or (`dashboard=false`) the HTTP API. */
export class ServiceRecords extends Construct {
  readonly records: RecordSet[];

  constructor(scope: Construct, id: string, props: ServiceRecordsProps) {
    super(scope, id);
    const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZone.hostedZoneId, zoneName: props.hostedZone.zoneName });
    const common = { zone, recordName: props.domainName, target: props.target };
    this.records = [new ARecord(this, 'A', common), ...(props.ipv6 ? [new AaaaRecord(this, 'AAAA', common)] : [])];
    for (const record of this.records) {
      const resource = record.node.defaultChild as CfnRecordSet;
      resource.overrideLogicalId(SERVICE_RECORD_IDS[record instanceof AaaaRecord ? 'AAAA' : 'A']);
    }
  }
}
