import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema.gen';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { StatusBadge } from '../../components/StatusBadge';

type Import = components['schemas']['Import'];

const BAD_ROW_COLUMNS: Column<Import['errors'][number]>[] = [
  { header: 'Row', cell: (error) => error.row },
  { header: 'Problem', cell: (error) => error.message },
];

const finished = (job: Import | undefined) => job?.status === 'done' || job?.status === 'failed';

/** One import, polled every second until it ends: its progress, what it wrote (or would write) and its bad rows. */
export function ImportProgress({ importId, onImportForReal }: { importId: string; onImportForReal?: () => void }) {
  const query = useQuery({
    queryKey: ['imports', importId],
    queryFn: () => unwrap(api.GET('/api/imports/{id}', { params: { path: { id: importId } } })),
    refetchInterval: (current) => (finished(current.state.data) ? false : 1000),
  });
  const job = query.data;
  if (!job) return <ErrorBanner error={query.error} />;
  const would = job.dryRun && job.status === 'done' ? 'would be ' : '';
  return (
    <section className="card" aria-labelledby="import-heading">
      <h2 id="import-heading">
        {job.dryRun ? 'Dry run' : 'Import'} <StatusBadge status={job.status} />
      </h2>
      <div className="progress">
        <label htmlFor="import-progress">{job.rows === null ? 'Reading the file…' : `${job.processedRows} of ${job.rows} rows`}</label>
        <progress id="import-progress" max={job.rows ?? 1} value={job.rows === null ? undefined : job.processedRows} />
      </div>
      {job.failure && (
        <div className="banner banner-error" role="alert">
          {job.failure}
        </div>
      )}
      <dl className="facts" aria-label="Counts">
        <dt>Licenses {would}imported</dt>
        <dd data-count="licenses">{job.counts.licenses}</dd>
        <dt>Customers {would}created</dt>
        <dd data-count="customers">{job.counts.customers}</dd>
        <dt>Activations {would}carried over</dt>
        <dd data-count="activations">{job.counts.activations}</dd>
        <dt>Keys that exist already (skipped)</dt>
        <dd data-count="skipped">{job.counts.skipped}</dd>
        <dt>Bad rows</dt>
        <dd data-count="errors">{job.errorCount}</dd>
      </dl>
      {job.errors.length > 0 && (
        <>
          <h3>Bad rows{job.errorCount > job.errors.length && ` (the first ${job.errors.length} of ${job.errorCount})`}</h3>
          <DataTable label="Bad rows" columns={BAD_ROW_COLUMNS} rows={job.errors} rowKey={(error) => error.row} />
        </>
      )}
      {job.dryRun && job.status === 'done' && onImportForReal && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={onImportForReal}>
            Import these rows
          </button>
          <span className="muted">Nothing has been written yet.</span>
        </div>
      )}
    </section>
  );
}
