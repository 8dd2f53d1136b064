import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { METRIC_DIMENSIONS } from '../shared/platform/observability/metrics.js';
import { FREE_DASHBOARD_METRICS } from './constructs/dashboard.js';

/**
 * List prices (us-east-1, on demand, November 2026: the AWS pricing pages), per month unless said otherwise. Each is a
 * standing charge of a resource the template declares, billed whatever the traffic, or the price of a request that
 * an idle stage still makes.
 */
export const LIST_PRICES = {
  /** CloudWatch: each metric an alarm reads, at standard resolution (a metric math alarm reads several). */
  alarmMetric: 0.1,
  compositeAlarm: 0.5,
  /** A dashboard beyond the free tier's three of up to 50 metrics each, per account. */
  dashboard: 3,
  /** KMS: a customer key, and each of its first two rotations, which add $1 a month each for good. */
  kmsKey: 1,
  kmsRotation: 1,
  secretsManagerSecret: 0.4,
  wafWebAcl: 5,
  wafRule: 1,
  /** A custom metric series (one metric with one set of dimension values), in each month it is written. */
  customMetricSeries: 0.3,
  sqsRequestsPerMillion: 0.4,
  lambdaRequestsPerMillion: 0.2,
  lambdaGbSecond: 0.0000133334,
  apiRequestsPerMillion: 1,
  /** CloudFront's HTTPS requests in North America ($1.20 in Europe). */
  cloudFrontRequestsPerMillion: 1,
  s3GetsPerThousand: 0.0004,
  logsIngestedPerGb: 0.5,
} as const;

/** What a key costs once it has been rotated as often as it will be in this many years: a stage runs for years. */
const KEY_PRICE_HORIZON_YEARS = 3;
const HOURS_PER_MONTH = 730;
/**
 * Lambda's pollers long-poll each queue it feeds a function from, empty or not (20 s waits): AWS publishes no figure;
 * about 0.4 to 0.65 million requests a month a queue are what accounts report. The higher one is counted.
 */
const IDLE_RECEIVES_PER_QUEUE = 650_000;
/** A scheduled run that finds nothing to do: a tenth of a second of its memory, its three platform log lines. */
const IDLE_RUN_SECONDS = 0.1;
const IDLE_RUN_LOG_BYTES = 350;
/** What one health check run asks of the services it looks through: the front door twice, the API and S3 once each. */
const HEALTH_CHECK_REQUESTS = { cloudFront: 2, api: 1, lambda: 1, s3Gets: 1 };

export type CostLine = { item: string; quantity: string; monthly: number };
type Resource = { id: string; Type: string; Properties?: Record<string, any> };

/** Every resource of the stacks given, as their templates declare them, with its logical id. */
function resourcesOf(stacks: Stack[]): Resource[] {
  return stacks.flatMap((stack) =>
    Object.entries(Template.fromStack(stack).toJSON().Resources as Record<string, Omit<Resource, 'id'>>).map(([id, resource]) => ({ id, ...resource })),
  );
}

/** The metrics one alarm reads: the one it names, or each metric of its math. */
function alarmMetrics(alarm: Resource): number {
  const metrics = (alarm.Properties?.Metrics ?? []) as { MetricStat?: unknown }[];
  return metrics.length ? metrics.filter((m) => m.MetricStat).length : 1;
}

/** The metrics a dashboard's graphs reference, read from its body (tokens stand in as placeholders). */
export function dashboardMetrics(dashboard: Resource): number {
  const body = dashboard.Properties?.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
  const text = typeof body === 'string' ? body : body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'token')).join('');
  const widgets = (JSON.parse(text) as { widgets: { properties: { metrics?: unknown[][] } }[] }).widgets;
  return widgets.flatMap((widget) => widget.properties.metrics ?? []).filter((metric) => typeof metric[0] === 'string').length;
}

/** The monthly price of a customer key with its rotation, `KEY_PRICE_HORIZON_YEARS` into its life. */
function keyPrice(key: Resource): number {
  if (!key.Properties?.EnableKeyRotation) return LIST_PRICES.kmsKey;
  const periodDays = Number(key.Properties.RotationPeriodInDays ?? 365);
  return LIST_PRICES.kmsKey + LIST_PRICES.kmsRotation * Math.min(2, Math.floor((KEY_PRICE_HORIZON_YEARS * 365) / periodDays));
}

