import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import { QueryView } from '../../components/QueryView';
import { WebhookForm, type WebhookBody } from './WebhookForm';
import { useWebhooks, WEBHOOKS_KEY } from './webhookQueries';

export function NewWebhookPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const create = useMutation({
    mutationFn: (body: WebhookBody) => unwrap(api.POST('/api/webhooks', { body })),
    onSuccess: (webhook) => {
      void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      void navigate(`/webhooks/${webhook.id}`);
    },
  });
  return (
    <>
      <h1>New webhook</h1>
      <RequireVerifiedAddress to="add or change webhooks">
        <QueryView query={webhooks} loading="Loading event kinds…">
          {(data) => <WebhookForm eventKinds={data.events} submitLabel="Create webhook" pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />}
        </QueryView>
      </RequireVerifiedAddress>
    </>
  );
}
