import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import { serverFieldErrors } from '../../api/errors';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyValue } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { formatDate } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { TableScroll } from '../../components/TableScroll';

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
      <QueryView query={keys} loading="Loading API keys…" isEmpty={(data) => data.items.length === 0} empty={<p>No API keys yet.</p>}>
        {(data) => (
          <TableScroll label="API keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>{formatDate(key.createdAt)}</td>
                    <td>{formatDate(key.lastUsedAt)}</td>
                    <td>
                      <ConfirmButton label="Revoke" title={`Revoke the key "${key.name}"?`} onConfirm={() => revoke.mutate(key.id)}>
                        <p>Servers using it are refused at once.</p>
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
    </section>
  );
}
