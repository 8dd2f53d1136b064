import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema.gen';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { customerName } from './customerName';

type CustomerDetail = components['schemas']['CustomerDetail'];

/** Hands the browser a JSON value as a file to save. */
function saveJson(value: unknown, fileName: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}

/**
 * A data-subject request (DECISIONS §16): everything held on the customer as a file, or (`canErase`: the role may)
 * its personal data erased.
 */
export function CustomerPrivacySection({ customer, canErase }: { customer: CustomerDetail; canErase: boolean }) {
  const queryClient = useQueryClient();
  const path = { params: { path: { id: customer.id } } };
  const download = useMutation({
    mutationFn: () => unwrap(api.GET('/api/customers/{id}/export', path)),
    onSuccess: (data) => saveJson(data, `customer-${customer.id}.json`),
  });
  const erase = useMutation({
    mutationFn: () => unwrap(api.POST('/api/customers/{id}/erase', path)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
  // An erased customer's address is `erased-<id>@invalid` (DECISIONS §16).
  const erased = customer.email === `erased-${customer.id}@invalid`;
  return (
    <section className="card card-danger" aria-labelledby="customer-privacy-heading">
      <h2 id="customer-privacy-heading">Personal data</h2>
      <p>For a request under privacy law: everything held on this customer as a file, or their personal data erased.</p>
      <div className="actions">
        <button type="button" className="button" disabled={download.isPending} onClick={() => download.mutate()}>
          {download.isPending ? 'Exporting…' : 'Export personal data'}
        </button>
        {download.isSuccess && <span role="status">Exported.</span>}
      </div>
      <ErrorBanner error={download.error ?? erase.error} />
      {erased || erase.isSuccess ? (
        <p role="status">Personal data erased.</p>
      ) : (
        canErase && (
          <ConfirmButton label="Erase personal data" title={`Erase ${customerName(customer)}'s personal data?`} onConfirm={() => erase.mutate()} disabled={erase.isPending}>
            <p>
              The name, address, phone, metadata and e-mail ({customer.email}) are removed from the customer, their licenses, activations, payments,
              feedback and webhook deliveries. Licenses, payments and activations stay, and the keys keep working. This cannot be undone.
            </p>
          </ConfirmButton>
        )
      )}
    </section>
  );
}
