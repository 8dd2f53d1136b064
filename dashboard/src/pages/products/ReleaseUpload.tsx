import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import type { ReleaseStatus } from '../../api/types';
import { uploadReleaseFile } from '../../api/upload';
import { ChannelField, RolloutField, type Channel } from '../../components/ChannelFields';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { fieldError, orNull, problemsOf, useForm } from '../../components/form';
import { formatBytes } from '../../components/format';
import { productKeys } from './productQueries';

const VERSION = /^[A-Za-z0-9][A-Za-z0-9.\-_+]{0,49}$/;
const STATUSES: ReleaseStatus[] = ['published', 'draft'];

type Values = { file: File | null; version: string; releaseNotes: string; status: ReleaseStatus; channel: Channel; rolloutPercent: number };

const INITIAL: Values = { file: null, version: '', releaseNotes: '', status: 'published', channel: 'stable', rolloutPercent: 100 };

/** Upload a ZIP (with progress), then record the release that points at it. */
export function ReleaseUpload({ productId }: { productId: string }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number>();
  const upload = useMutation({
    mutationFn: async (values: Values) => {
      setProgress(0);
      const stored = await uploadReleaseFile(productId, values.file!, values.version, setProgress);
      return unwrap(
        api.POST('/api/products/{id}/releases', {
          params: { path: { id: productId } },
          body: {
            version: values.version,
            filePath: stored.filePath,
            fileName: stored.fileName,
            fileSize: stored.fileSize,
            status: values.status,
            releaseNotes: orNull(values.releaseNotes),
            channel: values.channel,
            rolloutPercent: values.rolloutPercent,
          },
        }),
      );
    },
    onSuccess: () => {
      form.setValues(INITIAL);
      if (fileInput.current) fileInput.current.value = '';
      void queryClient.invalidateQueries({ queryKey: productKeys.one(productId) });
    },
    onSettled: () => setProgress(undefined),
  });
  const form = useForm<Values>({
    initial: INITIAL,
    validate: (values) =>
      problemsOf({
        file: !values.file ? 'Choose a ZIP file' : /\.zip$/i.test(values.file.name) ? undefined : 'The file must be a ZIP archive (.zip)',
        version: VERSION.test(values.version) ? undefined : 'Version: 1–50 letters, digits, . - _ or +, starting with a letter or digit (e.g. 1.2.0)',
      }),
    onSubmit: (values) => upload.mutate(values),
  });
  const server = serverFieldErrors(upload.error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <section className="card" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a release</h2>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        <Field label="ZIP file" error={errorOf('file')} hint={form.values.file ? formatBytes(form.values.file.size) : 'Large files go straight to storage'}>
          <input ref={fileInput} type="file" accept=".zip,application/zip" onChange={(e) => form.set('file')(e.target.files?.[0] ?? null)} />
        </Field>
        <Field label="Version" error={errorOf('version')}>
          <input value={form.values.version} placeholder="1.0.0" onChange={(e) => form.set('version')(e.target.value)} />
        </Field>
        <Field label="Status" error={errorOf('status')}>
          <select value={form.values.status} onChange={(e) => form.set('status')(e.target.value as ReleaseStatus)}>
            {STATUSES.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </Field>
        <ChannelField label="Channel" hint="Who receives it: licenses on this channel or a more adventurous one" value={form.values.channel} onChange={form.set('channel')} error={errorOf('channel')} />
        <RolloutField value={form.values.rolloutPercent} onChange={form.set('rolloutPercent')} error={errorOf('rolloutPercent')} />
        <Field label="Release notes" error={errorOf('releaseNotes')}>
          <textarea rows={3} value={form.values.releaseNotes} onChange={(e) => form.set('releaseNotes')(e.target.value)} />
        </Field>
        {progress !== undefined && (
          <div className="progress">
            <label htmlFor="upload-progress">Uploading {Math.round(progress * 100)}%</label>
            <progress id="upload-progress" max={1} value={progress} />
          </div>
        )}
        <ErrorBanner error={upload.error} />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={upload.isPending}>
            {upload.isPending ? 'Uploading…' : 'Upload release'}
          </button>
          {upload.isSuccess && <span role="status">Release {upload.data.version} added.</span>}
        </div>
      </form>
    </section>
  );
}
