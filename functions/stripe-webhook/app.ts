import type { CoreConfig } from '../../shared/platform/config.js';
import { receiveStripeEvent, UNKNOWN_VENDOR } from '../../shared/billing/commerce/stripe-webhook.js';
import { NotFoundError, PayloadTooLargeError } from '../../shared/platform/errors.js';
import { httpApp } from '../../shared/platform/http/app.js';
import { checkIdShape, type IdKind } from '../../shared/platform/http/id-kind.js';
import { header, rawBody } from '../../shared/platform/http/request.js';
import { ok } from '../../shared/platform/http/responses.js';
import type { Route } from '../../shared/platform/http/route.js';
import { createPaymentDeps, type PaymentDeps } from '../../shared/billing/payments/payment-deps.js';
import { SECRET_ACCESS } from '../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../shared/platform/secrets/secret-box.js';
import { createDeps, type Deps } from '../../shared/platform/runtime.js';
import { originSecretOf } from '../../shared/platform/http/front-door.js';

/** What the Stripe webhook uses: its part of the table, the sealed provider secrets and the vendor's Stripe client. */
export type StripeWebhookDeps = Deps & PaymentDeps;

/** Stripe's events are a few kilobytes; anything far larger is not one. */
const EVENT_BODY_LIMIT_BYTES = 512 * 1024;
/** A malformed user id names no vendor: 404 without a read. */
const USER_ID_KIND: IdKind = { prefix: 'usr', unknown: () => new NotFoundError(UNKNOWN_VENDOR) };

export function createStripeWebhookDeps(config: CoreConfig): StripeWebhookDeps {
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
        const receipt = await receiveStripeEvent(deps, userId, body, header(event, 'stripe-signature'));
        return ok({ received: true, ...receipt });
      },
    },
  ];
}

/** Stripe's calls to a vendor's webhook URL; servers, not browsers, so CORS is the public surfaces'. */
export function createStripeWebhookHandler(deps: StripeWebhookDeps) {
  return httpApp(stripeWebhookRoutes(deps), { cors: { kind: 'open' }, originSecret: originSecretOf(deps.config), data: deps.data });
}
