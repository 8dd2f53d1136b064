import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Activation } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { TableScroll } from '../../components/TableScroll';

/** A license's sites, newest first, each deactivatable. */
export function ActivationsTable({ activations }: { activations: Activation[] }) {
  const queryClient = useQueryClient();
  const deactivate = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/activations/{id}/deactivate', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['licenses'] }),
  });
  if (activations.length === 0) return <p className="empty">No site has activated this license yet.</p>;
  return (
    <>
      <ErrorBanner error={deactivate.error} />
      <TableScroll label="Activations">
        <table>
          <thead>
            <tr>
              <th scope="col">Site</th>
              <th scope="col">Status</th>
              <th scope="col">IP address</th>
              <th scope="col">Activated</th>
              <th scope="col">Last check</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {activations.map((activation) => (
              <tr key={activation.id}>
                <td>
                  {activation.domain} {activation.environment === 'staging' && <span className="badge badge-neutral">staging</span>}
                </td>
                <td>
                  <StatusBadge status={activation.status} />
                </td>
                <td>{activation.ipAddress}</td>
                <td>{formatDate(activation.activatedAt)}</td>
                <td>{formatDate(activation.lastCheckedAt)}</td>
                <td>
                  {activation.status === 'active' && (
                    <ConfirmButton label="Deactivate" title={`Deactivate ${activation.domain}?`} onConfirm={() => deactivate.mutate(activation.id)}>
                      <p>
                        The site frees its {activation.environment === 'staging' ? 'staging place' : 'seat'} and stops validating until it activates again.
                      </p>
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
