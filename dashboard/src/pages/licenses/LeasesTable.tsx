import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema.gen';
import { DataTable, type Column } from '../../components/DataTable';
import { formatDate } from '../../components/format';
import { QueryView } from '../../components/QueryView';

/** A live lease as the license's page lists it. */
type Lease = components['schemas']['LiveLeases']['data'][number];

const COLUMNS: Column<Lease>[] = [
  { header: 'Machine', cell: (lease) => <span title={lease.machine}>{lease.machine.length > 20 ? `${lease.machine.slice(0, 20)}…` : lease.machine}</span> },
  { header: 'Seat', cell: (lease) => lease.slot + 1 },
  { header: 'Held until', cell: (lease) => formatDate(lease.expiresAt) },
];

/** A floating license's live leases: which machines hold its seats now, refreshed while the page is open. */
export function LeasesTable({ licenseId }: { licenseId: string }) {
  const leases = useQuery({
    queryKey: ['licenses', licenseId, 'leases'],
    queryFn: () => unwrap(api.GET('/api/licenses/{id}/leases', { params: { path: { id: licenseId } } })),
    // Leases come and go by the minute: the view follows them.
    refetchInterval: 15_000,
  });
  return (
    <QueryView query={leases} loading="Loading the leases…">
      {(data) => <DataTable label="Live leases" columns={COLUMNS} rows={data.data} empty={<p>No machine holds a seat now.</p>} />}
    </QueryView>
  );
}
