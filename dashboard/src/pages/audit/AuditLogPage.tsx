import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import type { AuditEntry } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDate } from '../../components/format';
import { useListFilters } from '../../components/list-filters';
import { Filters, SearchFilter } from '../../components/ListHeader';
import { QueryTable } from '../../components/QueryTable';

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', cell: (entry) => formatDate(entry.at) },
  { header: 'Who', cell: (entry) => entry.actor.email ?? `${entry.actor.type} ${entry.actor.id}` },
  { header: 'Action', cell: (entry) => <code>{entry.action}</code> },
  {
    header: 'Target',
    cell: (entry) => (
      <>
        {entry.target.type} <code>{entry.target.id}</code>
      </>
    ),
  },
  {
    header: 'Changes (before → after)',
    cell: (entry) => (
      <ul className="changes">
        {Object.entries(entry.changes).map(([field, [before, after]]) => (
          <li key={field}>
            <strong>{field}</strong>: {show(before)} → {show(after)}
          </li>
        ))}
      </ul>
    ),
  },
];

/** Every change of the tenant, newest first, each with its fields before and after; and the check of its hash chains. */
export function AuditLogPage() {
  const { page, filter, update } = useListFilters();
  const action = filter('action');
  const targetType = filter('target_type');
  const actorId = filter('actor_id');
  const entries = useQuery({
    queryKey: ['audit-log', { page, action, targetType, actorId }],
    queryFn: () =>
      unwrap(
        api.GET('/api/audit-log', {
          params: { query: { page: String(page), ...(action && { action }), ...(targetType && { target_type: targetType }), ...(actorId && { actor_id: actorId }) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const verify = useMutation({ mutationFn: () => unwrap(api.GET('/api/audit-log/verify')) });
  return (
    <>
      <div className="page-head">
        <h1>Audit log</h1>
        <button type="button" className="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
          Verify the chain
        </button>
      </div>
      {verify.data && (
        <p className={`banner ${verify.data.ok ? 'banner-success' : 'banner-error'}`} role="status">
          {verify.data.ok ? `Intact: ${verify.data.entries} entries check out.` : `Broken at entry ${verify.data.brokenAt ?? '(the newest, removed)'}.`}
        </p>
      )}
      <ErrorBanner error={verify.error} />
      <Filters>
        <SearchFilter label="Action" value={action} placeholder="license.update" onChange={(value) => update({ action: value })} />
        <SearchFilter label="Target type" value={targetType} placeholder="license" onChange={(value) => update({ target_type: value })} />
        <SearchFilter label="Actor id" value={actorId} onChange={(value) => update({ actor_id: value })} />
      </Filters>
      <QueryTable query={entries} loading="Loading the audit log…" label="Audit log" columns={COLUMNS} empty={<p>No entries match.</p>} onPage={(next) => update({ page: String(next) })} />
    </>
  );
}
