import { Duration } from 'aws-cdk-lib';
import { HeadersFrameOption, HeadersReferrerPolicy, ResponseHeadersPolicy, type ResponseSecurityHeadersBehavior } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { dashboardContentSecurityPolicy } from '../dashboard-headers.js';
import { accountWideName } from '../names.js';

/** CloudFront's limit on a policy's name. */
export const POLICY_NAME_LENGTH = 128;

/** Browsers keep to HTTPS for two years, on every subdomain (the front door answers HTTPS only). */
const HSTS = { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true };

/**
 * What the front door adds to every answer of the service's paths (`/api`, `/v1`, …, and release files): HTTPS only,
 * no type sniffing, no framing, no referrer. No Content-Security-Policy: the answers are JSON, redirects and files,
 * and the one page among them (`/docs`) sends its own.
 */
export function apiResponseHeaders(scope: Construct, id: string): ResponseHeadersPolicy {
  return new ResponseHeadersPolicy(scope, id, {
    responseHeadersPolicyName: accountWideName(scope, id, POLICY_NAME_LENGTH),
    comment: 'Licensing service: security headers of the API and release files',
    securityHeadersBehavior: {
      strictTransportSecurity: HSTS,
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: false },
    },
  });
}

/** The dashboard's files: the same protections and its Content-Security-Policy (`infra/dashboard-headers.ts`). */
export function dashboardResponseHeaders(scope: Construct, id: string, props: { uploadOrigin: string }): ResponseHeadersPolicy {
  const securityHeadersBehavior: ResponseSecurityHeadersBehavior = {
    strictTransportSecurity: HSTS,
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
    referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
    contentSecurityPolicy: { contentSecurityPolicy: dashboardContentSecurityPolicy(props.uploadOrigin), override: true },
  };
  return new ResponseHeadersPolicy(scope, id, {
    responseHeadersPolicyName: accountWideName(scope, id, POLICY_NAME_LENGTH),
    comment: 'Licensing service: security headers and CSP of the dashboard',
    securityHeadersBehavior,
  });
}
