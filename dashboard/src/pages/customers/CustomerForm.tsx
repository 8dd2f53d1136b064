import { serverFieldErrors } from '../../api/errors';
import type { Customer } from '../../api/types';
import { FormFooter } from '../../components/FormFooter';
import { Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';

/** The customer's optional text fields, in form order; empty clears (null). */
const TEXT_FIELDS = [
  { key: 'firstName', label: 'First name' },
  { key: 'lastName', label: 'Last name' },
  { key: 'company', label: 'Company' },
  { key: 'phone', label: 'Phone' },
  { key: 'street', label: 'Street' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State or region' },
  { key: 'postalCode', label: 'Postal code' },
  { key: 'country', label: 'Country' },
  { key: 'timezone', label: 'Time zone' },
] as const;
type TextKey = (typeof TEXT_FIELDS)[number]['key'];

export type CustomerBody = { email: string } & Record<TextKey, string | null>;

type CustomerFormProps = { customer?: Customer; submitLabel: string; pending: boolean; error: unknown; onSubmit: (body: CustomerBody) => void };

export function CustomerForm({ customer, submitLabel, pending, error, onSubmit }: CustomerFormProps) {
  const form = useForm({
    initial: { email: customer?.email ?? '', ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f.key, customer?.[f.key] ?? ''])) as Record<TextKey, string>) },
    validate: (values) => problemsOf({ email: check.email(values.email) }),
    onSubmit: (values) =>
      onSubmit({ email: values.email.trim(), ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f.key, orNull(values[f.key])])) as Record<TextKey, string | null>) }),
  });
  const server = serverFieldErrors(error);
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
      <FormFooter error={error} pending={pending} submitLabel={submitLabel} />
    </form>
  );
}
