import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { GETTING_STARTED_KEY } from '../../api/getting-started';
import { PAYMENT_PROVIDER_KEY, usePaymentProvider } from '../../api/service-base';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyValue } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { QueryView } from '../../components/QueryView';
import { TaxSection } from './TaxSection';

/** The Stripe events the service handles (docs/deploy.md, Stripe): what to tick when adding the endpoint. */
const STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'invoice.paid',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
];

type ConnectBody = { provider: 'stripe'; secretKey: string; webhookSecret: string; sellerName?: string; replyTo?: string };

export function PaymentProviderPage() {
  const provider = usePaymentProvider();
  const queryClient = useQueryClient();
  // The first steps (and the pages that offer checkout links by them) follow the connection.
  const refresh = () => Promise.all([PAYMENT_PROVIDER_KEY, GETTING_STARTED_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const connect = useMutation({
    mutationFn: (body: ConnectBody) => unwrap(api.PUT('/api/payment-provider', { body })),
    onSuccess: (status) => {
      queryClient.setQueryData(PAYMENT_PROVIDER_KEY, status);
      void queryClient.invalidateQueries({ queryKey: GETTING_STARTED_KEY });
      form.setValues({ secretKey: '', webhookSecret: '', sellerName: '', replyTo: '' });
    },
  });
  const disconnect = useMutation({ mutationFn: () => unwrap(api.DELETE('/api/payment-provider')), onSuccess: refresh });
  const form = useForm({
    initial: { secretKey: '', webhookSecret: '', sellerName: '', replyTo: '' },
    validate: (values) =>
      problemsOf({
        secretKey: /^(sk|rk)_(test|live)_\S+$/.test(values.secretKey.trim()) ? undefined : 'A Stripe secret key (sk_…) or restricted key (rk_…)',
        webhookSecret: /^whsec_\S+$/.test(values.webhookSecret.trim()) ? undefined : 'The endpoint’s signing secret (whsec_…)',
        replyTo: values.replyTo.trim() ? check.email(values.replyTo) : undefined,
      }),
    onSubmit: (values) =>
      connect.mutate({
        provider: 'stripe',
        secretKey: values.secretKey.trim(),
        webhookSecret: values.webhookSecret.trim(),
        ...(values.sellerName.trim() && { sellerName: values.sellerName.trim() }),
        ...(values.replyTo.trim() && { replyTo: values.replyTo.trim() }),
      }),
  });
  const server = serverFieldErrors(connect.error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  return (
    <>
      <h1>Payment provider</h1>
      <QueryView query={provider} loading="Loading the payment provider…">
        {(status) => (
          <>
            <section className="card" aria-labelledby="stripe-status-heading">
              <h2 id="stripe-status-heading">Stripe</h2>
              <p>{status.connected ? 'Connected: checkout links sell through your Stripe account.' : 'Not connected: checkout links answer that checkout is not available.'}</p>
              <p>In Stripe, add a webhook endpoint with this URL, then paste its signing secret below.</p>
              <CopyValue value={status.webhookUrl} label="Webhook URL" />
              <details>
                <summary>Events to send</summary>
                <ul>
                  {STRIPE_EVENTS.map((event) => (
                    <li key={event}>
                      <code>{event}</code>
                    </li>
                  ))}
                </ul>
              </details>
              {status.connected && (
                <>
                  <ErrorBanner error={disconnect.error} />
                  <ConfirmButton label="Disconnect" title="Disconnect Stripe?" onConfirm={() => disconnect.mutate()}>
                    <p>Checkout stops at once. Licenses already sold are not touched.</p>
                  </ConfirmButton>
                </>
              )}
            </section>
            {status.connected && <TaxSection status={status} />}
            <section className="card" aria-labelledby="connect-heading">
              <h2 id="connect-heading">{status.connected ? 'Replace the connection' : 'Connect Stripe'}</h2>
              <RequireVerifiedAddress to="connect Stripe">
                <p className="muted">Both secrets are stored encrypted and never shown again.</p>
                <form onSubmit={form.handleSubmit} noValidate className="grid-form">
                  <Field label="Secret key" error={errorOf('secretKey')}>
                    <input type="password" autoComplete="off" value={form.values.secretKey} onChange={(e) => form.set('secretKey')(e.target.value)} />
                  </Field>
                  <Field label="Webhook signing secret" error={errorOf('webhookSecret')}>
                    <input type="password" autoComplete="off" value={form.values.webhookSecret} onChange={(e) => form.set('webhookSecret')(e.target.value)} />
                  </Field>
                  <Field label="Seller name" hint="Optional: how license e-mails name you (default: your name)" error={errorOf('sellerName')}>
                    <input value={form.values.sellerName} onChange={(e) => form.set('sellerName')(e.target.value)} />
                  </Field>
                  <Field label="Reply-to address" hint="Optional: where buyers' replies go (default: your e-mail)" error={errorOf('replyTo')}>
                    <input type="email" value={form.values.replyTo} onChange={(e) => form.set('replyTo')(e.target.value)} />
                  </Field>
                  <ErrorBanner error={connect.error} />
                  <div className="actions">
                    <button type="submit" className="button button-primary" disabled={connect.isPending}>
                      {connect.isPending ? 'Checking with Stripe…' : 'Connect'}
                    </button>
                  </div>
                </form>
              </RequireVerifiedAddress>
            </section>
          </>
        )}
      </QueryView>
    </>
  );
}
