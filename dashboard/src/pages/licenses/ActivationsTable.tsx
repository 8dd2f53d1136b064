import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import type { Activation } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { TableScroll } from '../../components/TableScroll';

/** What an activation is called: its site, or its machine's name (or fingerprint) and platform. */
const holderOf = (activation: Activation) => activation.domain ?? activation.name ?? activation.machine ?? '';

/** A license's sites and machines, newest first, each deactivatable. */
export function ActivationsTable({ activations }: { activations: Activation[] }) {
  const queryClient = useQueryClient();
  const canDeactivate = useCan()('activationSupport');
  const deactivate = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/activations/{id}/deactivate', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['licenses'] }),
  });
  if (activations.length === 0) return <p className="empty">No site or machine has activated this license yet.</p>;
  return (
    <>
      <ErrorBanner error={deactivate.error} />
      <TableScroll label="Activations">
        <table>
          <thead>
            <tr>
              <th scope="col">Site or machine</th>
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
                  {holderOf(activation)} {activation.environment === 'staging' && <span className="badge badge-neutral">staging</span>}
                  {activation.machine !== null && (
                    <span className="muted" title={`Fingerprint ${activation.machine}`}>
                      {' '}
                      machine{activation.platform ? ` · ${activation.platform}` : ''}
                    </span>
                  )}
                </td>
                <td>
                  <StatusBadge status={activation.status} />
                </td>
                <td>{activation.ipAddress}</td>
                <td>{formatDate(activation.activatedAt)}</td>
                <td>{formatDate(activation.lastCheckedAt)}</td>
                <td>
                  {canDeactivate && activation.status === 'active' && (
                    <ConfirmButton label="Deactivate" title={`Deactivate ${holderOf(activation)}?`} onConfirm={() => deactivate.mutate(activation.id)}>
                      <p>
                        The {activation.machine === null ? 'site' : 'machine'} frees its {activation.environment === 'staging' ? 'staging place' : 'seat'} and stops validating until it activates again.
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
