/** A series as a CSV file, quoted where a value needs it (RFC 4180). */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  const cell = (value: string | number) => (/[",\r\n]/.test(String(value)) ? `"${String(value).replaceAll('"', '""')}"` : String(value));
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** A button that downloads one chart's numbers as CSV, made in the browser from what the chart shows. */
export function CsvDownload({ label, filename, header, rows }: { label: string; filename: string; header: string[]; rows: (string | number)[][] }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([toCsv(header, rows)], { type: 'text/csv' }));
    const anchor = Object.assign(document.createElement('a'), { href: url, download: filename });
    anchor.click();
    URL.revokeObjectURL(url);
  };
  return (
    <button type="button" className="button button-small" onClick={download}>
      {label}
    </button>
  );
}
