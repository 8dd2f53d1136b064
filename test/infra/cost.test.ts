import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app.js';
import { FREE_DASHBOARD_METRICS } from '../../infra/constructs/dashboard.js';
import { costTables, customMetricSeries, dashboardMetrics, LIST_PRICES, standingCharges } from '../../infra/cost-floor.js';
import { readDeploySettings } from '../../infra/settings.js';
import { METRIC_DIMENSIONS } from '../../shared/platform/observability/metrics.js';
import { cdkApp } from './support/app.js';

const outRoot = mkdtempSync(join(tmpdir(), 'cost-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

/** The stacks of one stage as `npm run cost` synthesizes them, from these settings (CDK context). */
function stacksOf(context: Record<string, string> = {}): Stack[] {
  const stacks = buildStacks(cdkApp(mkdtempSync(join(outRoot, 'app-'))), readDeploySettings((key) => context[key]), { bundle: false });
  return Object.values(stacks).filter((stack): stack is NonNullable<typeof stack> => stack !== undefined);
}

// Synthesized and priced here rather than in the tests, whose timeout a busy machine can exceed.
const defaults = stacksOf();
const floor = standingCharges(defaults);
const tables = costTables(defaults);
const defaultResources = Object.values(Template.fromStack(defaults[0]!).toJSON().Resources) as { Type: string; Properties: Record<string, any> }[];
const firewallFloor = standingCharges(stacksOf({ edgeRateLimit: '2000', account: '123456789012', region: 'eu-west-1' }));
const apiOnlyFloor = standingCharges(stacksOf({ dashboard: 'false' }));

describe('the fixed floor of a stage', () => {
  it('is at most $2.00 a month at the defaults (no firewall), and without the front door', () => {
    expect(floor.total).toBeLessThanOrEqual(2);
    expect(apiOnlyFloor.total).toBeLessThanOrEqual(2);
    // What it is made of, so that a new standing charge is a decision rather than a surprise.
    expect(floor.lines.map((line) => line.item)).toEqual(['CloudWatch alarms', 'CloudWatch dashboard', 'KMS customer key', 'Secrets Manager']);
  });

  it('counts each metric an alarm reads, and keeps the dashboard within the free 50 metrics', () => {
    const resources = defaultResources;
    const alarms = resources.filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm');
    const metricsRead = alarms.reduce((sum, alarm) => sum + ((alarm.Properties.Metrics as { MetricStat?: unknown }[] | undefined)?.filter((m) => m.MetricStat).length ?? 1), 0);
    expect(floor.lines.find((line) => line.item === 'CloudWatch alarms')!.monthly).toBeCloseTo(metricsRead * LIST_PRICES.alarmMetric);
    const [dashboard] = resources.filter((resource) => resource.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboardMetrics({ id: 'Dashboard', ...dashboard! })).toBeLessThanOrEqual(FREE_DASHBOARD_METRICS);
    expect(floor.lines.find((line) => line.item === 'CloudWatch dashboard')!.monthly).toBe(0);
  });

  it('keeps one customer key, rotated at its longest period, and one secret', () => {
    expect(floor.lines.find((line) => line.item === 'KMS customer key')).toMatchObject({ quantity: 'rotated every 2560 days', monthly: LIST_PRICES.kmsKey });
    expect(floor.lines.find((line) => line.item === 'Secrets Manager')).toMatchObject({ quantity: '1 secret', monthly: LIST_PRICES.secretsManagerSecret });
  });

  it('adds the firewall when it is on: the web ACL and its rule', () => {
    const line = firewallFloor.lines.find((l) => l.item === 'WAF web ACL');
    expect(line).toEqual({ item: 'WAF web ACL', quantity: '1 rule', monthly: LIST_PRICES.wafWebAcl + LIST_PRICES.wafRule });
  });
});

describe('custom metrics', () => {
  it('have dimensions that do not multiply: at most one beside service, of a few fixed values', () => {
    for (const [metric, dimensions] of Object.entries(METRIC_DIMENSIONS) as [string, Record<string, readonly string[]>][]) {
      expect(Object.keys(dimensions).length, metric).toBeLessThanOrEqual(1);
      for (const values of Object.values(dimensions)) expect(values.length, metric).toBeLessThanOrEqual(3);
    }
    const seriesOf = (dimensions: Record<string, readonly string[]>) => Math.max(1, ...Object.values(dimensions).map((values) => values.length));
    expect(customMetricSeries().series).toBe((Object.values(METRIC_DIMENSIONS) as Record<string, readonly string[]>[]).reduce((sum, dimensions) => sum + seriesOf(dimensions), 0));
  });
});

describe('docs/cost.md', () => {
  it('shows the tables `npm run cost` prints at the defaults', () => {
    const doc = readFileSync(new URL('../../docs/cost.md', import.meta.url), 'utf8');
    expect(doc).toContain(tables);
  });
});