const money = (value: number) => Math.round(value * 100) / 100;
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * The fixed floor: what the stacks' resources cost a month before any traffic, at list prices. The three dashboards of
 * up to 50 metrics each that CloudWatch gives every account are counted free (a bigger or a fourth dashboard is not);
 * no other free tier is counted, so it is the floor of every stage of an account, not only of the first.
 */
export function standingCharges(stacks: Stack[]): { lines: CostLine[]; total: number } {
  const resources = resourcesOf(stacks);
  const ofType = (type: string) => resources.filter((resource) => resource.Type === type);
  const lines: CostLine[] = [];
  const alarms = ofType('AWS::CloudWatch::Alarm');
  const alarmMetricCount = alarms.reduce((sum, alarm) => sum + alarmMetrics(alarm), 0);
  lines.push({ item: 'CloudWatch alarms', quantity: `${plural(alarms.length, 'alarm')}, ${plural(alarmMetricCount, 'metric')} read`, monthly: alarmMetricCount * LIST_PRICES.alarmMetric });
  const composites = ofType('AWS::CloudWatch::CompositeAlarm').length;
  if (composites) lines.push({ item: 'CloudWatch composite alarms', quantity: String(composites), monthly: composites * LIST_PRICES.compositeAlarm });
  for (const dashboard of ofType('AWS::CloudWatch::Dashboard')) {
    const metrics = dashboardMetrics(dashboard);
    const free = metrics <= FREE_DASHBOARD_METRICS;
    lines.push({ item: 'CloudWatch dashboard', quantity: `${plural(metrics, 'metric')}${free ? ` (free up to ${FREE_DASHBOARD_METRICS}, 3 an account)` : ''}`, monthly: free ? 0 : LIST_PRICES.dashboard });
  }
  for (const key of ofType('AWS::KMS::Key')) {
    const days = key.Properties?.EnableKeyRotation ? Number(key.Properties.RotationPeriodInDays ?? 365) : undefined;
    lines.push({ item: 'KMS customer key', quantity: days ? `rotated every ${days} days` : 'not rotated', monthly: keyPrice(key) });
  }
  const secrets = ofType('AWS::SecretsManager::Secret').length;
  if (secrets) lines.push({ item: 'Secrets Manager', quantity: plural(secrets, 'secret'), monthly: secrets * LIST_PRICES.secretsManagerSecret });
  for (const acl of ofType('AWS::WAFv2::WebACL')) {
    const rules = (acl.Properties?.Rules ?? []).length;
    lines.push({ item: 'WAF web ACL', quantity: plural(rules, 'rule'), monthly: LIST_PRICES.wafWebAcl + rules * LIST_PRICES.wafRule });
  }
  for (const line of lines) line.monthly = money(line.monthly);
  return { lines, total: money(lines.reduce((sum, line) => sum + line.monthly, 0)) };
}

/** Runs a month of an EventBridge rule's `rate(…)`. */
function runsPerMonth(rule: Resource): number {
  const [, amount, unit] = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(String(rule.Properties?.ScheduleExpression)) ?? [];
  if (!amount || !unit) return 0;
  const minutes = Number(amount) * (unit.startsWith('minute') ? 1 : unit.startsWith('hour') ? 60 : 1440);
  return (HOURS_PER_MONTH * 60) / minutes;
}

/**
 * What an idle stage still asks for, at list prices: Lambda's pollers' empty receives on its queues, the scheduled
 * jobs' runs, and the health check's requests through the front door. Traffic, not standing charges: the account's
 * free tiers (a million SQS requests, a million Lambda requests and 400,000 GB-seconds, 5 GB of logs, CloudFront's 10
 * million requests) usually cover them, and are not counted here.
 */
