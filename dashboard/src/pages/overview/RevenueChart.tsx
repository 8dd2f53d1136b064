import type { Overview } from '../../api/types';
import { CsvDownload } from '../../components/charts/CsvDownload';
import { LineChart } from '../../components/charts/LineChart';

/**
 * Gross revenue per day, one line per currency the account sold in over the range (the main currency first): amounts
 * in different currencies are never added, so each is its own series, named by its code.
 */
export function RevenueChart({ data }: { data: Overview }) {
  const currencies = data.revenueByCurrency;
  const labels = currencies[0]?.byDay.map((day) => day.date) ?? [];
  const title = currencies.length === 1 ? `Revenue per day (${currencies[0]!.currency})` : `Revenue per day (${currencies.map((c) => c.currency).join(', ')})`;
  return (
    <div>
      <LineChart title={title} labels={labels} series={currencies.map((c) => ({ name: c.currency, values: c.byDay.map((day) => day.amount) }))} />
      <CsvDownload
        label="Download revenue as CSV"
        filename="revenue.csv"
        header={['date', ...currencies.map((c) => `revenue_${c.currency}`)]}
        rows={labels.map((date, index) => [date, ...currencies.map((c) => c.byDay[index]!.amount)])}
      />
    </div>
  );
}
