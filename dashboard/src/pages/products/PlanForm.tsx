import { serverFieldErrors } from '../../api/errors';
import type { BillingCycle, Plan } from '../../api/types';
import { FormFooter } from '../../components/FormFooter';
import { ChannelField, type Channel } from '../../components/ChannelFields';
import { FeatureCheckboxes } from '../../components/FeatureCheckboxes';
import { CheckboxField, Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';

const CYCLES: BillingCycle[] = ['monthly', 'yearly', 'lifetime'];

export type PlanBody = {
  name: string;
  billingCycle: BillingCycle;
  price: number;
  currency: string;
  siteLimit: number;
  shortDescription: string | null;
  isActive: boolean;
  isPublic: boolean;
  channel: Channel;
  trialDays: number;
  allowPromotionCodes: boolean;
  features: string[];
  slug?: string;
};

type PlanFormProps = {
  plan?: Plan;
  /** The product's features, which the plan may grant. */
  features: { key: string; name: string }[];
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (body: PlanBody) => void;
};

/** Create and edit a plan: price in major units, seats per license, whether buyers see it. */
export function PlanForm({ plan, features, submitLabel, pending, error, onSubmit }: PlanFormProps) {
  const form = useForm({
    initial: {
      name: plan?.name ?? '',
      slug: plan?.slug ?? '',
      billingCycle: plan?.billingCycle ?? ('yearly' as BillingCycle),
      price: plan ? String(plan.price) : '',
      currency: plan?.currency ?? 'USD',
      siteLimit: String(plan?.siteLimit ?? 1),
      shortDescription: plan?.shortDescription ?? '',
      isActive: plan?.isActive ?? true,
      isPublic: plan?.isPublic ?? true,
      channel: plan?.channel ?? ('stable' as Channel),
      trialDays: String(plan?.trialDays ?? 0),
      allowPromotionCodes: plan?.allowPromotionCodes ?? false,
      features: plan?.features ?? [],
    },
    validate: (values) =>
      problemsOf({
        name: check.required(values.name, 'Name'),
        price: /^\d{1,6}(\.\d{1,2})?$/.test(values.price.trim()) ? undefined : 'Price: a number from 0 to 999999.99, at most two decimals',
        currency: /^[A-Za-z]{3}$/.test(values.currency.trim()) ? undefined : 'Currency: a three-letter code such as USD',
        siteLimit: check.wholeNumber(values.siteLimit, 'Seats', 1, 1_000_000),
        trialDays: check.wholeNumber(values.trialDays, 'Trial days', 0, 90),
        slug: values.slug && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(values.slug) ? 'Slug: lower-case letters, digits and single hyphens' : undefined,
      }),
    onSubmit: (values) =>
      onSubmit({
        name: values.name.trim(),
        billingCycle: values.billingCycle,
        price: Number(values.price),
        currency: values.currency.trim().toUpperCase(),
        siteLimit: Number(values.siteLimit),
        shortDescription: orNull(values.shortDescription),
        isActive: values.isActive,
        isPublic: values.isPublic,
        channel: values.channel,
        trialDays: Number(values.trialDays),
        allowPromotionCodes: values.allowPromotionCodes,
        features: values.features,
        ...(values.slug.trim() && { slug: values.slug.trim() }),
      }),
  });
  const server = serverFieldErrors(error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form">
      <Field label="Plan name" error={errorOf('name')}>
        <input value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} />
      </Field>
      <Field label="Plan slug" hint="Blank: made from the name" error={errorOf('slug')}>
        <input value={form.values.slug} onChange={(e) => form.set('slug')(e.target.value)} />
      </Field>
      <Field label="Billing cycle" error={errorOf('billingCycle')}>
        <select value={form.values.billingCycle} onChange={(e) => form.set('billingCycle')(e.target.value as BillingCycle)}>
          {CYCLES.map((cycle) => (
            <option key={cycle}>{cycle}</option>
          ))}
        </select>
      </Field>
      <Field label="Price" error={errorOf('price')}>
        <input inputMode="decimal" value={form.values.price} placeholder="49" onChange={(e) => form.set('price')(e.target.value)} />
      </Field>
      <Field label="Currency" error={errorOf('currency')}>
        <input value={form.values.currency} maxLength={3} onChange={(e) => form.set('currency')(e.target.value)} />
      </Field>
      <Field label="Seats" hint="Sites each license may activate" error={errorOf('siteLimit')}>
        <input inputMode="numeric" value={form.values.siteLimit} onChange={(e) => form.set('siteLimit')(e.target.value)} />
      </Field>
      <Field label="Short description" error={errorOf('shortDescription')}>
        <input value={form.values.shortDescription} onChange={(e) => form.set('shortDescription')(e.target.value)} />
      </Field>
      <Field label="Trial days" hint="0 to 90: a subscription starts with this free trial; 0: none" error={errorOf('trialDays')}>
        <input type="number" min={0} max={90} value={form.values.trialDays} onChange={(e) => form.set('trialDays')(e.target.value)} />
      </Field>
      <ChannelField
        label="Release channel"
        hint="Licenses issued from this plan receive this channel's releases"
        value={form.values.channel}
        onChange={form.set('channel')}
        error={errorOf('channel')}
      />
      <fieldset className="checkboxes">
        <legend>Availability</legend>
        <CheckboxField label="Active (can be bought)" checked={form.values.isActive} onChange={form.set('isActive')} />
        <CheckboxField label="Public (listed to buyers)" checked={form.values.isPublic} onChange={form.set('isPublic')} />
        <CheckboxField label="Allow promotion codes" hint="Checkout offers a field for a coupon's code" checked={form.values.allowPromotionCodes} onChange={form.set('allowPromotionCodes')} />
      </fieldset>
      <FeatureCheckboxes features={features} value={form.values.features} onChange={form.set('features')} hint="Licenses issued from this plan, or moved to it, carry these" />
      <FormFooter error={error} pending={pending} submitLabel={submitLabel} />
    </form>
  );
}
