import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import { serverFieldErrors } from '../../api/errors';
import type { ApiKeySummary } from '../../api/types';
import { confirmColumn } from '../../components/confirm-column';
import { CopyValue } from '../../components/CopyButton';
import type { Column } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { formatDate } from '../../components/format';
import { QueryTable } from '../../components/QueryTable';

const KEYS = ['api-keys'] as const;

/** Secret API keys for the vendor's own server: a new key is shown once, then only its prefix. */
export function ApiKeysSection() {
  const can = useCan();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: KEYS, queryFn: () => unwrap(api.GET('/api/api-keys')) });
  const create = useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/api-keys', { body: { name } })),
    onSuccess: () => {
      form.setValues({ name: '' });
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/api-keys/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEYS }),
  });
  const form = useForm({
    initial: { name: '' },
    validate: (values) => problemsOf({ name: check.required(values.name, 'Name') }),
    onSubmit: (values) => create.mutate(values.name.trim()),
  });
  const server = serverFieldErrors(create.error);
  const columns: Column<ApiKeySummary>[] = [
    { header: 'Name', cell: (key) => key.name },
    { header: 'Key', cell: (key) => <code>{key.prefix}…</code> },
    { header: 'Created', cell: (key) => formatDate(key.createdAt) },
    { header: 'Last used', cell: (key) => formatDate(key.lastUsedAt) },
    confirmColumn({ label: 'Revoke', title: (key) => `Revoke the key "${key.name}"?`, consequence: 'Servers using it are refused at once.', onConfirm: (key) => revoke.mutate(key.id) }),
  ];
  return (
    <section className="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p className="muted">For your own server only (the customer portal API and the management API with a bearer key). Never put one in a browser or a plugin.</p>
      {create.data && (
        <div className="banner banner-success" role="status">
          <p>
            <strong>{create.data.name}</strong>: copy this key now, it is not shown again.
          </p>
          <CopyValue value={create.data.key} label="New API key" />
        </div>
      )}
      {can('apiKeys') && (
      <form onSubmit={form.handleSubmit} noValidate className="inline-form">
        <Field label="Key name" error={fieldError(form.problems, server, 'name')}>
          <input value={form.values.name} placeholder="My server" onChange={(e) => form.set('name')(e.target.value)} />
        </Field>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      )}
      <ErrorBanner error={create.error ?? revoke.error} />
      <QueryTable query={keys} loading="Loading API keys…" label="API keys" columns={columns} empty={<p>No API keys yet.</p>} />
    </section>
  );
}
