import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { Webhook } from '../../api/types';
import { RequireVerifiedAddress, useVerifiedAddress } from '../../auth/VerifyFirst';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { QueryView } from '../../components/QueryView';
import { DeliveriesLog } from './DeliveriesLog';
import { SigningSecret } from './SigningSecret';
import { WebhookForm, type WebhookBody } from './WebhookForm';
import { useWebhooks, WEBHOOKS_KEY } from './webhookQueries';

export function WebhookPage() {
  const { webhookId = '' } = useParams();
  const webhook = useQuery({ queryKey: [...WEBHOOKS_KEY, webhookId], queryFn: () => unwrap(api.GET('/api/webhooks/{id}', { params: { path: { id: webhookId } } })) });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/webhooks">Webhooks</Link> /
      </p>
      <QueryView query={webhook} loading="Loading the webhook…">
        {(data) => <WebhookView webhook={data} />}
      </QueryView>
    </>
  );
}

function WebhookView({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const kinds = useWebhooks();
  const verified = useVerifiedAddress();
  const path = { params: { path: { id: webhook.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  const save = useMutation({ mutationFn: (body: WebhookBody) => unwrap(api.PUT('/api/webhooks/{id}', { ...path, body })), onSuccess: refresh });
  const test = useMutation({ mutationFn: () => unwrap(api.POST('/api/webhooks/{id}/test', path)), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/webhooks/{id}', path)),
    onSuccess: async () => {
      await refresh();
      void navigate('/webhooks');
    },
  });
  return (
    <>
      <div className="page-head">
        <h1>{webhook.name}</h1>
        {verified && (
          <button type="button" className="button" disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? 'Sending…' : 'Send test event'}
          </button>
        )}
      </div>
      {test.data && (
        <div className={`banner ${test.data.success ? 'banner-success' : 'banner-error'}`} role="status">
          Test delivery {test.data.success ? 'succeeded' : 'failed'}: {test.data.status ? `HTTP ${test.data.status} ` : ''}
          {test.data.statusText}
        </div>
      )}
      <ErrorBanner error={test.error} />
      <SigningSecret webhook={webhook} />
      <section className="card" aria-labelledby="webhook-edit-heading">
        <h2 id="webhook-edit-heading">Settings</h2>
        <RequireVerifiedAddress to="add or change webhooks">
          <QueryView query={kinds} loading="Loading event kinds…">
            {(data) => (
              <WebhookForm
                key={webhook.updatedAt}
                webhook={webhook}
                eventKinds={data.events}
                submitLabel="Save webhook"
                pending={save.isPending}
                error={save.error}
                saved={save.isSuccess}
                onSubmit={(body) => save.mutate(body)}
              />
            )}
          </QueryView>
        </RequireVerifiedAddress>
      </section>
      <DeliveriesLog webhookId={webhook.id} />
      <section className="card card-danger" aria-labelledby="webhook-delete-heading">
        <h2 id="webhook-delete-heading">Delete</h2>
        <ErrorBanner error={remove.error} />
        <ConfirmButton label="Delete webhook" title={`Delete the webhook ${webhook.name}?`} onConfirm={() => remove.mutate()}>
          <p>Pending deliveries to it end as failed.</p>
        </ConfirmButton>
      </section>
    </>
  );
}
