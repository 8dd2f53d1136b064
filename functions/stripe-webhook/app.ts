import { type Config, createDeps, type Deps, NotFoundError, PayloadTooLargeError } from '../../shared/platform/index.js';
import { createPaymentDeps, type PaymentDeps, receiveStripeEvent, UNKNOWN_VENDOR } from '../../shared/billing/index.js';
import { checkIdShape, header, httpApp, type IdKind, ok, originSecretOf, rawBody, requestBaseUrl, type Route } from '../../shared/platform/http/index.js';
import { createSecretBox, SECRET_ACCESS } from '../../shared/platform/secrets/index.js';

/** What the Stripe webhook uses: its part of the table, the sealed provider secrets and the vendor's Stripe client. */
export type StripeWebhookDeps = Deps<Config<'links'>> & PaymentDeps;

/** Stripe's events are a few kilobytes; anything far larger is not one. */
const EVENT_BODY_LIMIT_BYTES = 512 * 1024;
/** A malformed user id names no vendor: 404 without a read. */
const USER_ID_KIND: IdKind = { prefix: 'usr', unknown: () => new NotFoundError(UNKNOWN_VENDOR) };

export function createStripeWebhookDeps(config: Config<'links'>): StripeWebhookDeps {
  return { ...createDeps(config, 'stripeWebhook'), payments: createPaymentDeps(config, createSecretBox(config, SECRET_ACCESS.stripeWebhook)) };
}

/** `POST /v1/webhooks/stripe/{userId}` (DECISIONS §6, §10): the body is read raw, as Stripe signed it. */
export function stripeWebhookRoutes(deps: StripeWebhookDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/webhooks/stripe/{userId}',
      input: { pathIds: { userId: USER_ID_KIND } },
      handler: async (event) => {
        const userId = event.pathParameters?.userId ?? '';
        checkIdShape(USER_ID_KIND, userId);
        const body = rawBody(event);
        if (body.length > EVENT_BODY_LIMIT_BYTES) throw new PayloadTooLargeError();
        // The service's address in license e-mails (the Composer repository's, the portal's): PUBLIC_BASE_URL, else the one Stripe called.
        const receipt = await receiveStripeEvent(deps, userId, body, header(event, 'stripe-signature'), requestBaseUrl(event, deps.config.publicBaseUrl));
        return ok({ received: true, ...receipt });
      },
    },
  ];
}

/** Stripe's calls to a vendor's webhook URL; servers, not browsers, so CORS is the public surfaces'. */
export function createStripeWebhookHandler(deps: StripeWebhookDeps) {
  return httpApp(stripeWebhookRoutes(deps), { cors: { kind: 'open' }, originSecret: originSecretOf(deps.config), data: deps.data });
}
