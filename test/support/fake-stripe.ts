import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { changeSubscription, withPendingUpdateApplied } from './fake-stripe-billing.js';
import { invoiceDocument } from './invoice-document.js';
import { stripeBalance, stripeCheckoutSession, stripeError, stripeList, stripeSubscription, unixNow } from './stripe-objects.js';
import { stripeBillingPortalSession, stripeCoupon, stripePrice, stripeProduct, stripePromotionCode } from './stripe-lifecycle-objects.js';

/** Secret keys the fake accepts: any `sk_test_good…` / `rk_test_good…`; every other key is refused as Stripe does (401). */
export const isGoodKey = (key: string) => /^(sk|rk)_test_good/.test(key);

/**
 * How the fake fails for one key: Stripe's 500, a dropped connection (unreachable), no answer at all until the caller
 * gives up (stalled), the key revoked since (401), every subscription update refused (400) while the rest works, or
 * every card of the key's customers declined (an invoice's payment fails; test/support/fake-stripe-billing.ts).
 */
export type Outage = 'error' | 'unreachable' | 'stalled' | 'revoked' | 'subscriptionUpdates' | 'cardDeclined';

/**
 * A session as Stripe answered its creation, with the parameters it was created with, the key that did, and the
 * Stripe product its line item sells (what a coupon's `applies_to` is checked against).
 */
type Session = { id: string; params: Record<string, unknown>; key: string; session: Stripe.Checkout.Session; productId: string };
/** A subscription update as Stripe received it: the key it came with and its parameters. */
export type SubscriptionUpdate = { key: string; params: Record<string, unknown> };
/** A Stripe subscription as a test sets it up, served to the key it belongs to. */
type StoredSubscription = { key: string; subscription: Stripe.Subscription };
/** An invoice payment as a test sets it up (what ties a subscription's payment intent to its invoice), for its key. */
type StoredInvoicePayment = { key: string; invoicePayment: Stripe.InvoicePayment };
/** Every answer the fake gives: Stripe's own objects, typed with the `stripe` package's types for its API version. */
type Answer =
  | Stripe.Balance | Stripe.Checkout.Session | Stripe.Subscription | Stripe.ApiList<Stripe.InvoicePayment> | Stripe.Coupon | Stripe.PromotionCode
  | Stripe.Product | Stripe.Price | Stripe.Invoice | Stripe.ApiList<Stripe.Invoice> | Stripe.BillingPortal.Session;
/** A billing-portal session as a key opened it. */
export type BillingPortalSession = { key: string; session: Stripe.BillingPortal.Session };
/** A coupon, promotion code, product, price or invoice as a key made it. */
type Owned<T> = { key: string; object: T };

