import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Overview } from '../../api/types';
import { BarList } from '../../components/charts/BarList';
import { CsvDownload } from '../../components/charts/CsvDownload';
import { LineChart } from '../../components/charts/LineChart';
import { formatMoney } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { RevenueChart } from './RevenueChart';
import { GettingStartedChecklist } from './GettingStartedChecklist';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysBefore = (day: string, days: number) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000));

type Share = Overview['installsByVersion'];

/** Nothing to chart: no money, licenses, subscriptions or sites in the range (the checklist says what to do instead). */
const isEmptyOverview = (data: Overview) =>
  data.revenue.total === 0 &&
  data.refunds.count === 0 &&
  data.newLicenses === 0 &&
  data.activeSubscriptions === 0 &&
  data.churnedSubscriptions === 0 &&
  data.installsByDay.every((day) => day.count === 0);
const tally = (shares: Share) => Object.fromEntries(shares.map(({ version, count }) => [version, count]));

/** The KPI tiles: what the vendor reads first. */
function Tiles({ data }: { data: Overview }) {
  const money = (amount: number) => formatMoney(amount, data.currency);
  const tiles: [string, string, string?][] = [
    ['Revenue', money(data.revenue.total), 'gross, in the period'],
    ['Refunds', money(data.refunds.total), `${data.refunds.count} in the period`],
    ['MRR', money(data.mrr), 'now'],
    ['Active subscriptions', String(data.activeSubscriptions), 'now'],
    ['New licenses', String(data.newLicenses), 'in the period'],
    ['Churned subscriptions', String(data.churnedSubscriptions), 'in the period'],
    ['Active installs', String(data.activeInstalls), 'last 7 days of the period'],
  ];
  return (
    <dl className="tiles">
      {tiles.map(([label, value, note]) => (
        <div key={label} className="tile">
          <dt>{label}</dt>
          <dd>
            <span className="tile-value">{value}</span>
            {note && <span className="muted small">{note}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Installs by one kind of version, with its CSV. */
function ShareList({ title, shares, file }: { title: string; shares: Share; file: string }) {
  return (
    <div>
      <BarList title={title} counts={tally(shares)} empty="No update checks reported one in the last 7 days." />
      <CsvDownload label={`Download ${title} as CSV`} filename={file} header={['version', 'sites']} rows={shares.map((s) => [s.version, s.count])} />
    </div>
  );
}

/**
 * The landing page: how the business is doing (DECISIONS §19), for all products or one, over a range of days.
 * Charts are the dashboard's own SVG ones (themed by CSS variables, so dark mode reads), each with its numbers as a
 * table and a CSV download.
 */
export function OverviewPage() {
  const today = isoDay(new Date());
  const [range, setRange] = useState({ from: daysBefore(today, 29), to: today });
  const [productId, setProductId] = useState('');
  const products = useQuery({ queryKey: ['products', 'all-names'], queryFn: () => unwrap(api.GET('/api/products', { params: { query: { per_page: '100' } } })) });
  const overview = useQuery({
    queryKey: ['overview', range, productId],
    queryFn: () => unwrap(api.GET('/api/analytics/overview', { params: { query: { ...range, ...(productId && { product_id: productId }) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <h1>Overview</h1>
      <GettingStartedChecklist />
      <div className="filters">
        <label>
          Product
          <select value={productId} onChange={(e) => setProductId(e.target.value)}>
            <option value="">All products</option>
            {products.data?.items.map((product) => (
              <option key={product.id} value={product.id}>
                {product.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={range.from} max={range.to} onChange={(e) => e.target.value && setRange({ ...range, from: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={range.to} min={range.from} onChange={(e) => e.target.value && setRange({ ...range, to: e.target.value })} />
        </label>
      </div>
      <QueryView query={overview} loading="Loading the overview…" isEmpty={isEmptyOverview} empty={<p>No sales, licenses or sites in this period yet.</p>}>
        {(data) => {
          const labels = data.revenue.byDay.map((day) => day.date);
          return (
            <>
              <Tiles data={data} />
              <div className="charts charts-wide">
                <RevenueChart data={data} />
                <div>
                  <LineChart title="Sites seen per day" labels={labels} series={[{ name: 'Sites', values: data.installsByDay.map((day) => day.count) }]} />
                  <CsvDownload label="Download installs as CSV" filename="installs.csv" header={['date', 'sites']} rows={data.installsByDay.map((d) => [d.date, d.count])} />
                </div>
              </div>
              <div className="charts">
                <ShareList title="Versions" shares={data.installsByVersion} file="versions.csv" />
                <ShareList title="PHP versions" shares={data.installsByPhp} file="php.csv" />
                <ShareList title="WordPress versions" shares={data.installsByWp} file="wordpress.csv" />
              </div>
            </>
          );
        }}
      </QueryView>
    </>
  );
}
