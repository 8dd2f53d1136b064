import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { UsageEvent } from '../../api/types';
import { CardList } from '../../components/CardList';
import type { Column } from '../../components/DataTable';
import { formatDate } from '../../components/format';
import { QueryTable } from '../../components/QueryTable';
import { QueryView } from '../../components/QueryView';

const EVENT_COLUMNS: Column<UsageEvent>[] = [
  { header: 'Event', cell: (event) => event.event },
  { header: 'Site', cell: (event) => event.domain ?? '—' },
  { header: 'Properties', cell: (event) => <code className="small">{event.properties ? JSON.stringify(event.properties) : '—'}</code> },
  { header: 'When', cell: (event) => formatDate(event.createdAt) },
];

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
      <QueryTable query={events} loading="Loading events…" label="Recent events" columns={EVENT_COLUMNS} empty={<p>No usage events yet.</p>} onPage={setPage} />
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
      <QueryView query={reasons} loading="Loading deactivation reasons…">
        {(data) => (
          <CardList items={data.items} empty={<p>No deactivation reasons yet.</p>} pages={{ pagination: data.pagination, onPage: setPage }}>
            {(reason) => (
              <>
                <strong>{reason.reason}</strong> <span className="muted small">{formatDate(reason.createdAt)}</span>
                {reason.details && <p className="prewrap">{reason.details}</p>}
                {reason.domain && <p className="muted small">{reason.domain}</p>}
              </>
            )}
          </CardList>
        )}
      </QueryView>
    </section>
  );
}
