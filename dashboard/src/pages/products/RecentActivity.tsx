import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { formatDate } from '../../components/format';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { TableScroll } from '../../components/TableScroll';

/** The latest usage events, one row each. */
export function RecentEvents({ productId }: { productId: string }) {
  const [page, setPage] = useState(1);
  const events = useQuery({
    queryKey: ['products', productId, 'events', page],
    queryFn: () => unwrap(api.GET('/api/products/{id}/events', { params: { path: { id: productId }, query: { page: String(page) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="events-heading">
      <h2 id="events-heading">Recent events</h2>
      <QueryView query={events} loading="Loading events…" isEmpty={(data) => data.items.length === 0} empty={<p>No usage events yet.</p>}>
        {(data) => (
          <>
            <TableScroll label="Recent events">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Site</th>
                    <th scope="col">Properties</th>
                    <th scope="col">When</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((event) => (
                    <tr key={event.id}>
                      <td>{event.event}</td>
                      <td>{event.domain ?? '—'}</td>
                      <td>
                        <code className="small">{event.properties ? JSON.stringify(event.properties) : '—'}</code>
                      </td>
                      <td>{formatDate(event.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryView>
    </section>
  );
}

/** Why sites deactivated, newest first, with what they wrote. */
export function RecentReasons({ productId }: { productId: string }) {
  const [page, setPage] = useState(1);
  const reasons = useQuery({
    queryKey: ['products', productId, 'deactivation-reasons', page],
    queryFn: () => unwrap(api.GET('/api/products/{id}/deactivation-reasons', { params: { path: { id: productId }, query: { page: String(page) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="reasons-heading">
      <h2 id="reasons-heading">Deactivation reasons</h2>
      <QueryView query={reasons} loading="Loading deactivation reasons…" isEmpty={(data) => data.items.length === 0} empty={<p>No deactivation reasons yet.</p>}>
        {(data) => (
          <>
            <ul className="list">
              {data.items.map((reason) => (
                <li key={reason.id} className="card">
                  <strong>{reason.reason}</strong> <span className="muted small">{formatDate(reason.createdAt)}</span>
                  {reason.details && <p className="prewrap">{reason.details}</p>}
                  {reason.domain && <p className="muted small">{reason.domain}</p>}
                </li>
              ))}
            </ul>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryView>
    </section>
  );
}
