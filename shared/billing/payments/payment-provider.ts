import { transact } from '../../platform/data/index.js';
import { BadRequestError, type Deps } from '../../platform/index.js';
import type { PaymentDeps } from './payment-deps.js';
import { KEY_REFUSED, providerFailure } from './provider-errors.js';

type ProviderDeps = Pick<Deps, 'data' | 'clock'> & PaymentDeps;

/** What every checkout session is given (DECISIONS §15): Stripe Tax, and the buyer's tax id collected. */
export type TaxSettings = { automaticTax?: boolean; taxIdCollection?: boolean };
export type ProviderConnection = { provider: 'stripe'; secretKey: string; webhookSecret: string; sellerName?: string; replyTo?: string } & TaxSettings;
export type ProviderStatus = { provider: 'stripe' | null; connected: boolean; webhookUrl: string; automaticTax: boolean; taxIdCollection: boolean };

const PROVIDER_NOT_CONNECTED = 'No payment provider is connected';

/** Where Stripe sends this developer's events (DECISIONS §3); the same whether or not a provider is connected. */
export const stripeWebhookUrl = (baseUrl: string, tenantId: string) => `${baseUrl}/v1/webhooks/stripe/${tenantId}`;

/**
 * Checks the key with Stripe (a balance read: every secret key may make it), then stores both secrets sealed,
 * replacing any earlier connection. A restricted key without the balance permission is still a key Stripe knows
 * (403, not 401), so it is accepted: checkout needs other permissions, which Stripe checks when it is used.
 * License e-mails name the seller and take replies as given, else as the developer's account.
 */
export async function connectProvider(deps: ProviderDeps, tenantId: string, input: ProviderConnection, baseUrl: string): Promise<ProviderStatus> {
  const stripe = await deps.payments.stripe(input.secretKey);
  try {
    await stripe.balance.retrieve();
  } catch (error) {
    if ((error as { type?: string }).type !== 'StripePermissionError') throw providerFailure(error, KEY_REFUSED);
  }
  const [sealedSecretKey, sealedWebhookSecret, account] = await Promise.all([
    deps.payments.secrets.seal(input.secretKey, tenantId),
    deps.payments.secrets.seal(input.webhookSecret, tenantId),
    input.sellerName && input.replyTo ? undefined : deps.data.entities.user.get({ userId: tenantId }).go().then(({ data }) => data),
  ]);
  const connection = {
    tenantId,
    provider: input.provider,
    sealedSecretKey,
    sealedWebhookSecret,
    connectedAt: deps.clock.now().toISOString(),
    sellerName: input.sellerName ?? account?.name,
    replyTo: input.replyTo ?? account?.email,
    automaticTax: input.automaticTax ?? false,
    taxIdCollection: input.taxIdCollection ?? false,
  };
  // A transaction, so that the audit entry of the change rides with it (shared/identity/audit/audit-scope.ts).
  await transact(deps.data, (tx) => ({ provider: tx.paymentProvider.put(connection).commit() }));
  return toStatus(tenantId, baseUrl, { provider: input.provider, automaticTax: input.automaticTax, taxIdCollection: input.taxIdCollection });
}

function toStatus(tenantId: string, baseUrl: string, data: ({ provider: 'stripe' } & TaxSettings) | undefined | null): ProviderStatus {
  return {
    provider: data?.provider ?? null,
    connected: Boolean(data),
    webhookUrl: stripeWebhookUrl(baseUrl, tenantId),
    automaticTax: data?.automaticTax ?? false,
    taxIdCollection: data?.taxIdCollection ?? false,
  };
}

export async function providerStatus(deps: Pick<Deps, 'data'>, tenantId: string, baseUrl: string): Promise<ProviderStatus> {
  const { data } = await deps.data.entities.paymentProvider.get({ tenantId }).go({ consistent: true });
  return toStatus(tenantId, baseUrl, data);
}

/** Changes the tax settings of the connected provider; none connected is 400. */
export async function updateTaxSettings(deps: Pick<Deps, 'data'>, tenantId: string, settings: TaxSettings, baseUrl: string): Promise<ProviderStatus> {
  const set = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  // A transaction, so that the audit entry of the change rides with it (shared/identity/audit/audit-scope.ts).
  const outcome = await transact(deps.data, (tx) => ({ provider: tx.paymentProvider.patch({ tenantId }).set(set).commit() }));
  // The patch's own condition (the item exists) is its only one.
  if (!outcome.committed) throw new BadRequestError(PROVIDER_NOT_CONNECTED);
  return providerStatus(deps, tenantId, baseUrl);
}

/** Removes the connection (idempotent); checkout reads it on every call, so it stops at once. */
export async function disconnectProvider(deps: Pick<Deps, 'data'>, tenantId: string): Promise<void> {
  await transact(deps.data, (tx) => ({ provider: tx.paymentProvider.delete({ tenantId }).commit() }));
}

/** The tenant's connected Stripe secret key, or undefined. Read strongly consistent: a disconnect stops checkout at once. */
export async function providerSecretKey(deps: Pick<Deps, 'data'> & PaymentDeps, tenantId: string): Promise<string | undefined> {
  return (await checkoutProvider(deps, tenantId))?.secretKey;
}

/** The connected provider as checkout uses it: the secret key and the tax settings (DECISIONS §15); undefined when none. */
export async function checkoutProvider(deps: Pick<Deps, 'data'> & PaymentDeps, tenantId: string): Promise<({ secretKey: string } & Required<TaxSettings>) | undefined> {
  const { data } = await deps.data.entities.paymentProvider.get({ tenantId }).go({ consistent: true });
  if (!data) return undefined;
  return { secretKey: await deps.payments.secrets.open(data.sealedSecretKey, tenantId), automaticTax: data.automaticTax ?? false, taxIdCollection: data.taxIdCollection ?? false };
}
