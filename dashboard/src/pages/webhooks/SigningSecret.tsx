import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Webhook } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { WEBHOOKS_KEY } from './webhookQueries';

/** The signing secret, hidden until asked for; replacing it stops the old one at once. */
export function SigningSecret({ webhook }: { webhook: Webhook }) {
  const [revealed, setRevealed] = useState(false);
  const queryClient = useQueryClient();
  const regenerate = useMutation({
    mutationFn: () => unwrap(api.POST('/api/webhooks/{id}/regenerate-secret', { params: { path: { id: webhook.id } } })),
    onSuccess: (updated) => {
      queryClient.setQueryData([...WEBHOOKS_KEY, webhook.id], updated);
      setRevealed(true);
    },
  });
  return (
    <section className="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p className="muted">Verify each delivery's webhook-signature header with it (Standard Webhooks).</p>
      <div className="copy-value">
        <code aria-label="Signing secret">{revealed ? webhook.secret : `whsec_${'•'.repeat(24)}`}</code>
        <button type="button" className="button button-small" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
          {revealed ? 'Hide' : 'Reveal'}
        </button>
        <CopyButton value={webhook.secret} label="Copy secret" />
      </div>
      <ErrorBanner error={regenerate.error} />
      <ConfirmButton label="Regenerate secret" title="Replace the signing secret?" onConfirm={() => regenerate.mutate()}>
        <p>Deliveries are signed with the new secret from now on, retries included; your receiver must switch at once.</p>
      </ConfirmButton>
    </section>
  );
}
