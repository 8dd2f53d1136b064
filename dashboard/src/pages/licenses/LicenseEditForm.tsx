import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import type { License } from '../../api/types';
import { ChannelField, type Channel } from '../../components/ChannelFields';
import { FeatureCheckboxes } from '../../components/FeatureCheckboxes';
import { FormFooter } from '../../components/FormFooter';
import { Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';
import { dayFromExpiry, expiryFromDay } from './expiry';

type LicenseChanges = {
  seats: number;
  expiresAt: string | null;
  customerEmail: string;
  customerName: string | null;
  channel: Channel;
  floating: boolean;
  leaseSeconds: number;
  features: string[];
};

/**
 * Saving the license's details. It lives in the page, not in the form: the form is made anew from each saved license
 * (keyed by its `updatedAt`), and "Saved." must outlive that.
 */
export function useLicenseSave(license: License) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LicenseChanges) => unwrap(api.PUT('/api/licenses/{id}', { params: { path: { id: license.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['licenses'] }),
  });
}

/** `features`: the license's product's, which the license may carry. */
export function LicenseEditForm({ license, save, features }: { license: License; save: ReturnType<typeof useLicenseSave>; features: { key: string; name: string }[] }) {
  const form = useForm({
    initial: {
      seats: String(license.seats),
      expiresOn: dayFromExpiry(license.expiresAt),
      customerEmail: license.customerEmail,
      customerName: license.customerName ?? '',
      channel: license.channel,
      floating: license.floating,
      leaseMinutes: String(license.leaseSeconds / 60),
      features: license.features,
    },
    validate: (values) =>
      problemsOf({
        seats:
          check.wholeNumber(values.seats, 'Seats', 1, 1_000_000) ??
          (Number(values.seats) < license.activatedCount ? `Seats cannot be below the ${license.activatedCount} active activations` : undefined),
        customerEmail: check.email(values.customerEmail),
        leaseSeconds: check.wholeNumber(values.leaseMinutes, 'Lease time', 1, 1440),
      }),
    onSubmit: (values) =>
      save.mutate({
        seats: Number(values.seats),
        // An unchanged day keeps the exact instant the license had.
        expiresAt: values.expiresOn === dayFromExpiry(license.expiresAt) ? license.expiresAt : expiryFromDay(values.expiresOn),
        customerEmail: values.customerEmail.trim(),
        customerName: orNull(values.customerName),
        channel: values.channel,
        floating: values.floating,
        leaseSeconds: Number(values.leaseMinutes) * 60,
        features: values.features,
      }),
  });
  const server = serverFieldErrors(save.error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form">
      <Field label="Seats" error={errorOf('seats')}>
        <input inputMode="numeric" value={form.values.seats} onChange={(e) => form.set('seats')(e.target.value)} />
      </Field>
      <Field label="Expires on" hint="Blank: never (lifetime)" error={errorOf('expiresAt')}>
        <input type="date" value={form.values.expiresOn} onChange={(e) => form.set('expiresOn')(e.target.value)} />
      </Field>
      <ChannelField label="Release channel" hint="The most adventurous releases its sites may receive" value={form.values.channel} onChange={form.set('channel')} error={errorOf('channel')} />
      <Field label="Floating seats" hint="Machines borrow seats with leases instead of activating" error={errorOf('floating')}>
        <input type="checkbox" checked={form.values.floating} onChange={(e) => form.set('floating')(e.target.checked)} />
      </Field>
      <Field label="Lease time (minutes)" hint="A lease without a heartbeat ends after this; 1 to 1440" error={errorOf('leaseSeconds')}>
        <input inputMode="numeric" value={form.values.leaseMinutes} onChange={(e) => form.set('leaseMinutes')(e.target.value)} />
      </Field>
      <Field label="Customer e-mail" error={errorOf('customerEmail')}>
        <input type="email" value={form.values.customerEmail} onChange={(e) => form.set('customerEmail')(e.target.value)} />
      </Field>
      <Field label="Customer name" error={errorOf('customerName')}>
        <input value={form.values.customerName} onChange={(e) => form.set('customerName')(e.target.value)} />
      </Field>
      <FeatureCheckboxes features={features} value={form.values.features} onChange={form.set('features')} hint="What the software switches on for this license (hasFeature)" />
      <FormFooter error={save.error} pending={save.isPending} submitLabel="Save changes" saved={save.isSuccess} />
    </form>
  );
}
