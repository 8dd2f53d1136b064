import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { ChannelField, type Channel } from '../../components/ChannelFields';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';
import { usePlans, useProductChoices } from '../products/productQueries';
import { expiryFromDay } from './expiry';

type LicenseBody = {
  productId: string;
  planId: string | null;
  customerEmail: string;
  customerName: string | null;
  seats?: number;
  expiresAt: string | null;
  channel?: Channel;
};

export function NewLicensePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const products = useProductChoices();
  const create = useMutation({
    mutationFn: (body: LicenseBody) => unwrap(api.POST('/api/licenses', { body })),
    onSuccess: (license) => {
      void queryClient.invalidateQueries({ queryKey: ['licenses'] });
      void navigate(`/licenses/${license.id}`);
    },
  });
  const form = useForm({
    initial: {
      productId: params.get('product') ?? '',
      planId: '',
      customerEmail: params.get('email') ?? '',
      customerName: '',
      seats: '',
      expiresOn: '',
      channel: '' as Channel | '',
    },
    validate: (values) =>
      problemsOf({
        productId: values.productId ? undefined : 'Choose a product',
        customerEmail: check.email(values.customerEmail),
        seats: values.seats.trim() ? check.wholeNumber(values.seats, 'Seats', 1, 1_000_000) : undefined,
      }),
    onSubmit: (values) =>
      create.mutate({
        productId: values.productId,
        planId: values.planId || null,
        customerEmail: values.customerEmail.trim(),
        customerName: orNull(values.customerName),
        ...(values.seats.trim() && { seats: Number(values.seats) }),
        expiresAt: expiryFromDay(values.expiresOn),
        ...(values.channel && { channel: values.channel }),
      }),
  });
  const plans = usePlans(form.values.productId);
  const server = serverFieldErrors(create.error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <>
      <h1>New license</h1>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        <Field label="Product" error={errorOf('productId')}>
          <select
            value={form.values.productId}
            onChange={(e) => {
              form.set('productId')(e.target.value);
              form.set('planId')('');
            }}
          >
            <option value="">Choose…</option>
            {products.data?.map((product) => (
              <option key={product.id} value={product.id}>
                {product.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Plan" hint="Optional: seats default to the plan's" error={errorOf('planId')}>
          <select value={form.values.planId} disabled={!plans.data} onChange={(e) => form.set('planId')(e.target.value)}>
            <option value="">None</option>
            {plans.data?.items.map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.name} ({plan.siteLimit} seats)
              </option>
            ))}
          </select>
        </Field>
        <Field label="Customer e-mail" error={errorOf('customerEmail')}>
          <input type="email" value={form.values.customerEmail} onChange={(e) => form.set('customerEmail')(e.target.value)} />
        </Field>
        <Field label="Customer name" error={errorOf('customerName')}>
          <input value={form.values.customerName} onChange={(e) => form.set('customerName')(e.target.value)} />
        </Field>
        <Field label="Seats" hint="Blank: the plan's seats, else 1" error={errorOf('seats')}>
          <input inputMode="numeric" value={form.values.seats} onChange={(e) => form.set('seats')(e.target.value)} />
        </Field>
        <Field label="Expires on" hint="Blank: never (lifetime)" error={errorOf('expiresAt')}>
          <input type="date" value={form.values.expiresOn} onChange={(e) => form.set('expiresOn')(e.target.value)} />
        </Field>
        <ChannelField
          label="Release channel"
          hint="Blank: the plan's, else stable"
          blankLabel="From the plan"
          value={form.values.channel}
          onChange={form.set('channel')}
          error={errorOf('channel')}
        />
        <ErrorBanner error={create.error ?? products.error} />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create license'}
          </button>
        </div>
      </form>
    </>
  );
}
