import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Delivery } from '../../api/types';
import { actionsColumn, type Column } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate } from '../../components/format';
import { QueryTable } from '../../components/QueryTable';
import { StatusBadge } from '../../components/StatusBadge';

const IN_FLIGHT_REFRESH_MS = 2000;
/** How long a redelivery is looked for in the log: the list is an index, which shows a new delivery within a second or so. */
const AWAIT_REDELIVERY_MS = 30_000;

/** A retry this close is followed as it happens; a later one, when the vendor comes back or refreshes. */
const FOLLOWED_RETRY_MS = 60_000;

/** Pending, and being sent now or within the minute. */
function inFlight(delivery: { status: string; nextAttemptAt?: string | null }) {
  return delivery.status === 'pending' && (!delivery.nextAttemptAt || Date.parse(delivery.nextAttemptAt) <= Date.now() + FOLLOWED_RETRY_MS);
}

/** Every delivery to the webhook, newest first, with why it failed and a way to send it again. */
export function DeliveriesLog({ webhookId }: { webhookId: string }) {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const queryKey = ['webhooks', webhookId, 'deliveries'];
  /** The redelivery just made, until the list shows it (or the wait is over). */
  const [awaited, setAwaited] = useState<{ id: string; until: number }>();
  const deliveries = useQuery({
    queryKey: [...queryKey, page],
    queryFn: () => unwrap(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { page: String(page) } } })),
    placeholderData: keepPreviousData,
    // A delivery on its way settles within seconds: follow it (and a redelivery the list does not show yet) until it
    // does, then stop asking.
    refetchInterval: (query) => {
      const items = query.state.data?.items ?? [];
      const awaiting = awaited !== undefined && Date.now() < awaited.until && !items.some((delivery) => delivery.id === awaited.id);
      return awaiting || items.some(inFlight) ? IN_FLIGHT_REFRESH_MS : false;
    },
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => unwrap(api.POST('/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: webhookId, deliveryId } } })),
    onSuccess: (delivery) => {
      setAwaited({ id: delivery.id, until: Date.now() + AWAIT_REDELIVERY_MS });
      return queryClient.invalidateQueries({ queryKey });
    },
  });
  const columns: Column<Delivery>[] = [
    { header: 'Event', cell: (delivery) => delivery.eventType },
    {
      header: 'Status',
      cell: (delivery) => (
        <>
          <StatusBadge status={delivery.status} />
          {delivery.nextAttemptAt && <div className="muted small">retry {formatDate(delivery.nextAttemptAt)}</div>}
        </>
      ),
    },
    { header: 'Attempts', cell: (delivery) => delivery.attempts },
    { header: 'Answer', cell: (delivery) => (delivery.responseStatus ? `HTTP ${delivery.responseStatus}` : (delivery.lastError ?? '—')) },
    { header: 'Last attempt', cell: (delivery) => formatDate(delivery.lastAttemptAt) },
    actionsColumn((delivery) => (
      <button type="button" className="button button-small" disabled={redeliver.isPending} onClick={() => redeliver.mutate(delivery.id)}>
        Redeliver
      </button>
    )),
  ];
  return (
    <section aria-labelledby="deliveries-heading">
      <div className="page-head">
        <h2 id="deliveries-heading">Deliveries</h2>
        <button type="button" className="button button-small" onClick={() => void deliveries.refetch()}>
          Refresh
        </button>
      </div>
      <ErrorBanner error={redeliver.error} />
      <QueryTable query={deliveries} loading="Loading deliveries…" label="Deliveries" columns={columns} empty={<p>Nothing delivered yet. Test events are not logged.</p>} onPage={setPage} />
    </section>
  );
}
