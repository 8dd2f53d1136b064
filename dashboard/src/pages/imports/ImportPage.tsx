import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useMe } from '../../auth/session';
import { ErrorBanner } from '../../components/ErrorBanner';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import { Field } from '../../components/Field';
import { fieldError, problemsOf, useForm } from '../../components/form';
import { formatBytes } from '../../components/format';
import { useProductChoices } from '../products/productQueries';
import { IMPORT_FORMATS, startImport, type ImportFormat, type StartImport } from './importFile';
import { ImportProgress } from './ImportProgress';
import { KeptFileInput } from './KeptFileInput';
import { keepImport, keptInMemory, readKeptImport, type KeptImport } from './keptImport';

type Values = {
  productId: string;
  format: ImportFormat | '';
  file: File | null;
  dryRun: boolean;
  timezone: string;
  productName: string;
  usersFile: File | null;
};

/**
 * Import licenses from another store, keys kept (docs/import.md): pick the product and the format, upload the export,
 * and (by default) see a dry run's counts and bad rows first; then import the same file for real. The page keeps its
 * work (`keptImport`): leaving it and coming back shows the same choices and the last import, still polled.
 */
export function ImportPage() {
  const products = useProductChoices();
  const tenantId = useMe().data?.tenantId ?? '';
  const [kept] = useState(() => readKeptImport(tenantId));
  const [current, setCurrent] = useState<KeptImport['current']>(kept.current);
  const start = useMutation({
    mutationFn: async (request: StartImport) => ({ id: await startImport(request), request }),
    onSuccess: ({ id, request }) => {
      keptInMemory.started = request;
      setCurrent({ id, dryRun: request.dryRun });
    },
  });
  const form = useForm<Values>({
    initial: {
      productId: kept.productId,
      format: kept.format,
      dryRun: kept.dryRun,
      timezone: kept.timezone,
      productName: kept.productName,
      file: keptInMemory.file,
      usersFile: keptInMemory.usersFile,
    },
    validate: (values) =>
      problemsOf({
        productId: values.productId ? undefined : 'Choose the product the licenses belong to',
        format: values.format ? undefined : 'Choose where the file comes from',
        file: values.file ? undefined : 'Choose the export file',
      }),
    onSubmit: (values) =>
      start.mutate({
        productId: values.productId,
        format: values.format as ImportFormat,
        dryRun: values.dryRun,
        file: values.file!,
        // Each format's own options, and only its own (the service refuses another format's).
        options:
          values.format === 'edd'
            ? { timezone: values.timezone.trim() || undefined, productName: values.productName.trim() || undefined }
            : values.format === 'woocommerce'
              ? { usersFile: values.usersFile ?? undefined }
              : {},
      }),
  });
  const { productId, format, dryRun, timezone, productName, file, usersFile } = form.values;
  useEffect(() => {
    Object.assign(keptInMemory, { file, usersFile });
    keepImport(tenantId, { productId, format, dryRun, timezone, productName, current });
  }, [tenantId, productId, format, dryRun, timezone, productName, file, usersFile, current]);
  // The request that started the import shown, if it is still at hand (not after a reload).
  const started = current && keptInMemory.started;
  const errorOf = (field: string) => fieldError(form.problems, {}, field);
  return (
    <>
      <h1>Import licenses</h1>
      <p className="muted">
        Every key is kept exactly as issued and works at once; keys that exist already are skipped. Nothing is e-mailed to
        your customers.
      </p>
      <RequireVerifiedAddress to="import licenses">
        <form onSubmit={form.handleSubmit} noValidate className="grid-form">
          <Field label="Product" error={errorOf('productId')}>
            <select value={form.values.productId} onChange={(e) => form.set('productId')(e.target.value)}>
              <option value="">Choose…</option>
              {products.data?.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Format" error={errorOf('format')}>
            <select value={form.values.format} onChange={(e) => form.set('format')(e.target.value as ImportFormat)}>
              <option value="">Choose…</option>
              {IMPORT_FORMATS.map((format) => (
                <option key={format.value} value={format.value}>
                  {format.label}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Export file"
            error={errorOf('file')}
            hint={form.values.file ? formatBytes(form.values.file.size) : 'CSV; jsonl for an account export; the API pages as JSON for Freemius and Lemon Squeezy'}
          >
            <KeptFileInput kept={keptInMemory.file} accept=".csv,.jsonl,.ndjson,.json,text/csv,application/json" onChange={(e) => form.set('file')(e.target.files?.[0] ?? null)} />
          </Field>
          {form.values.format === 'edd' && (
            <>
              <Field label="Store time zone" hint="WordPress → Settings → General → Timezone, e.g. America/New_York: EDD writes its dates in it (empty: UTC)">
                <input type="text" value={form.values.timezone} onChange={(e) => form.set('timezone')(e.target.value)} />
              </Field>
              <Field label="Product in the file" hint="For an export of all products: the Product Name whose licenses go into this product">
                <input type="text" value={form.values.productName} onChange={(e) => form.set('productName')(e.target.value)} />
              </Field>
            </>
          )}
          {form.values.format === 'woocommerce' && (
            <Field label="Users file (optional)" hint="CSV of the site's users (ID, user_email, display_name) for the customers' e-mails: wp user list --fields=ID,user_email,display_name --format=csv">
              <KeptFileInput kept={keptInMemory.usersFile} accept=".csv,text/csv" onChange={(e) => form.set('usersFile')(e.target.files?.[0] ?? null)} />
            </Field>
          )}
          <label className="checkbox">
            <input type="checkbox" checked={form.values.dryRun} onChange={(e) => form.set('dryRun')(e.target.checked)} /> Dry run: report what the
            import would do, change nothing
          </label>
          <ErrorBanner error={start.error ?? products.error} />
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={start.isPending}>
              {start.isPending ? 'Uploading…' : form.values.dryRun ? 'Start dry run' : 'Start import'}
            </button>
          </div>
        </form>
      </RequireVerifiedAddress>
      {current && (
        <ImportProgress
          key={current.id}
          importId={current.id}
          onImportForReal={current.dryRun && started ? () => start.mutate({ ...started, dryRun: false }) : undefined}
          fileGone={current.dryRun && !started}
        />
      )}
    </>
  );
}
