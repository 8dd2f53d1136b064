import { transact, writeItem } from '../../platform/data/index.js';
import { type Deps, hasPublicKeyShape, NotFoundError, randomBase32, sha256Hex } from '../../platform/index.js';
import { queuedMailItems } from '../../messaging/index.js';
import { LICENSE_MESSAGES } from '../../licensing/index.js';
import type { PortalScope } from '../customer-scope.js';
import { toPortalSettings, type PortalSettings } from './portal-settings.js';

type SignInDeps = Pick<Deps, 'data' | 'clock'>;

/** DECISIONS §25: a sign-in link works 15 minutes, once; a session lasts 7 days. */
export const SIGN_IN_LINK_MINUTES = 15;
export const PORTAL_SESSION_SECONDS = 7 * 24 * 3600;
export const PORTAL_NOT_FOUND = 'Portal not found';

/** Tokens as we make them: 20 random bytes, base32. Any other string was never one of ours. */
const TOKEN_SHAPE = /^[a-z2-7]{32}$/;
const isLinkToken = (token: string | undefined): token is string => token !== undefined && TOKEN_SHAPE.test(token);
export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The vendor's portal a product's public key opens: the product, and the vendor's settings. */
export type PortalSite = { tenantId: string; productId: string; productName: string; publicKey: string; settings: PortalSettings };

/**
 * The portal a public key names: a live product's, whose vendor has turned the portal on. An unknown key is 404 as on
 * the public API; a portal that is off is 404 `Portal not found`, so a page shows nothing of a vendor who did not open it.
 */
export async function portalSite(deps: SignInDeps, publicKey: string): Promise<PortalSite> {
  const { data: ref } = hasPublicKeyShape(publicKey) ? await deps.data.entities.productPublicKey.get({ publicKey }).go() : { data: null };
  if (!ref) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  const [{ data: product }, { data: settings }] = await Promise.all([
    deps.data.entities.product.get({ productId: ref.productId }).go({ attributes: ['name', 'deletedAt', 'tenantId'] }),
    deps.data.entities.portalSettings.get({ tenantId: ref.tenantId }).go(),
  ]);
  if (!product || product.deletedAt || product.tenantId !== ref.tenantId) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  if (!settings?.enabled) throw new NotFoundError(PORTAL_NOT_FOUND);
  return { tenantId: ref.tenantId, productId: ref.productId, productName: product.name, publicKey, settings: toPortalSettings(settings) };
}

/** The name the portal shows: the vendor's chosen one, else the product's. */
export const vendorName = (site: PortalSite) => site.settings.name ?? site.productName;

/** Whether the e-mail is a customer of the tenant: a customer record, or a license carrying it (two key lookups at most). */
async function isCustomer(deps: SignInDeps, scope: PortalScope): Promise<boolean> {
  const { data: customer } = await deps.data.entities.customerEmail.get({ tenantId: scope.tenantId, email: scope.email }).go();
  if (customer) return true;
  const { data: licenses } = await deps.data.entities.license.query.byEmail({ tenantId: scope.tenantId, customerEmail: scope.email }).go({ limit: 1 });
  return licenses.length > 0;
}

/**
 * Queues a one-time link `{baseUrl}/portal/sign-in?token=…` to the e-mail when it is a customer of the portal's vendor;
 * for any other address nothing happens, and the caller cannot tell which (the route answers 202 either way). The link's
 * item and its e-mail are written in one transaction.
 */
export async function requestSignIn(deps: SignInDeps, site: PortalSite, email: string, baseUrl: string): Promise<void> {
  const scope = { tenantId: site.tenantId, email };
  if (!(await isCustomer(deps, scope))) return;
  const token = randomBase32(20);
  const now = deps.clock.now();
  const link = `${baseUrl}/portal/sign-in?token=${token}`;
  const outcome = await transact(deps.data, (tx) => ({
    link: tx.portalSignIn
      .create({ signInHash: sha256Hex(token), ...scope, publicKey: site.publicKey, createdAt: now.toISOString(), ttl: epochSeconds(now) + SIGN_IN_LINK_MINUTES * 60 })
      .commit(),
    mail: queuedMailItems(
      tx,
      { kind: 'portalSignIn', tenantId: site.tenantId, to: email, content: { vendorName: vendorName(site), email, link, validMinutes: SIGN_IN_LINK_MINUTES } },
      now,
    ),
  }));
  if (!outcome.committed) throw outcome.unexpected();
}

