import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import type { License } from '../../api/types';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CheckboxField, Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';

/** Moves the license, same key, to another customer (DECISIONS §15); its sites are deactivated unless kept. */
export function TransferLicenseForm({ license }: { license: License }) {
  const queryClient = useQueryClient();
  const transfer = useMutation({
    mutationFn: (body: { email: string; name?: string; keepActivations: boolean }) =>
      unwrap(api.POST('/api/licenses/{id}/transfer', { params: { path: { id: license.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['licenses'] }),
  });
  const form = useForm({
    initial: { email: '', name: '', keepActivations: false },
    validate: (values) => problemsOf({ email: check.email(values.email) }),
    onSubmit: (values) => transfer.mutate({ email: values.email.trim(), ...(values.name.trim() && { name: values.name.trim() }), keepActivations: values.keepActivations }),
  });
  const server = serverFieldErrors(transfer.error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form" aria-label="Transfer license">
      <p className="muted">The key stays the same. The new owner is e-mailed the key; a new e-mail becomes a new customer.</p>
      <Field label="New owner's e-mail" error={errorOf('email')}>
        <input type="email" value={form.values.email} onChange={(e) => form.set('email')(e.target.value)} />
      </Field>
      <Field label="New owner's name" hint="Optional" error={errorOf('name')}>
        <input value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} />
      </Field>
      <CheckboxField
        label="Keep its sites activated"
        hint="Otherwise every site is deactivated and its seats are free for the new owner"
        checked={form.values.keepActivations}
        onChange={form.set('keepActivations')}
      />
      <ErrorBanner error={transfer.error} />
      <div className="actions">
        <button type="submit" className="button" disabled={transfer.isPending || license.status === 'revoked'}>
          Transfer
        </button>
        {transfer.isSuccess && <span role="status">Transferred to {transfer.data.customerEmail}.</span>}
      </div>
    </form>
  );
}
