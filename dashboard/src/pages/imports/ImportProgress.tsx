import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema.gen';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { StatusBadge } from '../../components/StatusBadge';

type Import = components['schemas']['Import'];

const finished = (job: Import | undefined) => job?.status === 'done' || job?.status === 'failed';

type RowNote = { row: number; message: string };
const noteColumns = (what: string): Column<RowNote>[] => [
  { header: 'Row', cell: (note) => note.row },
  { header: what, cell: (note) => note.message },
];

/** A list of rows with what is said of each: the import's bad rows, or its warnings. */
function RowNotes({ title, label, what, notes, count }: { title: string; label: string; what: string; notes: RowNote[]; count: number }) {
  if (notes.length === 0) return null;
  return (
    <>
      <h3>
        {title}
        {count > notes.length && ` (the first ${notes.length} of ${count})`}
      </h3>
      <DataTable label={label} columns={noteColumns(what)} rows={notes} rowKey={(note) => note.row} />
    </>
  );
}

/** Where the job stands, in words: a job that failed before it counted the rows says so, rather than "Reading…". */
function progressText(job: Import): string {
  if (job.rows !== null) return `${job.processedRows} of ${job.rows} rows`;
  return job.status === 'failed' ? 'Stopped: no row was read' : 'Reading the file…';
}

type ImportProgressProps = {
  importId: string;
  /** Starts the same file for real, after a dry run. */
  onImportForReal?: () => void;
  /** The dry run's file is no longer at hand (the page was reloaded): it must be chosen again. */
  fileGone?: boolean;
};

/**
 * One import, polled every second until it ends: its progress, what it wrote (or would write), its bad rows and
 * warnings. Polled by its id alone, so coming back to the page picks up a running import where it stands.
 */
export function ImportProgress({ importId, onImportForReal, fileGone = false }: ImportProgressProps) {
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
        <label htmlFor="import-progress">{progressText(job)}</label>
        {/* Indeterminate only while the file is being read; a job that ended shows where it stopped. */}
        <progress id="import-progress" max={job.rows ?? 1} value={job.rows !== null ? job.processedRows : finished(job) ? 0 : undefined} />
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
        <dt>Rows skipped (the key exists already, or left out)</dt>
        <dd data-count="skipped">{job.counts.skipped}</dd>
        <dt>Bad rows</dt>
        <dd data-count="errors">{job.errorCount}</dd>
        <dt>Rows with a warning</dt>
        <dd data-count="warnings">{job.warningCount}</dd>
      </dl>
      <RowNotes title="Bad rows" label="Bad rows" what="Problem" notes={job.errors} count={job.errorCount} />
      <RowNotes title="Rows to know about" label="Warnings" what="What happened" notes={job.warnings} count={job.warningCount} />
      {job.dryRun && job.status === 'done' && onImportForReal && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={onImportForReal}>
            Import these rows
          </button>
          <span className="muted">Nothing has been written yet.</span>
        </div>
      )}
      {job.dryRun && job.status === 'done' && fileGone && <p className="muted">Nothing has been written yet. To import these rows, choose the file again and start the import.</p>}
    </section>
  );
}
