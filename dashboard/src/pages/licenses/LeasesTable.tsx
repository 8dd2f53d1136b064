import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { formatDate } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { TableScroll } from '../../components/TableScroll';

/** A floating license's live leases: which machines hold its seats now, refreshed while the page is open. */
export function LeasesTable({ licenseId }: { licenseId: string }) {
  const leases = useQuery({
    queryKey: ['licenses', licenseId, 'leases'],
    queryFn: () => unwrap(api.GET('/api/licenses/{id}/leases', { params: { path: { id: licenseId } } })),
    // Leases come and go by the minute: the view follows them.
    refetchInterval: 15_000,
  });
  return (
    <QueryView query={leases} loading="Loading the leases…" isEmpty={(data) => data.data.length === 0} empty={<p className="empty">No machine holds a seat now.</p>}>
      {(data) => (
        <TableScroll label="Live leases">
          <table>
            <thead>
              <tr>
                <th scope="col">Machine</th>
                <th scope="col">Seat</th>
                <th scope="col">Held until</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((lease) => (
                <tr key={lease.id}>
                  <td title={lease.machine}>{lease.machine.length > 20 ? `${lease.machine.slice(0, 20)}…` : lease.machine}</td>
                  <td>{lease.slot + 1}</td>
                  <td>{formatDate(lease.expiresAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </QueryView>
  );
}
