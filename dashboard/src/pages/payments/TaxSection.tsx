import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { PAYMENT_PROVIDER_KEY } from '../../api/service-base';
import type { components } from '../../api/schema.gen';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CheckboxField } from '../../components/Field';
import { SavedStatus } from '../../components/FormFooter';

type TaxSettings = { automaticTax: boolean; taxIdCollection: boolean };

/** Stripe Tax options every checkout session gets (DECISIONS §15); each toggle saves at once, without the secrets. */
export function TaxSection({ status }: { status: components['schemas']['PaymentProviderStatus'] }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Partial<TaxSettings>) => unwrap(api.PATCH('/api/payment-provider', { body })),
    onSuccess: (next) => queryClient.setQueryData(PAYMENT_PROVIDER_KEY, next),
  });
  return (
    <section className="card" aria-labelledby="tax-heading">
      <h2 id="tax-heading">Tax</h2>
      <fieldset className="checkboxes" disabled={save.isPending}>
        <legend className="visually-hidden">Checkout tax options</legend>
        <CheckboxField
          label="Automatic tax"
          hint="Stripe Tax computes and adds the tax on every checkout"
          checked={status.automaticTax}
          onChange={(automaticTax) => save.mutate({ automaticTax })}
        />
        <CheckboxField
          label="Collect tax IDs"
          hint="Business buyers can enter their tax ID on checkout"
          checked={status.taxIdCollection}
          onChange={(taxIdCollection) => save.mutate({ taxIdCollection })}
        />
      </fieldset>
      <SavedStatus saved={save.isSuccess && !save.isPending} />
      <ErrorBanner error={save.error} />
    </section>
  );
}
