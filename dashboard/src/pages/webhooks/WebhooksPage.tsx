import { Link } from 'react-router';
import type { Webhook } from '../../api/types';
import { useCan } from '../../auth/permissions';
import type { Column } from '../../components/DataTable';
import { useVerifiedAddress, VerifyFirstNotice } from '../../auth/VerifyFirst';
import { formatDate } from '../../components/format';
import { PageHead } from '../../components/ListHeader';
import { QueryTable } from '../../components/QueryTable';
import { StatusBadge } from '../../components/StatusBadge';
import { useWebhooks } from './webhookQueries';

export function WebhooksPage() {
  const can = useCan();
  const verified = useVerifiedAddress();
  const webhooks = useWebhooks();
  const columns: Column<Webhook>[] = [
    { header: 'Name', cell: (webhook) => (can('readSecrets') ? <Link to={`/webhooks/${webhook.id}`}>{webhook.name}</Link> : webhook.name) },
    { header: 'URL', cell: (webhook) => webhook.url, className: 'break' },
    { header: 'Events', cell: (webhook) => webhook.events.length },
    { header: 'State', cell: (webhook) => <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} /> },
    { header: 'Last delivery', cell: (webhook) => formatDate(webhook.lastTriggeredAt) },
  ];
  return (
    <>
      <PageHead title="Webhooks" newLink={verified ? { to: '/webhooks/new', label: 'New webhook', permission: 'webhooks' } : undefined} />
      {can('webhooks') && !verified && <VerifyFirstNotice to="add or change webhooks" />}
      <QueryTable query={webhooks} loading="Loading webhooks…" label="Webhooks" columns={columns} empty={<p>No webhooks yet. Add one to hear about licenses, customers and payments as they happen.</p>} />
    </>
  );
}
