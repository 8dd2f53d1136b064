import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { useCan } from '../../auth/permissions';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { fieldError, problemsOf, useForm } from '../../components/form';

export const ACCOUNT_SETTINGS_KEY = ['account-settings'] as const;

/** The service's rule for a Composer vendor name (DECISIONS §24). */
const VENDOR_PATTERN = /^[a-z0-9]+(?:[_.-][a-z0-9]+)*$/;

/** The account's Composer vendor: the first half of every package name in the Composer repository (docs/composer.md). */
export function ComposerSection() {
  const can = useCan();
  const settings = useQuery({ queryKey: ACCOUNT_SETTINGS_KEY, queryFn: () => unwrap(api.GET('/api/account/settings')) });
  if (!settings.data) return null;
  return <VendorForm key={settings.data.composerVendor} vendor={settings.data.composerVendor} editable={can('catalog')} />;
}

function VendorForm({ vendor, editable }: { vendor: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: { composerVendor: string }) => unwrap(api.PUT('/api/account/settings', { body })),
    onSuccess: (updated) => queryClient.setQueryData(ACCOUNT_SETTINGS_KEY, updated),
  });
  const form = useForm({
    initial: { composerVendor: vendor },
    validate: (values) =>
      problemsOf({
        composerVendor:
          values.composerVendor.length === 0 || values.composerVendor.length > 64 || !VENDOR_PATTERN.test(values.composerVendor)
            ? 'Lower-case letters and digits, joined by single -, _ or .'
            : undefined,
      }),
    onSubmit: (values) => save.mutate({ composerVendor: values.composerVendor }),
  });
  const server = serverFieldErrors(save.error);
  return (
    <section className="card" aria-labelledby="composer-heading">
      <h2 id="composer-heading">Composer</h2>
      <p className="muted">
        Customers install your products with Composer as <code>{form.values.composerVendor || vendor}/&lt;product slug&gt;</code>. Renaming the
        vendor renames every package at once.
      </p>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        <Field label="Vendor name" error={fieldError(form.problems, server, 'composerVendor')}>
          <input value={form.values.composerVendor} readOnly={!editable} onChange={(e) => form.set('composerVendor')(e.target.value.trim())} />
        </Field>
        {editable && <FormFooter error={save.error} pending={save.isPending} submitLabel="Save vendor" saved={save.isSuccess} />}
      </form>
    </section>
  );
}