/** Form-encoded Stripe parameters (`a[b][0][c]=v`) as nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.split(/[[\]]+/).filter(Boolean);
    let node: any = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
    });
  }
  return root;
}

const refuse = (res: ServerResponse, status: number, type: Stripe.StripeRawError['type'], message: string, fields: Partial<Stripe.StripeRawError> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { ...stripeError(type, message).error, ...fields } }));
};
/** Stripe's refusal of an object the key's account does not have: 404 when asked for, 400 when a parameter names it. */
const missing = (res: ServerResponse, kind: string, id: string, param?: string) =>
  refuse(res, param ? 400 : 404, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', ...(param && { param }) });

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/**
 * A small stand-in for the Stripe API that the `stripe` package talks to (through `STRIPE_API_URL`): the balance
 * read that verifies a key, products (create with an id of ours, retrieve, update) and prices (create, on a product of
 * the key's), Checkout Sessions (create and retrieve; a line item's `price_data.product` must be the key's; a
 * `discounts` promotion code must be the key's, active, and apply to the session's product), each created session
 * recorded with the parameters as Stripe would parse them, subscription updates (recorded the same way, and applied
 * to a subscription a test put in place: price, metadata, trial, and billed as Stripe bills them, with pending
 * updates: test/support/fake-stripe-billing.ts), invoices (list by subscription, pay), coupons (restricted to
 * products by `applies_to`) and promotion codes (create, deactivate), subscriptions a test has put in place
 * (retrieve, expanding `latest_invoice`), invoices a test has put in place (with their PDF at `invoice_pdf`), and invoice payments a test has put in place (list, by invoice or payment intent). Every answer is a
 * whole Stripe object of the package's types (test/support/stripe-objects.ts). Outages are set per key, so tests
 * running in parallel do not meet each other's. `/_fake/…` lets tests in other processes read sessions, type a
 * promotion code into a session's page as a buyer would, and set outages over HTTP.
 */
export async function startFakeStripe(port = 0) {
  const sessions = new Map<string, Session>();
  const outages = new Map<string, Outage>();
  const subscriptionUpdates = new Map<string, SubscriptionUpdate[]>();
  const subscriptions = new Map<string, StoredSubscription>();
  const invoicePayments: StoredInvoicePayment[] = [];
  const coupons = new Map<string, Owned<Stripe.Coupon>>();
  const promotionCodes = new Map<string, Owned<Stripe.PromotionCode>>();
  // Product ids are the key's own (Stripe takes an id given to it): held by key and id.
  const products = new Map<string, Stripe.Product>();
  const productOf = (key: string, id: string | undefined) => (id === undefined ? undefined : products.get(`${key} ${id}`));
  const prices = new Map<string, Owned<Stripe.Price>>();
  const invoices = new Map<string, Owned<Stripe.Invoice>>();
  const billingPortalSessions: BillingPortalSession[] = [];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (url.pathname.startsWith('/_fake/')) return control(url, body, res);
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const outage = outages.get(key);
    if (outage === 'unreachable') return req.socket.destroy();
    if (outage === 'stalled') return;
    if (!isGoodKey(key) || outage === 'revoked') return refuse(res, 401, 'invalid_request_error', `Invalid API Key provided: ${key.slice(0, 8)}****`);
    if (outage === 'error') return refuse(res, 500, 'api_error', 'Something went wrong on our end.');
    const reply = (value: Answer) => {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname === '/v1/balance') return reply(stripeBalance());
    if (req.method === 'POST' && url.pathname === '/v1/products') {
      const params = parseStripeForm(body);
      if (productOf(key, params.id as string | undefined)) return refuse(res, 400, 'invalid_request_error', 'Product already exists.', { code: 'resource_already_exists', param: 'id' });
      const product = stripeProduct(params);
      products.set(`${key} ${product.id}`, product);
      return reply(product);
    }
    const product = /^\/v1\/products\/([^/]+)$/.exec(url.pathname);
    if (product) {
      const id = decodeURIComponent(product[1]!);
      const found = productOf(key, id);
      if (!found) return missing(res, 'product', id);
      if (req.method === 'GET') return reply(found);
      const params = parseStripeForm(body) as { name?: string; active?: string; metadata?: Stripe.Metadata };
      const updated: Stripe.Product = {
        ...found,
        ...(params.name !== undefined && { name: params.name }),
        ...(params.active !== undefined && { active: params.active === 'true' }),
        metadata: { ...found.metadata, ...params.metadata },
        updated: unixNow(),
      };
      products.set(`${key} ${id}`, updated);
      return reply(updated);
    }
    if (req.method === 'POST' && url.pathname === '/v1/prices') {
      const params = parseStripeForm(body);
      if (!productOf(key, params.product as string)) return missing(res, 'product', String(params.product), 'product');
      const price = stripePrice(params);
      prices.set(price.id, { key, object: price });
      return reply(price);
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const params = parseStripeForm(body) as { line_items?: { price_data?: { product?: string; product_data?: { name?: string } } }[] };
      const priceData = params.line_items?.[0]?.price_data;
      // A line item names a product of the account, or describes one Stripe makes for the session.
      if (priceData?.product !== undefined && !productOf(key, priceData.product)) return missing(res, 'product', priceData.product, 'line_items[0][price_data][product]');
      const productId = priceData?.product ?? stripeProduct({ name: priceData?.product_data?.name ?? 'Item' }).id;
      const refusal = discountRefusal(params, key, productId);
      if (refusal) return refuse(res, 400, 'invalid_request_error', refusal);
      const id = `cs_test_${randomBytes(29).toString('hex')}`;
      const session: Session = { id, params, key, session: openedSession(id, params), productId };
      sessions.set(id, session);
      return reply(session.session);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && retrieve) {
      const session = sessions.get(retrieve[1]!);
      if (!session || session.key !== key) return refuse(res, 404, 'invalid_request_error', `No such checkout.session: '${retrieve[1]}'`);
      return reply(session.session);
    }
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && subscription) {
      if (outage === 'subscriptionUpdates') return refuse(res, 400, 'invalid_request_error', 'This subscription cannot be updated.');
      const id = decodeURIComponent(subscription[1]!);
      const params = parseStripeForm(body) as { items?: { price?: string }[] };
      subscriptionUpdates.set(id, [...(subscriptionUpdates.get(id) ?? []), { key, params }]);
      const named = params.items?.[0]?.price;
      const price = named === undefined ? undefined : prices.get(named);
      if (named !== undefined && price?.key !== key) return missing(res, 'price', named, 'items[0][price]');
      const stored = subscriptions.get(id);
      const current = stored?.key === key ? stored.subscription : stripeSubscription({ id, start: unixNow(), end: unixNow() + 365 * 24 * 3600 });
      const change = changeSubscription(current, params, { price: price?.object, declines: outage === 'cardDeclined', now: unixNow() });
      if ('refusal' in change) {
        const { status, type, message, ...fields } = change.refusal;
        return refuse(res, status, type, message!, fields);
      }
      // An update discards the pending one it finds: that one's invoice is voided.
      const discarded = current.pending_update && typeof current.latest_invoice === 'string' ? invoices.get(current.latest_invoice) : undefined;
      if (discarded) discarded.object = { ...discarded.object, status: 'void' };
      if (change.invoice) invoices.set(change.invoice.id, { key, object: change.invoice });
      if (stored?.key === key) subscriptions.set(id, { key, subscription: change.subscription });
      return reply(change.subscription);
    }
    if (req.method === 'GET' && url.pathname === '/v1/invoices') {
      const query = parseStripeForm(url.search.slice(1)) as { subscription?: string };
      const matching = [...invoices.values()]
        .filter((stored) => stored.key === key && (!query.subscription || stored.object.parent?.subscription_details?.subscription === query.subscription))
        .map((stored) => stored.object);
      return reply(stripeList(matching, '/v1/invoices'));
    }
    const payInvoice = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(url.pathname);
    if (req.method === 'POST' && payInvoice) {
      const found = invoices.get(payInvoice[1]!);
      if (!found || found.key !== key) return missing(res, 'invoice', payInvoice[1]!);
      if (found.object.status !== 'open') return refuse(res, 400, 'invalid_request_error', `Invoice is already ${found.object.status}.`);
      if (outage === 'cardDeclined') return refuse(res, 402, 'card_error', 'Your card was declined.', { code: 'card_declined' });
      found.object = { ...found.object, status: 'paid', amount_paid: found.object.amount_due, amount_remaining: 0 };
      // Paid, the invoice of a pending update applies it.
      const billed = found.object.parent?.subscription_details?.subscription;
      const held = typeof billed === 'string' ? subscriptions.get(billed) : undefined;
      if (held?.key === key && held.subscription.latest_invoice === found.object.id) subscriptions.set(held.subscription.id, { key, subscription: withPendingUpdateApplied(held.subscription) });
      return reply(found.object);
    }
    if (req.method === 'POST' && url.pathname === '/v1/coupons') {
      const params = parseStripeForm(body) as { applies_to?: { products?: string[] } };
      const unknown = params.applies_to?.products?.find((id) => !productOf(key, id));
      if (unknown !== undefined) return missing(res, 'product', unknown, 'applies_to[products]');
      const coupon = stripeCoupon(params);
      coupons.set(coupon.id, { key, object: coupon });
      return reply(coupon);
    }
    if (req.method === 'POST' && url.pathname === '/v1/promotion_codes') {
      const params = parseStripeForm(body) as { code?: string; promotion?: { coupon?: string } };
      const coupon = params.promotion?.coupon;
      if (!coupon || coupons.get(coupon)?.key !== key) return refuse(res, 400, 'invalid_request_error', `No such coupon: '${coupon}'`);
      const taken = [...promotionCodes.values()].some((p) => p.key === key && p.object.active && p.object.code.toUpperCase() === params.code?.toUpperCase());
      if (taken) return refuse(res, 400, 'invalid_request_error', 'An active promotion code with `code` already exists.');
      const code = stripePromotionCode(params, coupon);
      promotionCodes.set(code.id, { key, object: code });
      return reply(code);
    }
    const promotionCode = /^\/v1\/promotion_codes\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && promotionCode) {
      const found = promotionCodes.get(promotionCode[1]!);
      if (!found || found.key !== key) return refuse(res, 404, 'invalid_request_error', `No such promotion code: '${promotionCode[1]}'`);
      const params = parseStripeForm(body);
      found.object = { ...found.object, ...(params.active !== undefined && { active: params.active === 'true' }) };
      return reply(found.object);
    }
    if (req.method === 'GET' && subscription) {
      const found = subscriptions.get(subscription[1]!);
      if (!found || found.key !== key) return refuse(res, 404, 'invalid_request_error', `No such subscription: '${subscription[1]}'`);
      const { expand = [] } = parseStripeForm(url.search.slice(1)) as { expand?: string[] };
      const latest = found.subscription.latest_invoice;
      const invoice = expand.includes('latest_invoice') && typeof latest === 'string' ? invoices.get(latest) : undefined;
      return reply(invoice?.key === key ? { ...found.subscription, latest_invoice: invoice.object } : found.subscription);
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      const params = parseStripeForm(body);
      if (typeof params.customer !== 'string') return refuse(res, 400, 'invalid_request_error', 'Missing required param: customer.', { param: 'customer' });
      const session = stripeBillingPortalSession(params, `http://${req.headers.host}`);
      billingPortalSessions.push({ key, session });
      return reply(session);
    }
    if (req.method === 'GET' && url.pathname === '/v1/invoice_payments') {
      const query = parseStripeForm(url.search.slice(1)) as { invoice?: string; payment?: { payment_intent?: string } };
      const matching = invoicePayments
        .filter((stored) => stored.key === key)
        .map((stored) => stored.invoicePayment)
        .filter((payment) => (!query.invoice || payment.invoice === query.invoice) && (!query.payment?.payment_intent || payment.payment.payment_intent === query.payment.payment_intent));
      return reply(stripeList(matching, '/v1/invoice_payments'));
    }
    refuse(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${url.pathname})`);
  });

  /**
   * Stripe's refusals of a session's discount: an unknown or inactive promotion code, one given with
   * `allow_promotion_codes`, or one whose coupon applies to other products than the session's.
   */
  function discountRefusal(params: Record<string, any>, key: string, productId: string): string | undefined {
    const promotionCode = params.discounts?.[0]?.promotion_code as string | undefined;
    if (!promotionCode) return undefined;
    if (params.allow_promotion_codes !== undefined) return 'You may only specify one of these parameters: allow_promotion_codes, discounts.';
    const found = promotionCodes.get(promotionCode);
    if (found?.key !== key || !found.object.active) return `No such promotion code: '${promotionCode}'`;
    return appliesTo(found.object, productId) ? undefined : `The promotion code '${found.object.code}' does not apply to any item of this session.`;
  }

  /** Whether a promotion code's coupon discounts the product: unrestricted, or the product among its `applies_to`. */
  function appliesTo(code: Stripe.PromotionCode, productId: string): boolean {
    const coupon = coupons.get(code.promotion.coupon as string)?.object;
    return Boolean(coupon?.valid) && (!coupon!.applies_to || coupon!.applies_to.products.includes(productId));
  }

  /**
   * A buyer typing a code into the promotion code field of a session's page (which `allow_promotion_codes` shows): taken
   * when it is an active code of the session's account whose coupon applies to the session's product, as the session's
   * discount; else Stripe's page says it is invalid.
   */
  function typedCode(session: Session, code: string): Stripe.Checkout.Session | undefined {
    if (session.params.allow_promotion_codes !== 'true') return undefined;
    const found = [...promotionCodes.values()].find((p) => p.key === session.key && p.object.active && p.object.code.toUpperCase() === code.toUpperCase());
    if (!found || !appliesTo(found.object, session.productId)) return undefined;
    session.session = { ...session.session, discounts: [{ coupon: null, promotion_code: found.object.id }] };
    return session.session;
  }

  function control(url: URL, body: string, res: ServerResponse) {
    const typed = /^\/_fake\/sessions\/([^/]+)\/promotion-code$/.exec(url.pathname);
    if (typed) {
      const found = sessions.get(typed[1]!);
      const taken = found && typedCode(found, (JSON.parse(body) as { code: string }).code);
      res.writeHead(taken ? 200 : 400, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(taken ?? { error: 'This code is invalid.' }));
    }
    const session = /^\/_fake\/sessions\/([^/]+)$/.exec(url.pathname);
    if (session) {
      const found = sessions.get(session[1]!);
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(found ?? null));
    }
    const updates = /^\/_fake\/subscription-updates\/([^/]+)$/.exec(url.pathname);
    if (updates) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(subscriptionUpdates.get(decodeURIComponent(updates[1]!)) ?? []));
    }
    if (url.pathname === '/_fake/billing-portal-sessions') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(billingPortalSessions));
    }
    if (url.pathname.startsWith('/_fake/billing-portal/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!doctype html><html lang="en"><head><title>Billing portal</title></head><body><main><h1>Stripe billing portal (fake)</h1></main></body></html>');
    }
    const heldSubscription = /^\/_fake\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (heldSubscription) {
      const found = subscriptions.get(decodeURIComponent(heldSubscription[1]!));
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(found?.subscription ?? null));
    }
    if (url.pathname === '/_fake/subscriptions') {
      const stored = JSON.parse(body) as StoredSubscription;
      subscriptions.set(stored.subscription.id, stored);
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === '/_fake/invoices') {
      const stored = JSON.parse(body) as Owned<Stripe.Invoice>;
      invoices.set(stored.object.id, stored);
      res.writeHead(204);
      return res.end();
    }
    // An invoice's document, as `invoice_pdf` links to it: no key needed, as at Stripe.
    const invoicePdf = /^\/_fake\/invoice-pdf\/([^/]+)$/.exec(url.pathname);
    if (invoicePdf) {
      const found = invoices.get(decodeURIComponent(invoicePdf[1]!));
      if (!found) return missing(res, 'invoice', invoicePdf[1]!);
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="Invoice-${found.object.id}.pdf"` });
      return res.end(invoiceDocument(found.object));
    }
    if (url.pathname === '/_fake/invoice-payments') {
      invoicePayments.push(JSON.parse(body) as StoredInvoicePayment);
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === '/_fake/outage') {
      const { key, outage } = JSON.parse(body) as { key: string; outage: Outage | null };
      if (outage) outages.set(key, outage);
      else outages.delete(key);
      res.writeHead(204);
      return res.end();
    }
    res.writeHead(404);
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A session as Stripe answers its creation: open and unpaid, with what it was created with. */
function openedSession(id: string, params: Record<string, unknown>): Stripe.Checkout.Session {
  const p = params as { mode?: Stripe.Checkout.Session.Mode; metadata?: Stripe.Metadata; customer_email?: string; success_url?: string; cancel_url?: string };
  return stripeCheckoutSession({
    id,
    url: `https://checkout.stripe.test/c/pay/${id}`,
    mode: p.mode,
    metadata: p.metadata ?? {},
    customer_email: p.customer_email ?? null,
    success_url: p.success_url ?? null,
    cancel_url: p.cancel_url ?? null,
  });
}

