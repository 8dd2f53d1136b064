/**
 * Every rate limit of the service (DECISIONS §12): a token bucket per caller of `capacity` tokens, refilled
 * at `refillPerSecond`, both multiplied by RATE_LIMIT_SCALE. `table` buckets live in DynamoDB and hold
 * across containers; `container` buckets cost no I/O and hold per warm container (the hot read paths).
 * The sizes are documented in docs/api.md.
 */
export type RateLimit = {
  name: string;
  capacity: number;
  refillPerSecond: number;
  store: 'table' | 'container';
  message: string;
};

const TOO_MANY = 'Too many requests';
const DAY_SECONDS = 24 * 3600;
const LOGIN_LIMIT_MESSAGE = 'Too many login attempts; try again later';
const PORTAL_SIGN_IN_MESSAGE = 'Too many sign-in requests; try again later';

export const RATE_LIMITS = {
  /** Login attempts from one address, whatever the account: limits a password spray across accounts. */
  loginAddress: { name: 'login-address', capacity: 20, refillPerSecond: 1 / 15, store: 'table', message: LOGIN_LIMIT_MESSAGE },
  /** Login attempts at one account, from anywhere; a successful login fills it again. */
  loginEmail: { name: 'login-email', capacity: 5, refillPerSecond: 1 / 12, store: 'table', message: LOGIN_LIMIT_MESSAGE },
  /**
   * Per account and address, once the account's bucket is empty: one attempt at a time, none from an address whose
   * attempt at the account failed (every failure empties it). So someone guessing from elsewhere cannot keep the owner
   * out; a successful login fills it again.
   */
  loginEmailAddress: { name: 'login-email-address', capacity: 1, refillPerSecond: 1 / 600, store: 'table', message: LOGIN_LIMIT_MESSAGE },
  /**
   * Per account: the attempts let through by `loginEmailAddress` while the account's bucket is empty, so that guesses
   * from many addresses stay bounded; a successful login fills it again.
   */
  loginEmailOverflow: { name: 'login-email-overflow', capacity: 5, refillPerSecond: 1 / 60, store: 'table', message: LOGIN_LIMIT_MESSAGE },
  /**
   * Per account and browser that signed in to it before (its `device` cookie, DECISIONS §20), once the account's bucket
   * is empty: the owner's own browser is never locked out by failures from elsewhere, and a stolen cookie guesses no
   * faster than the account's bucket allows; a successful login fills it again.
   */
  loginDevice: { name: 'login-device', capacity: 5, refillPerSecond: 1 / 12, store: 'table', message: LOGIN_LIMIT_MESSAGE },
  /** Verification e-mails sent again for one account (each is an e-mail to the account's address). */
  verificationResend: {
    name: 'verification-resend',
    capacity: 5,
    refillPerSecond: 1 / 300,
    store: 'table',
    message: 'Too many verification e-mails; try again later',
  },
  /**
   * Team invitations sent by one tenant (DECISIONS §20): each is an e-mail from the operator's address to an address the
   * tenant typed, so a day's room for a team's real growth and no more.
   */
  invitationTenant: {
    name: 'invitation-tenant',
    capacity: 20,
    refillPerSecond: 20 / DAY_SECONDS,
    store: 'table',
    message: 'Too many invitations today; try again tomorrow',
  },
  /** Invitations to one address, from any tenant (DECISIONS §20): nobody's inbox is filled by invite, withdraw, invite again. */
  invitationAddress: {
    name: 'invitation-address',
    capacity: 3,
    refillPerSecond: 3 / DAY_SECONDS,
    store: 'table',
    message: 'Too many invitations to this address today; try again tomorrow',
  },
  /**
   * License transfers made by one tenant, through the management API and the portal together: each e-mails the license
   * to an address given in the request (DECISIONS §15). 100 a day is several times what a large vendor's support desk and
   * its buyers' self-service make, and bounds what a compromised account can send from the operator's address.
   */
  licenseTransferTenant: {
    name: 'license-transfer-tenant',
    capacity: 100,
    refillPerSecond: 100 / DAY_SECONDS,
    store: 'table',
    message: 'Too many license transfers today; try again tomorrow',
  },
  /** Sign-ins started (Google, GitHub) from one address: each keeps a state item for 10 minutes. */
  oauthStart: { name: 'oauth-start', capacity: 20, refillPerSecond: 1 / 15, store: 'table', message: 'Too many sign-in attempts; try again later' },
  /** Accounts registered from one address. */
  registerAddress: {
    name: 'register-address',
    capacity: 10,
    refillPerSecond: 1 / 360,
    store: 'table',
    message: 'Too many registrations from this address; try again later',
  },
  /** Activations and deactivations of one license key, from anywhere (a leaked key being spread). */
  activationKey: { name: 'activation-key', capacity: 20, refillPerSecond: 1 / 6, store: 'table', message: TOO_MANY },
  /** Activations and deactivations from one address (on the public API: for one product's public key). */
  activationAddress: { name: 'activation-address', capacity: 60, refillPerSecond: 1, store: 'table', message: TOO_MANY },
  /**
   * Lease requests, heartbeats and releases of one floating license key, from anywhere: room for a large pool's
   * machines heartbeating and a whole office starting at nine, far below what a loop sends.
   */
  leaseKey: { name: 'lease-key', capacity: 200, refillPerSecond: 5, store: 'table', message: TOO_MANY },
  /** Validate and check on the public API, per public key and address, in each container. */
  publicReads: { name: 'public-reads', capacity: 120, refillPerSecond: 2, store: 'container', message: TOO_MANY },
  /**
   * Validate and update check on the edge, per address, in each container: several times the public reads', since one
   * shared host's address carries the checks of its hundreds of sites, and still far below what a loop sends.
   */
  edgeReads: { name: 'edge-reads', capacity: 300, refillPerSecond: 5, store: 'container', message: TOO_MANY },
  /**
   * Downloads on the edge per address, in each container: each one is a counted write and a file leaving AWS. Enough
   * for a shared host updating its sites at once (WordPress tries a refused one again at its next update run).
   */
  downloads: { name: 'downloads', capacity: 60, refillPerSecond: 1 / 5, store: 'container', message: TOO_MANY },
  /**
   * Feedback, usage events and deactivation reasons per public key and address, in each container: enough for a
   * site's plugin (a few a day) or a shared host's many sites, and a loop is refused before it costs a write.
   */
  analytics: { name: 'analytics', capacity: 60, refillPerSecond: 1, store: 'container', message: TOO_MANY },
  /**
   * Checkouts opened per public key and address: each is a call to Stripe on the vendor's key, whose own rate limit a
   * caller could otherwise spend; in the table, so it holds across containers.
   */
  checkout: { name: 'checkout', capacity: 20, refillPerSecond: 1 / 6, store: 'table', message: TOO_MANY },
  /**
   * Portal calls per API key: a vendor's server answering its customers' pages. In the table, as a key's calls
   * spread over containers; cancel spends the vendor's Stripe rate limit too.
   */
  portal: { name: 'portal', capacity: 120, refillPerSecond: 2, store: 'table', message: TOO_MANY },
  /**
   * Hosted portal sign-in links asked for one e-mail, at any vendor (DECISIONS §25): each may send an e-mail, so a
   * stranger cannot fill a buyer's inbox; a buyer who lost a link asks again within minutes.
   */
  portalSignInEmail: { name: 'portal-sign-in-email', capacity: 5, refillPerSecond: 1 / 180, store: 'table', message: PORTAL_SIGN_IN_MESSAGE },
  /** Hosted portal sign-ins asked from one address, whatever the e-mail: bounds probing many addresses. */
  portalSignInAddress: { name: 'portal-sign-in-address', capacity: 20, refillPerSecond: 1 / 30, store: 'table', message: PORTAL_SIGN_IN_MESSAGE },
} as const satisfies Record<string, RateLimit>;