export function idleRequests(stacks: Stack[]): { lines: CostLine[]; total: number } {
  const resources = resourcesOf(stacks);
  const lines: CostLine[] = [];
  const queues = resources.filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping' && JSON.stringify(r.Properties?.EventSourceArn ?? '').includes('Queue')).length;
  lines.push({
    item: 'SQS: Lambda polling the queues',
    quantity: `${queues} queues × ~${IDLE_RECEIVES_PER_QUEUE.toLocaleString('en-US')} empty receives`,
    monthly: (queues * IDLE_RECEIVES_PER_QUEUE * LIST_PRICES.sqsRequestsPerMillion) / 1e6,
  });
  const rules = resources.filter((r) => r.Type === 'AWS::Events::Rule' && r.Properties?.ScheduleExpression);
  const runs = rules.reduce((sum, rule) => sum + runsPerMonth(rule), 0);
  /** The memory of the function a rule runs (its target is the function's ARN, `Fn::GetAtt` of its logical id). */
  const memoryOf = (rule: Resource) => {
    const [targetId] = rule.Properties?.Targets?.[0]?.Arn?.['Fn::GetAtt'] ?? [];
    return Number(resources.find((r) => r.id === targetId)?.Properties?.MemorySize ?? 128);
  };
  const gbSeconds = rules.reduce((sum, rule) => sum + (runsPerMonth(rule) * IDLE_RUN_SECONDS * memoryOf(rule)) / 1024, 0);
  lines.push({
    item: 'Lambda: scheduled runs',
    quantity: `${plural(rules.length, 'job')}, ${Math.round(runs).toLocaleString('en-US')} runs`,
    monthly: (runs * LIST_PRICES.lambdaRequestsPerMillion) / 1e6 + gbSeconds * LIST_PRICES.lambdaGbSecond + (runs * IDLE_RUN_LOG_BYTES * LIST_PRICES.logsIngestedPerGb) / 1e9,
  });
  const healthRule = rules.find((rule) => String(rule.Properties?.Description).startsWith('Runs the health check'));
  const checks = healthRule ? runsPerMonth(healthRule) : 0;
  const frontDoor = resources.some((r) => r.Type === 'AWS::CloudFront::Distribution');
  if (checks && frontDoor) {
    const { cloudFront, api, lambda, s3Gets } = HEALTH_CHECK_REQUESTS;
    lines.push({
      item: 'Health check through the front door',
      quantity: `${Math.round(checks).toLocaleString('en-US')} runs × (${cloudFront} CloudFront, ${api} API, ${lambda} Lambda, ${s3Gets} S3 requests)`,
      monthly:
        (checks * (cloudFront * LIST_PRICES.cloudFrontRequestsPerMillion + api * LIST_PRICES.apiRequestsPerMillion + lambda * LIST_PRICES.lambdaRequestsPerMillion)) / 1e6 +
        (checks * s3Gets * LIST_PRICES.s3GetsPerThousand) / 1e3,
    });
  }
  for (const line of lines) line.monthly = money(line.monthly);
  return { lines, total: money(lines.reduce((sum, line) => sum + line.monthly, 0)) };
}

/** The custom metric series the functions can write (`METRIC_DIMENSIONS`): billed in the months they are written. */
export function customMetricSeries(): { series: number; monthly: number } {
  const dimensionSets: Record<string, readonly string[]>[] = Object.values(METRIC_DIMENSIONS);
  const series = dimensionSets.reduce((sum, dimensions) => sum + Object.values(dimensions).reduce((product, values) => product * values.length, 1), 0);
  return { series, monthly: money(series * LIST_PRICES.customMetricSeries) };
}

/** The tables `npm run cost` prints and docs/cost.md shows (test/infra/cost.test.ts holds the two equal). */
export function costTables(stacks: Stack[]): string {
  const floor = standingCharges(stacks);
  const idle = idleRequests(stacks);
  const custom = customMetricSeries();
  const table = (lines: CostLine[], total: { label: string; monthly: number }) =>
    ['| Item | Quantity | A month |', '|---|---|---|', ...lines.map((l) => `| ${l.item} | ${l.quantity} | $${l.monthly.toFixed(2)} |`), `| **${total.label}** | | **$${total.monthly.toFixed(2)}** |`].join('\n');
  return [
    table(floor.lines, { label: 'Fixed floor', monthly: floor.total }),
    '',
    table(idle.lines, { label: 'Idle requests (before the free tiers)', monthly: idle.total }),
    '',
    `Custom metrics: at most ${custom.series} series ($${custom.monthly.toFixed(2)} a month if every one is written in every hour of it; none when idle).`,
  ].join('\n');
}