/** Test-side helpers for a fake running in another process (the global setup's). */
export function fakeStripeClient(baseUrl: string) {
  return {
    async session(id: string): Promise<Session | null> {
      const res = await fetch(`${baseUrl}/_fake/sessions/${encodeURIComponent(id)}`);
      return res.status === 200 ? ((await res.json()) as Session) : null;
    },
    /** Every update Stripe received for this subscription id (`POST /v1/subscriptions/{id}`), oldest first. */
    /** Every billing-portal session opened, oldest first. */
    async billingPortalSessions(): Promise<BillingPortalSession[]> {
      return (await (await fetch(`${baseUrl}/_fake/billing-portal-sessions`)).json()) as BillingPortalSession[];
    },
    async subscriptionUpdates(id: string): Promise<SubscriptionUpdate[]> {
      const res = await fetch(`${baseUrl}/_fake/subscription-updates/${encodeURIComponent(id)}`);
      return (await res.json()) as SubscriptionUpdate[];
    },
    /** Puts a subscription in place (or replaces it) for `GET /v1/subscriptions/{id}` with `key`. */
    async putSubscription(key: string, subscription: StoredSubscription['subscription']): Promise<void> {
      await fetch(`${baseUrl}/_fake/subscriptions`, { method: 'POST', body: JSON.stringify({ key, subscription }) });
    },
    /** Puts an invoice in place (for `latest_invoice` expansions and its document), with `invoice_pdf` at the fake. */
    async putInvoice(key: string, invoice: Stripe.Invoice): Promise<Stripe.Invoice> {
      const object = { ...invoice, invoice_pdf: `${baseUrl}/_fake/invoice-pdf/${invoice.id}` };
      await fetch(`${baseUrl}/_fake/invoices`, { method: 'POST', body: JSON.stringify({ key, object }) });
      return object;
    },
    /** Puts an invoice payment in place for `GET /v1/invoice_payments` with `key`. */
    async putInvoicePayment(key: string, invoicePayment: Stripe.InvoicePayment): Promise<void> {
      await fetch(`${baseUrl}/_fake/invoice-payments`, { method: 'POST', body: JSON.stringify({ key, invoicePayment }) });
    },
    /** The subscription as the fake holds it now (after the updates it received), or null. */
    async subscription(id: string): Promise<Stripe.Subscription | null> {
      const res = await fetch(`${baseUrl}/_fake/subscriptions/${encodeURIComponent(id)}`);
      return res.status === 200 ? ((await res.json()) as Stripe.Subscription) : null;
    },
    /** A buyer typing `code` into the session's promotion code field: the session with its discount, or null (Stripe calls the code invalid). */
    async typePromotionCode(sessionId: string, code: string): Promise<Stripe.Checkout.Session | null> {
      const res = await fetch(`${baseUrl}/_fake/sessions/${encodeURIComponent(sessionId)}/promotion-code`, { method: 'POST', body: JSON.stringify({ code }) });
      return res.status === 200 ? ((await res.json()) as Stripe.Checkout.Session) : null;
    },
    /** The invoices Stripe made for a subscription (`GET /v1/invoices?subscription=`), oldest first. */
    async invoices(key: string, subscriptionId: string): Promise<Stripe.Invoice[]> {
      const res = await fetch(`${baseUrl}/v1/invoices?subscription=${encodeURIComponent(subscriptionId)}`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as Stripe.ApiList<Stripe.Invoice>).data;
    },
    /** Pays an open invoice (`POST /v1/invoices/{id}/pay`), as Stripe's retry or the buyer does once their card works. */
    async payInvoice(key: string, invoiceId: string): Promise<{ status: number; body: Stripe.Invoice | { error: Stripe.StripeRawError } }> {
      const res = await fetch(`${baseUrl}/v1/invoices/${encodeURIComponent(invoiceId)}/pay`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, body: (await res.json()) as Stripe.Invoice | { error: Stripe.StripeRawError } };
    },
    /** A product of the key's account (`GET /v1/products/{id}`), or null. */
    async product(key: string, id: string): Promise<Stripe.Product | null> {
      const res = await fetch(`${baseUrl}/v1/products/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
      return res.status === 200 ? ((await res.json()) as Stripe.Product) : null;
    },
    async setOutage(key: string, outage: Outage | null): Promise<void> {
      await fetch(`${baseUrl}/_fake/outage`, { method: 'POST', body: JSON.stringify({ key, outage }) });
    },
  };
}

/** A fresh key the fake accepts (`good`) or refuses. */
export const stripeTestKey = (good = true) => `sk_test_${good ? 'good' : 'nope'}${randomBytes(12).toString('hex')}`;
