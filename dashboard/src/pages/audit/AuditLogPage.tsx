import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate } from '../../components/format';
import { useListFilters } from '../../components/list-filters';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { TableScroll } from '../../components/TableScroll';

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

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
      <div className="filters" role="search">
        <label>
          Action
          <input type="search" value={action} placeholder="license.update" onChange={(e) => update({ action: e.target.value })} />
        </label>
        <label>
          Target type
          <input type="search" value={targetType} placeholder="license" onChange={(e) => update({ target_type: e.target.value })} />
        </label>
        <label>
          Actor id
          <input type="search" value={actorId} onChange={(e) => update({ actor_id: e.target.value })} />
        </label>
      </div>
      <QueryView query={entries} loading="Loading the audit log…" isEmpty={(data) => data.items.length === 0} empty={<p>No entries match.</p>}>
        {(data) => (
          <>
            <TableScroll label="Audit log">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Changes (before → after)</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((entry) => (
                    <tr key={entry.id}>
                      <td>{formatDate(entry.at)}</td>
                      <td>{entry.actor.email ?? `${entry.actor.type} ${entry.actor.id}`}</td>
                      <td>
                        <code>{entry.action}</code>
                      </td>
                      <td>
                        {entry.target.type} <code>{entry.target.id}</code>
                      </td>
                      <td>
                        <ul className="changes">
                          {Object.entries(entry.changes).map(([field, [before, after]]) => (
                            <li key={field}>
                              <strong>{field}</strong>: {show(before)} → {show(after)}
                            </li>
                          ))}
                        </ul>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <Pager pagination={data.pagination} onPage={(next) => update({ page: String(next) })} />
          </>
        )}
      </QueryView>
    </>
  );
}
