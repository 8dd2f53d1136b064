import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import type { Activation } from '../../api/types';
import { confirmColumn } from '../../components/confirm-column';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';

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
  const columns: Column<Activation>[] = [
    {
      header: 'Site or machine',
      cell: (activation) => (
        <>
          {holderOf(activation)} {activation.environment === 'staging' && <span className="badge badge-neutral">staging</span>}
          {activation.machine !== null && (
            <span className="muted" title={`Fingerprint ${activation.machine}`}>
              {' '}
              machine{activation.platform ? ` · ${activation.platform}` : ''}
            </span>
          )}
        </>
      ),
    },
    { header: 'Status', cell: (activation) => <StatusBadge status={activation.status} /> },
    { header: 'IP address', cell: (activation) => activation.ipAddress },
    { header: 'Activated', cell: (activation) => formatDate(activation.activatedAt) },
    { header: 'Last check', cell: (activation) => formatDate(activation.lastCheckedAt) },
    confirmColumn({
      label: 'Deactivate',
      title: (activation) => `Deactivate ${holderOf(activation)}?`,
      consequence: (activation) =>
        `The ${activation.machine === null ? 'site' : 'machine'} frees its ${activation.environment === 'staging' ? 'staging place' : 'seat'} and stops validating until it activates again.`,
      when: (activation) => canDeactivate && activation.status === 'active',
      onConfirm: (activation) => deactivate.mutate(activation.id),
    }),
  ];
  return (
    <>
      <ErrorBanner error={deactivate.error} />
      <DataTable label="Activations" columns={columns} rows={activations} empty={<p>No site or machine has activated this license yet.</p>} />
    </>
  );
}
