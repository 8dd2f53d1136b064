import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { serverFieldErrors } from '../../api/errors';
import type { Release } from '../../api/types';
import { uploadPlatformFile } from '../../api/upload';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { fieldError, problemsOf, useForm } from '../../components/form';
import { formatBytes } from '../../components/format';
import { productKeys } from './productQueries';

type Platform = Release['files'][number]['platform'];

/** The platforms of DECISIONS §26, as a vendor names them. */
const PLATFORMS: { value: Platform; label: string }[] = [
  { value: 'windows-x64', label: 'Windows x64' },
  { value: 'windows-arm64', label: 'Windows ARM64' },
  { value: 'macos-arm64', label: 'macOS Apple silicon' },
  { value: 'macos-x64', label: 'macOS Intel' },
  { value: 'linux-x64', label: 'Linux x64' },
  { value: 'linux-arm64', label: 'Linux ARM64' },
];
const labelOf = (platform: Platform) => PLATFORMS.find((p) => p.value === platform)?.label ?? platform;

type Values = { platform: Platform; file: File | null; signature: string };
const INITIAL: Values = { platform: 'windows-x64', file: null, signature: '' };

/**
 * A release's desktop files (docs/desktop.md): one per platform, served by the Electron, Tauri and Sparkle feeds. Each
 * upload goes straight to storage with its progress shown; a platform that has a file gets the new one in its place.
 */
export function PlatformFiles({ productId, release, canEdit }: { productId: string; release: Release; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number>();
  const upload = useMutation({
    mutationFn: (values: Values) => {
      setProgress(0);
      return uploadPlatformFile(productId, release.id, { platform: values.platform, file: values.file!, signature: values.signature.trim() || undefined }, setProgress);
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
    validate: (values) => problemsOf({ file: values.file ? undefined : 'Choose the build for this platform' }),
    onSubmit: (values) => upload.mutate(values),
  });
  const server = serverFieldErrors(upload.error);
  const taken = release.files.some((file) => file.platform === form.values.platform);
  return (
    <details>
      <summary>Desktop files ({release.files.length})</summary>
      {release.files.length > 0 ? (
        <ul className="small" aria-label={`Desktop files of ${release.version}`}>
          {release.files.map((file) => (
            <li key={file.platform}>
              <strong>{labelOf(file.platform)}</strong>: {file.fileName} · {formatBytes(file.fileSize)}
              {file.signature ? ' · signed' : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No desktop files: the Electron, Tauri and Sparkle feeds offer this release once it has one for the platform.</p>
      )}
      {canEdit && (
        <form onSubmit={form.handleSubmit} noValidate className="grid-form" aria-label={`Add a desktop file to ${release.version}`}>
          <Field label="Platform" error={fieldError(form.problems, server, 'platform')} hint={taken ? 'Replaces the file this platform has' : undefined}>
            <select value={form.values.platform} onChange={(e) => form.set('platform')(e.target.value as Platform)}>
              {PLATFORMS.map((platform) => (
                <option key={platform.value} value={platform.value}>
                  {platform.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Build" error={fieldError(form.problems, server, 'file') ?? fieldError(form.problems, server, 'fileSize')} hint={form.values.file ? formatBytes(form.values.file.size) : 'The installer or archive the updater downloads'}>
            <input ref={fileInput} type="file" onChange={(e) => form.set('file')(e.target.files?.[0] ?? null)} />
          </Field>
          <Field label="Signature (optional)" error={fieldError(form.problems, server, 'signature')} hint="Tauri: the .sig file's content; Sparkle: the sparkle:edSignature of sign_update">
            <textarea rows={2} value={form.values.signature} onChange={(e) => form.set('signature')(e.target.value)} />
          </Field>
          {progress !== undefined && (
            <div className="progress">
              <label htmlFor={`platform-progress-${release.id}`}>Uploading {Math.round(progress * 100)}%</label>
              <progress id={`platform-progress-${release.id}`} max={1} value={progress} />
            </div>
          )}
          <ErrorBanner error={upload.error} />
          <div className="actions">
            <button type="submit" className="button" disabled={upload.isPending}>
              {upload.isPending ? 'Uploading…' : 'Upload file'}
            </button>
            {upload.isSuccess && <span role="status">{labelOf(upload.data.platform)} file added.</span>}
          </div>
        </form>
      )}
    </details>
  );
}
