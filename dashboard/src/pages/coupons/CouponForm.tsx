import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import type { paths } from '../../api/schema.gen';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { COUPONS_KEY } from './couponQueries';

type CouponBody = paths['/api/coupons']['post']['requestBody']['content']['application/json'];
type Duration = 'once' | 'repeating' | 'forever';
type Discount = 'percent' | 'amount';

const DURATIONS: { value: Duration; label: string }[] = [
  { value: 'once', label: 'Once: the first payment' },
  { value: 'repeating', label: 'Repeating: for some months' },
  { value: 'forever', label: 'Forever: every payment' },
];

const INITIAL = { code: '', discount: 'percent' as Discount, percentOff: '', amountOff: '', currency: 'USD', duration: 'once' as Duration, durationInMonths: '3', maxRedemptions: '' };

/** A Stripe coupon with one promotion code (DECISIONS §15): a percentage, or an amount in one currency. */
export function CouponForm() {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: CouponBody) => unwrap(api.POST('/api/coupons', { body })),
    onSuccess: async () => {
      form.setValues(INITIAL);
      await queryClient.invalidateQueries({ queryKey: COUPONS_KEY });
    },
  });
  const form = useForm({
    initial: INITIAL,
    validate: (values) =>
      problemsOf({
        code: /^[A-Za-z0-9_-]{3,50}$/.test(values.code.trim()) ? undefined : 'Code: 3 to 50 letters, digits, - or _',
        percentOff: values.discount === 'percent' && !(Number(values.percentOff) > 0 && Number(values.percentOff) <= 100) ? 'Percent off: more than 0, at most 100' : undefined,
        amountOff: values.discount === 'amount' && !/^\d{1,6}(\.\d{1,2})?$/.test(values.amountOff.trim()) ? 'Amount off: a number such as 10 or 9.50' : undefined,
        currency: values.discount === 'amount' && !/^[A-Za-z]{3}$/.test(values.currency.trim()) ? 'Currency: a three-letter code such as USD' : undefined,
        durationInMonths: values.duration === 'repeating' ? check.wholeNumber(values.durationInMonths, 'Months', 1, 36) : undefined,
        maxRedemptions: values.maxRedemptions.trim() ? check.wholeNumber(values.maxRedemptions, 'Maximum redemptions', 1, 1_000_000) : undefined,
      }),
    onSubmit: (values) =>
      create.mutate({
        code: values.code.trim(),
        duration: values.duration,
        ...(values.discount === 'percent'
          ? { percentOff: Number(values.percentOff) }
          : { amountOff: Number(values.amountOff), currency: values.currency.trim().toUpperCase() }),
        ...(values.duration === 'repeating' && { durationInMonths: Number(values.durationInMonths) }),
        ...(values.maxRedemptions.trim() && { maxRedemptions: Number(values.maxRedemptions) }),
      }),
  });
  const server = serverFieldErrors(create.error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form" aria-label="New coupon">
      <Field label="Code" hint="What buyers enter at checkout; not case-sensitive" error={errorOf('code')}>
        <input value={form.values.code} onChange={(e) => form.set('code')(e.target.value)} />
      </Field>
      <Field label="Discount" error={errorOf('discount')}>
        <select value={form.values.discount} onChange={(e) => form.set('discount')(e.target.value as Discount)}>
          <option value="percent">Percentage</option>
          <option value="amount">Fixed amount</option>
        </select>
      </Field>
      {form.values.discount === 'percent' ? (
        <Field label="Percent off" error={errorOf('percentOff')}>
          <input inputMode="decimal" value={form.values.percentOff} placeholder="20" onChange={(e) => form.set('percentOff')(e.target.value)} />
        </Field>
      ) : (
        <>
          <Field label="Amount off" error={errorOf('amountOff')}>
            <input inputMode="decimal" value={form.values.amountOff} placeholder="10" onChange={(e) => form.set('amountOff')(e.target.value)} />
          </Field>
          <Field label="Currency" error={errorOf('currency')}>
            <input value={form.values.currency} maxLength={3} onChange={(e) => form.set('currency')(e.target.value)} />
          </Field>
        </>
      )}
      <Field label="Duration" error={errorOf('duration')}>
        <select value={form.values.duration} onChange={(e) => form.set('duration')(e.target.value as Duration)}>
          {DURATIONS.map((duration) => (
            <option key={duration.value} value={duration.value}>
              {duration.label}
            </option>
          ))}
        </select>
      </Field>
      {form.values.duration === 'repeating' && (
        <Field label="Months" error={errorOf('durationInMonths')}>
          <input inputMode="numeric" value={form.values.durationInMonths} onChange={(e) => form.set('durationInMonths')(e.target.value)} />
        </Field>
      )}
      <Field label="Maximum redemptions" hint="Optional: blank for no limit" error={errorOf('maxRedemptions')}>
        <input inputMode="numeric" value={form.values.maxRedemptions} onChange={(e) => form.set('maxRedemptions')(e.target.value)} />
      </Field>
      <FormFooter error={create.error} pending={create.isPending} submitLabel="Create coupon" />
    </form>
  );
}
