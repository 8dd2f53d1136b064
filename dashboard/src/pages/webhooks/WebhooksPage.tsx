import { Link } from 'react-router';
import { useCan } from '../../auth/permissions';
import { useVerifiedAddress, VerifyFirstNotice } from '../../auth/VerifyFirst';
import { formatDate } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { useWebhooks } from './webhookQueries';
import { TableScroll } from '../../components/TableScroll';

export function WebhooksPage() {
  const can = useCan();
  const verified = useVerifiedAddress();
  const webhooks = useWebhooks();
  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
        {can('webhooks') && verified && (
          <Link className="button button-primary" to="/webhooks/new">
            New webhook
          </Link>
        )}
      </div>
      {can('webhooks') && !verified && <VerifyFirstNotice to="add or change webhooks" />}
      <QueryView
        query={webhooks}
        loading="Loading webhooks…"
        isEmpty={(data) => data.items.length === 0}
        empty={<p>No webhooks yet. Add one to hear about licenses, customers and payments as they happen.</p>}
      >
        {(data) => (
          <TableScroll label="Webhooks">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Last delivery</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((webhook) => (
                  <tr key={webhook.id}>
                    <td>
                      {can('readSecrets') ? <Link to={`/webhooks/${webhook.id}`}>{webhook.name}</Link> : webhook.name}
                    </td>
                    <td className="break">{webhook.url}</td>
                    <td>{webhook.events.length}</td>
                    <td>
                      <StatusBadge status={webhook.enabled ? 'enabled' : 'disabled'} />
                    </td>
                    <td>{formatDate(webhook.lastTriggeredAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
    </>
  );
}
