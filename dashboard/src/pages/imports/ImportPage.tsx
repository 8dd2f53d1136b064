import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useMe } from '../../auth/session';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import { Field } from '../../components/Field';
import { fieldError, problemsOf, useForm } from '../../components/form';
import { formatBytes } from '../../components/format';
import { useProductChoices } from '../products/productQueries';
import { IMPORT_FORMATS, startImport, type ImportFormat, type StartImport } from './importFile';
import { ImportProgress } from './ImportProgress';
import { keepImport, keptFiles, readKeptImport, type KeptImport } from './keptImport';

type Values = { productId: string; format: ImportFormat | ''; file: File | null; dryRun: boolean };

/**
 * Import licenses from another store, keys kept (docs/import.md): pick the product and the format, upload the export,
 * and (by default) see a dry run's counts and bad rows first; then import the same file for real. The page keeps its
 * work (`keptImport`): leaving it and coming back shows the same choices and the last import, still polled.
 */
export function ImportPage() {
  const products = useProductChoices();
  const fileInput = useRef<HTMLInputElement>(null);
  const tenantId = useMe().data?.tenantId ?? '';
  const [kept] = useState(() => readKeptImport(tenantId));
  const [current, setCurrent] = useState<KeptImport['current']>(kept.current);
  const start = useMutation({
    mutationFn: async (request: StartImport) => ({ id: await startImport(request), request }),
    onSuccess: ({ id, request: { file, ...request } }) => {
      keptFiles.started = file;
      setCurrent({ id, ...request });
    },
  });
  const form = useForm<Values>({
    initial: { productId: kept.productId, format: kept.format, file: keptFiles.chosen, dryRun: kept.dryRun },
    validate: (values) =>
      problemsOf({
        productId: values.productId ? undefined : 'Choose the product the licenses belong to',
        format: values.format ? undefined : 'Choose where the file comes from',
        file: values.file ? undefined : 'Choose the export file',
      }),
    onSubmit: (values) => start.mutate({ productId: values.productId, format: values.format as ImportFormat, dryRun: values.dryRun, file: values.file! }),
  });
  const { productId, format, dryRun, file } = form.values;
  useEffect(() => {
    keptFiles.chosen = file;
    keepImport(tenantId, { productId, format, dryRun, current });
  }, [tenantId, productId, format, dryRun, file, current]);
  // A file input cannot be given a value, but it can be given the files again: it then names the kept file.
  useEffect(() => {
    if (!keptFiles.chosen || !fileInput.current) return;
    const files = new DataTransfer();
    files.items.add(keptFiles.chosen);
    fileInput.current.files = files.files;
  }, []);
  const errorOf = (field: string) => fieldError(form.problems, {}, field);
  const startedFile = current && keptFiles.started;
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
            <select value={productId} onChange={(e) => form.set('productId')(e.target.value)}>
              <option value="">Choose…</option>
              {products.data?.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Format" error={errorOf('format')}>
            <select value={format} onChange={(e) => form.set('format')(e.target.value as ImportFormat)}>
              <option value="">Choose…</option>
              {IMPORT_FORMATS.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Export file" error={errorOf('file')} hint={file ? formatBytes(file.size) : 'CSV, or jsonl for an account export'}>
            <input ref={fileInput} type="file" accept=".csv,.jsonl,.ndjson,text/csv" onChange={(e) => form.set('file')(e.target.files?.[0] ?? null)} />
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={dryRun} onChange={(e) => form.set('dryRun')(e.target.checked)} /> Dry run: report what the import would
            do, change nothing
          </label>
          <ErrorBanner error={start.error ?? products.error} />
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={start.isPending}>
              {start.isPending ? 'Uploading…' : dryRun ? 'Start dry run' : 'Start import'}
            </button>
          </div>
        </form>
      </RequireVerifiedAddress>
      {current && (
        <ImportProgress
          key={current.id}
          importId={current.id}
          onImportForReal={current.dryRun && startedFile ? () => start.mutate({ productId: current.productId, format: current.format, file: startedFile, dryRun: false }) : undefined}
          fileGone={current.dryRun && !startedFile}
        />
      )}
    </>
  );
}
