import { useId } from 'react';
import { serverFieldErrors } from '../../api/errors';
import type { Customer } from '../../api/types';
import { FormFooter } from '../../components/FormFooter';
import { Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';
import { COUNTRIES, COUNTRY_CODES, isTimeZone, TIME_ZONES } from '../../components/places';

/** The customer's optional text fields, in form order, before country and time zone (lists); empty clears (null). */
const TEXT_FIELDS = [
  { key: 'firstName', label: 'First name' },
  { key: 'lastName', label: 'Last name' },
  { key: 'company', label: 'Company' },
  { key: 'phone', label: 'Phone' },
  { key: 'street', label: 'Street' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State or region' },
  { key: 'postalCode', label: 'Postal code' },
] as const;
type TextKey = (typeof TEXT_FIELDS)[number]['key'] | 'country' | 'timezone';
const ALL_KEYS: TextKey[] = [...TEXT_FIELDS.map((field) => field.key), 'country', 'timezone'];

export type CustomerBody = { email: string } & Record<TextKey, string | null>;

type CustomerFormProps = { customer?: Customer; submitLabel: string; pending: boolean; error: unknown; saved?: boolean; onSubmit: (body: CustomerBody) => void };

export function CustomerForm({ customer, submitLabel, pending, error, saved, onSubmit }: CustomerFormProps) {
  const form = useForm({
    initial: { email: customer?.email ?? '', ...(Object.fromEntries(ALL_KEYS.map((key) => [key, customer?.[key] ?? ''])) as Record<TextKey, string>) },
    validate: (values) =>
      problemsOf({
        email: check.email(values.email),
        timezone: values.timezone.trim() && !isTimeZone(values.timezone.trim()) ? 'Choose a time zone from the list, such as Europe/Amsterdam' : undefined,
      }),
    onSubmit: (values) => onSubmit({ email: values.email.trim(), ...(Object.fromEntries(ALL_KEYS.map((key) => [key, orNull(values[key])])) as Record<TextKey, string | null>) }),
  });
  const server = serverFieldErrors(error);
  const zonesId = useId();
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form">
      <Field label="E-mail" error={fieldError(form.problems, server, 'email')}>
        <input type="email" value={form.values.email} onChange={(e) => form.set('email')(e.target.value)} />
      </Field>
      {TEXT_FIELDS.map((field) => (
        <Field key={field.key} label={field.label} error={fieldError(form.problems, server, field.key)}>
          <input value={form.values[field.key]} onChange={(e) => form.set(field.key)(e.target.value)} />
        </Field>
      ))}
      <Field label="Country" error={fieldError(form.problems, server, 'country')}>
        <select value={form.values.country} onChange={(e) => form.set('country')(e.target.value)}>
          <option value="">Not given</option>
          {/* A value saved before the list (free text) stays visible until it is changed. */}
          {form.values.country && !COUNTRY_CODES.includes(form.values.country as (typeof COUNTRY_CODES)[number]) && <option value={form.values.country}>{form.values.country}</option>}
          {COUNTRIES.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name} ({country.code})
            </option>
          ))}
        </select>
      </Field>
      <Field label="Time zone" hint="Type to search, e.g. Amsterdam" error={fieldError(form.problems, server, 'timezone')}>
        <input list={zonesId} autoComplete="off" value={form.values.timezone} onChange={(e) => form.set('timezone')(e.target.value)} />
      </Field>
      <datalist id={zonesId}>
        {TIME_ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <FormFooter error={error} pending={pending} submitLabel={submitLabel} saved={saved} />
    </form>
  );
}
