import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { versionKey } from '../../../../shared/catalog/releases/versions';
import { api, unwrap } from '../../api/client';
import { ApiError, serverFieldErrors } from '../../api/errors';
import type { Release, ReleaseStatus } from '../../api/types';
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

/** What the form knows of the version the chosen ZIP names: being read, or read (undefined: it names none). */
type ZipVersion = { state: 'none' } | { state: 'reading' } | { state: 'read'; version?: string };

/**
 * The published release that already has `version` (compared as the service compares them: 1.2 = 1.2.0), which a
 * second published one may not share (DECISIONS §22).
 */
const publishedAs = (releases: Release[], version: string) => releases.find((release) => release.status === 'published' && versionKey(release.version) === versionKey(version));

/**
 * Upload a ZIP (with progress), then record the release that points at it. The version is the field's, else the one
 * the ZIP names (read here as soon as the file is chosen); a version already published is refused here, before any
 * upload, and the service's own 409 (a release published meanwhile) is shown at the field, in words.
 */
export function ReleaseUpload({ productId, releases }: { productId: string; releases: Release[] }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number>();
  const [fromZip, setFromZip] = useState<ZipVersion>({ state: 'none' });
  const upload = useMutation({
    mutationFn: async (values: Values) => {
      setProgress(0);
      const version = versionOf(values);
      const stored = await uploadReleaseFile(productId, values.file!, version, setProgress);
      return unwrap(
        api.POST('/api/products/{id}/releases', {
          params: { path: { id: productId } },
          body: {
            // Left out: the service reads it from the ZIP, as the form did.
            ...(version && { version }),
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
      setFromZip({ state: 'none' });
      if (fileInput.current) fileInput.current.value = '';
      void queryClient.invalidateQueries({ queryKey: productKeys.one(productId) });
    },
    onSettled: () => setProgress(undefined),
  });
  const versionOf = (values: Values) => values.version.trim() || (fromZip.state === 'read' ? fromZip.version : undefined);
  const versionProblem = (values: Values) => {
    const version = versionOf(values);
    if (version === undefined) return fromZip.state === 'read' ? 'The ZIP names no version (no Version: header, no Stable tag): enter it' : 'Version is required';
    if (!VERSION.test(version)) return `Version ${version.slice(0, 60)} is not a version: 1–50 letters, digits, . - _ or +, starting with a letter or digit (e.g. 1.2.0)`;
    const taken = values.status === 'published' && publishedAs(releases, version);
    return taken ? `Release ${taken.version} already exists: give this one a higher version, or upload it as a draft` : undefined;
  };
  const form = useForm<Values>({
    initial: INITIAL,
    validate: (values) =>
      problemsOf({
        file: !values.file ? 'Choose a ZIP file' : /\.zip$/i.test(values.file.name) ? undefined : 'The file must be a ZIP archive (.zip)',
        version: !values.version.trim() && fromZip.state === 'reading' ? 'Reading the version from the ZIP…' : versionProblem(values),
      }),
    onSubmit: (values) => upload.mutate(values),
  });
  const chooseFile = async (file: File | null) => {
    form.set('file')(file);
    if (!file) return setFromZip({ state: 'none' });
    setFromZip({ state: 'reading' });
    // Loaded with the first file chosen: the unzip code is no part of the dashboard's first load.
    const { zipVersion } = await import('../../api/zip-version');
    const version = await zipVersion(file);
    // Another file chosen meanwhile has its own reading.
    if (fileInput.current?.files?.[0] === file) setFromZip({ state: 'read', version });
  };
  // A version already published is said at once, not only when the form is sent.
  const version = versionOf(form.values);
  const taken = version !== undefined && form.values.status === 'published' && publishedAs(releases, version);
  // The service's 409 (published meanwhile, elsewhere) belongs to the version field, as the form's own check.
  const conflict = upload.error instanceof ApiError && upload.error.status === 409 ? `${upload.error.message}: give this one a higher version` : undefined;
  const server = { ...serverFieldErrors(upload.error), ...(conflict && { version: conflict }) };
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  const versionHint =
    fromZip.state === 'reading' ? 'Reading the ZIP…' : fromZip.state === 'read' && fromZip.version ? `Blank: ${fromZip.version}, as the ZIP names it` : 'Blank: the version the ZIP names';
  return (
    <section className="card" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a release</h2>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        <Field label="ZIP file" error={errorOf('file')} hint={form.values.file ? formatBytes(form.values.file.size) : 'Large files go straight to storage'}>
          <input ref={fileInput} type="file" accept=".zip,application/zip" onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)} />
        </Field>
        <Field label="Version" hint={versionHint} error={errorOf('version') ?? (taken ? versionProblem(form.values) : undefined)}>
          <input value={form.values.version} placeholder={fromZip.state === 'read' ? fromZip.version : undefined} onChange={(e) => form.set('version')(e.target.value)} />
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
        {!conflict && <ErrorBanner error={upload.error} />}
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
