/** Counts by name as horizontal bars, largest first: readable as a list without the bars. */
export function BarList({ title, counts, empty }: { title: string; counts: Record<string, number>; empty: string }) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, count]) => count));
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      {entries.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="bars">
          {entries.map(([name, count]) => (
            <li key={name}>
              <span className="bar-name">{name}</span>
              <span className="bar-track" aria-hidden="true">
                <span className="bar" style={{ width: `${(count / max) * 100}%` }} />
              </span>
              <span className="bar-count">{count}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
