import { Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ROUTES, type Surface } from './routes.js';

/** WAF counts a rate-based rule's requests over this window and allows no limit below 10 in it. */
const RATE_WINDOW_SECONDS = 300;
const MIN_RATE_LIMIT = 10;
const MAX_RATE_LIMIT = 2_000_000_000;
const TOO_MANY_REQUESTS_BODY = 'too-many-requests';

export interface EdgeFirewallStackProps extends StackProps {
  /** Requests one IP address may make in 5 minutes to the service's paths; beyond it WAF answers 429. */
  readonly requestsPer5Minutes: number;
}

/**
 * The edge firewall's web ACL. A CloudFront web ACL must live in us-east-1, so it has a stack of its
 * own there; the service's stack puts it on its front door (an HTTP API cannot carry a web ACL itself),
 * reading its ARN through a cross-region reference. The rate rule counts the plugin-facing paths only
 * (`rateLimitedPaths`): not Stripe's shared addresses, vendors' portal servers or the dashboard.
 */
export class EdgeFirewallStack extends Stack {
  readonly webAcl: CfnWebACL;
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: EdgeFirewallStackProps) {
    super(scope, id, props);
    const limit = props.requestsPer5Minutes;
    if (!Number.isInteger(limit) || limit < MIN_RATE_LIMIT || limit > MAX_RATE_LIMIT) {
      throw new Error(`The edge rate limit must be a whole number of requests per 5 minutes from ${MIN_RATE_LIMIT} to ${MAX_RATE_LIMIT}, got ${limit}`);
    }
    if (this.region !== 'us-east-1') throw new Error(`The edge firewall's stack must be in us-east-1 (CloudFront web ACLs live there), got ${this.region}`);

    const metrics = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Licensing service edge: per-IP rate limit on the plugin-facing paths of the front door',
      defaultAction: { allow: {} },
      visibilityConfig: metrics('licensing-edge'),
      // The service's own error shape (DECISIONS §12), so plugins read WAF's refusal as they read the service's.
      customResponseBodies: { [TOO_MANY_REQUESTS_BODY]: { contentType: 'APPLICATION_JSON', content: '{"error":"Too many requests"}' } },
      rules: [
        {
          name: 'rate-limit-per-ip',
          priority: 0,
          statement: { rateBasedStatement: { limit, aggregateKeyType: 'IP', evaluationWindowSec: RATE_WINDOW_SECONDS, scopeDownStatement: pluginPaths() } },
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: TOO_MANY_REQUESTS_BODY,
                // The block lifts once the address's count over the window falls below the limit: at most a window away.
                responseHeaders: [{ name: 'retry-after', value: String(RATE_WINDOW_SECONDS) }],
              },
            },
          },
          visibilityConfig: metrics('licensing-edge-rate-limit'),
        },
      ],
    });
    this.webAclArn = this.webAcl.attrArn;
  }
}

/** The surfaces plugins call: the licensing API (`/v1`, and the Composer repository, `/composer`) and the public API (`/public/v1`). */
const PLUGIN_SURFACES: readonly Surface[] = ['edge', 'public'];

/** A route's fixed part: `/v1/{proxy+}` → `/v1/`, `/v1/webhooks/stripe/{userId}` → `/v1/webhooks/stripe/`. */
const fixedPart = (path: string) => (path.includes('{') ? path.slice(0, path.indexOf('{')) : path);

/**
 * The paths the rate rule counts, from `ROUTES`: those of the plugin-facing surfaces, less the more specific routes of
 * other surfaces under them. Stripe delivers every vendor's events from a few shared addresses (`/v1/webhooks/stripe/…`)
 * and a vendor's portal server calls for all its customers from one (`/v1/portal/…`): counted per address, either would
 * be refused as one busy caller. The hosted portal's sign-in (`/public/v1/portal/sign-in`, buyers' browsers) is limited by
 * the service per address and e-mail instead. The dashboard's files are not counted either (a visit loads a dozen cached files).
 */
export function rateLimitedPaths(): { prefix: string; except: string[] }[] {
  const counted = [...new Set(ROUTES.filter((route) => PLUGIN_SURFACES.includes(route.surface)).map((route) => fixedPart(route.path)))];
  return counted.map((prefix) => ({
    prefix,
    except: [
      ...new Set(ROUTES.filter((route) => !PLUGIN_SURFACES.includes(route.surface) && route.path.startsWith(prefix)).map((route) => fixedPart(route.path))),
    ],
  }));
}

/** A request to one of `rateLimitedPaths` and to none of its exceptions. */
function pluginPaths(): CfnWebACL.StatementProperty {
  const startsWith = (prefix: string): CfnWebACL.StatementProperty => ({
    byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'STARTS_WITH', searchString: prefix, textTransformations: [{ priority: 0, type: 'NONE' }] },
  });
  // WAF's OR takes two statements at least.
  const anyOf = (statements: CfnWebACL.StatementProperty[]): CfnWebACL.StatementProperty =>
    statements.length === 1 ? statements[0]! : { orStatement: { statements } };
  return anyOf(
    rateLimitedPaths().map(({ prefix, except }) =>
      except.length === 0 ? startsWith(prefix) : { andStatement: { statements: [startsWith(prefix), { notStatement: { statement: anyOf(except.map(startsWith)) } }] } },
    ),
  );
}