/** A portal session: whose it is, the product page it opens, and whether it is the vendor's read-only preview. */
export type PortalSession = PortalScope & { publicKey: string; preview: boolean };
type StartedSession = { token: string; session: PortalSession };

/** A new session and its cookie's token (only its hash is stored), lasting `seconds`. */
async function startPortalSession(deps: SignInDeps, session: PortalSession, seconds: number): Promise<StartedSession> {
  const now = deps.clock.now();
  const token = randomBase32(32);
  const { preview, ...owner } = session;
  await deps.data.entities.portalSession
    .create({ portalSessionHash: sha256Hex(token), ...owner, ...(preview && { preview }), createdAt: now.toISOString(), ttl: epochSeconds(now) + seconds })
    .go({ response: 'none' });
  return { token, session };
}

/**
 * Uses a link: one conditional delete that holds only before its time is up (DynamoDB's TTL removes items late) and only
 * for a link of its kind (an e-mailed sign-in link starts no preview, a vendor's preview link no customer's session), so
 * it works once; then a session of that customer for `seconds`. Undefined for a bad, used or expired token.
 */
export async function takeLink(deps: SignInDeps, token: string | undefined, { preview, seconds }: { preview: boolean; seconds: number }): Promise<StartedSession | undefined> {
  if (!isLinkToken(token)) return undefined;
  const now = deps.clock.now();
  const taken = await writeItem(() =>
    deps.data.entities.portalSignIn
      .remove({ signInHash: sha256Hex(token) })
      .where(({ ttl, preview: flag }, { gt, eq, notExists }) => `${gt(ttl, epochSeconds(now))} AND ${preview ? eq(flag, true) : notExists(flag)}`)
      .go({ response: 'all_old' }),
  );
  const link = taken.written ? taken.value.data : undefined;
  if (!link) return undefined;
  return startPortalSession(deps, { tenantId: link.tenantId, email: link.email, publicKey: link.publicKey, preview }, seconds);
}

/** Uses an e-mailed sign-in link (15 minutes, once): a session of 7 days. */
export const takeSignIn = (deps: SignInDeps, token: string | undefined) => takeLink(deps, token, { preview: false, seconds: PORTAL_SESSION_SECONDS });

/** A sign-in link still usable, read without using it: the confirm page's (a mail scanner's GET takes nothing). */
export async function signInLinkOf(deps: SignInDeps, token: string | undefined): Promise<{ email: string; publicKey: string } | undefined> {
  if (!isLinkToken(token)) return undefined;
  const { data } = await deps.data.entities.portalSignIn.get({ signInHash: sha256Hex(token) }).go({ consistent: true });
  if (!data || data.preview || data.ttl <= epochSeconds(deps.clock.now())) return undefined;
  return { email: data.email, publicKey: data.publicKey };
}

const SESSION_TOKEN_SHAPE = /^[a-z2-7]{52}$/;

/** The session a cookie's token names, while it lasts; undefined otherwise. */
export async function portalSessionOf(deps: SignInDeps, token: string | undefined): Promise<PortalSession | undefined> {
  if (!token || !SESSION_TOKEN_SHAPE.test(token)) return undefined;
  const { data } = await deps.data.entities.portalSession.get({ portalSessionHash: sha256Hex(token) }).go({ consistent: true });
  if (!data || data.ttl <= epochSeconds(deps.clock.now())) return undefined;
  return { tenantId: data.tenantId, email: data.email, publicKey: data.publicKey, preview: data.preview ?? false };
}

/** Ends a session (sign-out); an unknown token changes nothing. */
export async function endPortalSession(deps: SignInDeps, token: string | undefined): Promise<void> {
  if (!token || !SESSION_TOKEN_SHAPE.test(token)) return;
  await deps.data.entities.portalSession.delete({ portalSessionHash: sha256Hex(token) }).go({ response: 'none' });
}
