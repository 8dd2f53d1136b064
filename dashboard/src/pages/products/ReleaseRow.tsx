import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import { serverFieldErrors } from '../../api/errors';
import type { Release, ReleaseStatus } from '../../api/types';
import { ChannelField, RolloutField, rolloutSummary, type Channel } from '../../components/ChannelFields';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { fieldError, orNull, useForm } from '../../components/form';
import { formatBytes, formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { PlatformFiles } from './PlatformFiles';
import { productKeys } from './productQueries';

/** The moves a release can make from where it is: publish, back to draft, archive. */
const MOVES: { status: ReleaseStatus; label: string }[] = [
  { status: 'published', label: 'Publish' },
  { status: 'draft', label: 'Make draft' },
  { status: 'archived', label: 'Archive' },
];

type ReleaseChanges = {
  status?: ReleaseStatus;
  releaseNotes?: string | null;
  tested?: string | null;
  requires?: string | null;
  requiresPhp?: string | null;
  channel?: Channel;
  rolloutPercent?: number;
};

export function ReleaseRow({ productId, release }: { productId: string; release: Release }) {
  const queryClient = useQueryClient();
  const canEdit = useCan()('catalog');
  const path = { params: { path: { id: productId, releaseId: release.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: productKeys.one(productId) });
  const update = useMutation({ mutationFn: (body: ReleaseChanges) => unwrap(api.PUT('/api/products/{id}/releases/{releaseId}', { ...path, body })), onSuccess: refresh });
  const remove = useMutation({ mutationFn: () => unwrap(api.DELETE('/api/products/{id}/releases/{releaseId}', path)), onSuccess: refresh });
  const form = useForm({
    initial: {
      releaseNotes: release.releaseNotes ?? '',
      tested: release.tested ?? '',
      requires: release.requires ?? '',
      requiresPhp: release.requiresPhp ?? '',
      channel: release.channel,
      rolloutPercent: release.rolloutPercent,
    },
    validate: () => ({}),
    onSubmit: (values) =>
      update.mutate({
        releaseNotes: orNull(values.releaseNotes),
        tested: orNull(values.tested),
        requires: orNull(values.requires),
        requiresPhp: orNull(values.requiresPhp),
        channel: values.channel,
        rolloutPercent: values.rolloutPercent,
      }),
  });
  const server = serverFieldErrors(update.error);
  return (
    <li className="card">
      <div className="row-head">
        <h3>
          {release.version} <StatusBadge status={release.status} />
        </h3>
        {canEdit && (
          <div className="actions">
            {MOVES.filter((move) => move.status !== release.status).map((move) => (
              <button key={move.status} type="button" className="button button-small" disabled={update.isPending} onClick={() => update.mutate({ status: move.status })}>
                {move.label}
              </button>
            ))}
            <ConfirmButton label="Delete" title={`Delete release ${release.version}?`} onConfirm={() => remove.mutate()}>
              <p>Installed copies stop being offered it. The file stays in storage.</p>
            </ConfirmButton>
          </div>
        )}
      </div>
      <p className="muted small">
        {release.fileName} · {formatBytes(release.fileSize)} · {release.downloadCount} downloads · released {formatDate(release.releasedAt)}
      </p>
      <p className="small">
        Channel: <strong>{release.channel}</strong> · Rollout: <strong>{release.rolloutPercent}%</strong> ({rolloutSummary(release.rolloutPercent).toLowerCase()})
      </p>
      <ErrorBanner error={update.error ?? remove.error} />
      <PlatformFiles productId={productId} release={release} canEdit={canEdit} />
      {canEdit && (
        <details>
          <summary>Channel, rollout, notes and update metadata</summary>
          <form onSubmit={form.handleSubmit} noValidate className="grid-form">
            <ChannelField label="Channel" value={form.values.channel} onChange={form.set('channel')} error={fieldError(form.problems, server, 'channel')} />
            <RolloutField value={form.values.rolloutPercent} onChange={form.set('rolloutPercent')} error={fieldError(form.problems, server, 'rolloutPercent')} />
            <Field label="Release notes" error={fieldError(form.problems, server, 'releaseNotes')}>
              <textarea rows={4} value={form.values.releaseNotes} onChange={(e) => form.set('releaseNotes')(e.target.value)} />
            </Field>
            <Field label="Tested up to" error={fieldError(form.problems, server, 'tested')}>
              <input value={form.values.tested} onChange={(e) => form.set('tested')(e.target.value)} />
            </Field>
            <Field label="Requires" error={fieldError(form.problems, server, 'requires')}>
              <input value={form.values.requires} onChange={(e) => form.set('requires')(e.target.value)} />
            </Field>
            <Field label="Requires PHP" error={fieldError(form.problems, server, 'requiresPhp')}>
              <input value={form.values.requiresPhp} onChange={(e) => form.set('requiresPhp')(e.target.value)} />
            </Field>
            <div className="actions">
              <button type="submit" className="button button-primary" disabled={update.isPending}>
                Save
              </button>
            </div>
          </form>
        </details>
      )}
    </li>
  );
}
