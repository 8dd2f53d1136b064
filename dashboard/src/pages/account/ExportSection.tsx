import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import type { components } from '../../api/schema.gen';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatBytes } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';

type ExportFormat = components['schemas']['Export']['format'];

/** The whole account as a file (DECISIONS §16): started here, written in the background, then a link to download. */
export function ExportSection() {
  const [exportId, setExportId] = useState<string>();
  const start = useMutation({
    mutationFn: (format: ExportFormat) => unwrap(api.POST('/api/exports', { body: { format } })),
    onSuccess: (job) => setExportId(job.id),
  });
  const job = useQuery({
    queryKey: ['exports', exportId],
    enabled: exportId !== undefined,
    queryFn: () => unwrap(api.GET('/api/exports/{id}', { params: { path: { id: exportId! } } })),
    refetchInterval: (query) => (query.state.data?.status === 'done' || query.state.data?.status === 'failed' ? false : 1000),
  });
  const current = job.data;
  return (
    <section className="card" aria-labelledby="export-heading">
      <h2 id="export-heading">Export the account</h2>
      <p>
        Products, plans, releases (without their files), customers, licenses, activations, payments, subscriptions and webhooks (without secrets). The
        JSON Lines file imports into another account.
      </p>
      <RequireVerifiedAddress to="export the account">
        <div className="actions">
          <button type="button" className="button" disabled={start.isPending} onClick={() => start.mutate('jsonl')}>
            Export as JSON Lines
          </button>
          <button type="button" className="button" disabled={start.isPending} onClick={() => start.mutate('csv')}>
            Export as CSV (zip)
          </button>
        </div>
      </RequireVerifiedAddress>
      <ErrorBanner error={start.error ?? job.error} />
      {current && (
        <p role="status">
          Export <StatusBadge status={current.status} />{' '}
          {current.url && (
            <a href={current.url} download>
              Download the export{current.fileSize !== null && ` (${formatBytes(current.fileSize)})`}
            </a>
          )}
          {current.error}
        </p>
      )}
    </section>
  );
}
