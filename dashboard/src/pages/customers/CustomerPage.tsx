import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import type { components } from '../../api/schema.gen';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate, formatDay, formatMoney } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { ChangePlanForm } from './ChangePlanForm';
import { CustomerForm, type CustomerBody } from './CustomerForm';
import { CustomerPrivacySection } from './CustomerPrivacySection';
import { customerName } from './customerName';
import { ViewAsCustomer } from './ViewAsCustomer';

type CustomerDetail = components['schemas']['CustomerDetail'];
type Subscription = CustomerDetail['subscriptions'][number];

/**
 * A running subscription's plan change. A subscription names its product by name only: its product is the one of the
 * customer's license on its plan (or, failing that, of that name).
 */
function SubscriptionPlanChange({ customer, subscription }: { customer: CustomerDetail; subscription: Subscription }) {
  const canChangePlans = useCan()('billing');
  const productId = (
    customer.licenses.find((license) => license.planId !== null && license.planId === subscription.planId) ??
    customer.licenses.find((license) => license.product.name === subscription.productName)
  )?.product.id;
  if (!canChangePlans || subscription.status === 'canceled' || !productId) return null;
  return <ChangePlanForm subscription={subscription} productId={productId} />;
}

export function CustomerPage() {
  const { customerId = '' } = useParams();
  const customer = useQuery({ queryKey: ['customers', customerId], queryFn: () => unwrap(api.GET('/api/customers/{id}', { params: { path: { id: customerId } } })) });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/customers">Customers</Link> /
      </p>
      <QueryView query={customer} loading="Loading the customer…">
        {(data) => <CustomerView customer={data} />}
      </QueryView>
    </>
  );
}

function CustomerView({ customer }: { customer: CustomerDetail }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const path = { params: { path: { id: customer.id } } };
  const save = useMutation({
    mutationFn: (body: CustomerBody) => unwrap(api.PUT('/api/customers/{id}', { ...path, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/customers/{id}', path)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['customers'] });
      void navigate('/customers');
    },
  });
  return (
    <>
      <div className="page-head">
        <h1>{customerName(customer)}</h1>
        <div className="actions">
          <ViewAsCustomer customerId={customer.id} />
          {can('licenses') && (
            <Link className="button" to={`/licenses/new?email=${encodeURIComponent(customer.email)}`}>
              New license for this customer
            </Link>
          )}
        </div>
      </div>
      <section aria-labelledby="licenses-heading">
        <h2 id="licenses-heading">Licenses</h2>
        {customer.licenses.length === 0 ? (
          <p className="empty">No licenses.</p>
        ) : (
          <ul className="list">
            {customer.licenses.map((license) => (
              <li key={license.id}>
                <Link to={`/licenses/${license.id}`}>
                  <code>{license.licenseKey}</code>
                </Link>{' '}
                {license.product.name} <StatusBadge status={license.status} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="payments-heading">
        <h2 id="payments-heading">Payments</h2>
        {customer.payments.length === 0 ? (
          <p className="empty">No payments.</p>
        ) : (
          <ul className="list">
            {customer.payments.map((payment) => (
              <li key={payment.id}>
                {formatMoney(payment.amount, payment.currency)} · {payment.productName ?? '—'} · {formatDate(payment.createdAt)} <StatusBadge status={payment.status} />{' '}
                {payment.invoicePdfUrl && <a href={payment.invoicePdfUrl}>Invoice</a>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">Subscriptions</h2>
        {customer.subscriptions.length === 0 ? (
          <p className="empty">No subscriptions.</p>
        ) : (
          <ul className="list">
            {customer.subscriptions.map((subscription) => (
              <li key={subscription.id}>
                {subscription.productName ?? '—'} {subscription.planName ?? ''} · {subscription.price !== null && subscription.currency ? formatMoney(subscription.price, subscription.currency) : '—'}{' '}
                {subscription.billingCycle ?? ''} · until {formatDay(subscription.currentPeriodEnd)} <StatusBadge status={subscription.status} />
                {subscription.cancelAtPeriodEnd && <span className="muted"> (cancels at period end)</span>}
                {subscription.pendingPlanEffectiveAt && <span className="muted"> (plan change on {formatDay(subscription.pendingPlanEffectiveAt)})</span>}
                <SubscriptionPlanChange customer={customer} subscription={subscription} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {can('customerSupport') && (
        <>
          <section className="card" aria-labelledby="customer-edit-heading">
            <h2 id="customer-edit-heading">Details</h2>
            <CustomerForm
              key={customer.updatedAt}
              customer={customer}
              submitLabel="Save customer"
              pending={save.isPending}
              error={save.error}
              saved={save.isSuccess}
              onSubmit={(body) => save.mutate(body)}
            />
          </section>
          <CustomerPrivacySection customer={customer} canErase={can('customers')} />
        </>
      )}
      {can('customers') && (
        <section className="card card-danger" aria-labelledby="customer-delete-heading">
          <h2 id="customer-delete-heading">Delete</h2>
          <p>Licenses keep their e-mail; payments and subscriptions stay.</p>
          <ErrorBanner error={remove.error} />
          <ConfirmButton label="Delete customer" title={`Delete ${customerName(customer)}?`} onConfirm={() => remove.mutate()} />
        </section>
      )}
    </>
  );
}
