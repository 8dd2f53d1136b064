import { TableScroll } from '../TableScroll';

export type Series = { name: string; values: number[] };

/** Drawn at about the size it is shown, so its labels stay readable (the SVG scales with its box). */
const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 10, right: 12, bottom: 26, left: 40 };
/** Told apart by colour and by dash, so the lines read in either theme and without colour. */
const STROKES = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2'];

type LineChartProps = { title: string; labels: string[]; series: Series[] };

/**
 * Daily values as lines in plain SVG (no chart library: a few lines cost less than one). The numbers are also in a
 * table under the chart, for screen readers and for reading exact values.
 */
export function LineChart({ title, labels, series }: LineChartProps) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const x = (index: number) => PAD.left + (labels.length <= 1 ? 0 : (index * (WIDTH - PAD.left - PAD.right)) / (labels.length - 1));
  const y = (value: number) => HEIGHT - PAD.bottom - (value * (HEIGHT - PAD.top - PAD.bottom)) / max;
  const ticks = [0, Math.round(max / 2), max];
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}, ${labels[0]} to ${labels.at(-1)}`}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className="chart-label">
              {tick}
            </text>
          </g>
        ))}
        {[0, labels.length - 1].map((index) => (
          <text key={index} x={x(index)} y={HEIGHT - 6} textAnchor={index === 0 ? 'start' : 'end'} className="chart-label">
            {labels[index]}
          </text>
        ))}
        {series.map((line, index) => (
          <polyline
            key={line.name}
            fill="none"
            stroke={STROKES[index % STROKES.length]}
            strokeDasharray={DASHES[index % DASHES.length]}
            strokeWidth={2}
            points={line.values.map((value, i) => `${x(i)},${y(value)}`).join(' ')}
          />
        ))}
      </svg>
      {series.length > 1 && (
        <ul className="legend">
          {series.map((line, index) => (
            <li key={line.name}>
              <svg width="24" height="8" aria-hidden="true">
                <line x1="0" x2="24" y1="4" y2="4" stroke={STROKES[index % STROKES.length]} strokeDasharray={DASHES[index % DASHES.length]} strokeWidth={2} />
              </svg>
              {line.name}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>Data</summary>
        <TableScroll label={`${title} data`}>
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((line) => (
                  <th key={line.name} scope="col">
                    {line.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, index) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {series.map((line) => (
                    <td key={line.name}>{line.values[index]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}
