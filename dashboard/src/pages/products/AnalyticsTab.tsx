import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { ProductAnalytics } from '../../api/types';
import { BarList } from '../../components/charts/BarList';
import { LineChart, type Series } from '../../components/charts/LineChart';
import { QueryView } from '../../components/QueryView';
import { FeedbackInbox } from './FeedbackInbox';
import { RecentEvents, RecentReasons } from './RecentActivity';
import { useCurrentProduct } from './ProductPage';

const RANGES = [7, 30, 90] as const;
/** More version lines than this would be unreadable; the rest are summed as "other". */
const VERSION_LINES = 5;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function versionSeries(days: ProductAnalytics['days']): Series[] {
  const totals = new Map<string, number>();
  for (const day of days) for (const [version, count] of Object.entries(day.versions)) totals.set(version, (totals.get(version) ?? 0) + count);
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, VERSION_LINES).map(([version]) => version);
  const series = top.map((version) => ({ name: version, values: days.map((day) => day.versions[version] ?? 0) }));
  if (totals.size > top.length) {
    series.push({ name: 'other', values: days.map((day) => Object.entries(day.versions).reduce((sum, [v, n]) => (top.includes(v) ? sum : sum + n), 0)) });
  }
  return series;
}

const sum = (tallies: Record<string, number>) => Object.values(tallies).reduce((total, count) => total + count, 0);

export function AnalyticsTab() {
  const product = useCurrentProduct();
  const [range, setRange] = useState<(typeof RANGES)[number]>(30);
  const to = new Date();
  const from = new Date(to.getTime() - (range - 1) * 86_400_000);
  const analytics = useQuery({
    queryKey: ['products', product.id, 'analytics', range],
    queryFn: () => unwrap(api.GET('/api/products/{id}/analytics', { params: { path: { id: product.id }, query: { from: isoDay(from), to: isoDay(to) } } })),
  });
  return (
    <>
      <div className="filters">
        <label>
          Period
          <select value={range} onChange={(e) => setRange(Number(e.target.value) as (typeof RANGES)[number])}>
            {RANGES.map((days) => (
              <option key={days} value={days}>
                Last {days} days
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryView query={analytics} loading="Loading analytics…">
        {(data) => {
          const labels = data.days.map((day) => day.date);
          const versions = versionSeries(data.days);
          return (
            <>
              <div className="charts charts-wide">
                <LineChart title="Active installs" labels={labels} series={[{ name: 'Active installs', values: data.days.map((day) => day.activeInstalls) }]} />
                {versions.length > 0 ? (
                  <LineChart title="Active installs by version" labels={labels} series={versions} />
                ) : (
                  <figure className="chart">
                    <figcaption>Active installs by version</figcaption>
                    <p className="muted">No installs reported a version in this period.</p>
                  </figure>
                )}
                <LineChart
                  title="Events, feedback and deactivations per day"
                  labels={labels}
                  series={[
                    { name: 'Events', values: data.days.map((day) => sum(day.events)) },
                    { name: 'Feedback', values: data.days.map((day) => sum(day.feedback)) },
                    { name: 'Deactivation reasons', values: data.days.map((day) => sum(day.deactivationReasons)) },
                  ]}
                />
              </div>
              <div className="charts">
                <BarList title="Events" counts={data.totals.events} empty="No usage events in this period." />
                <BarList title="Deactivation reasons" counts={data.totals.deactivationReasons} empty="No deactivation reasons in this period." />
                <BarList title="Feedback by type" counts={data.totals.feedback} empty="No feedback in this period." />
              </div>
            </>
          );
        }}
      </QueryView>
      <FeedbackInbox productId={product.id} />
      <RecentEvents productId={product.id} />
      <RecentReasons productId={product.id} />
    </>
  );
}
