/** The exact messages of the license operations (DECISIONS §4); clients match on them. */
export const LICENSE_MESSAGES = {
  invalidPublicKey: 'Invalid public_key',
  notFound: 'License key not found',
  expired: 'License has expired',
  suspended: 'License is suspended',
  revoked: 'License has been revoked',
  seatLimit: 'License seat limit reached',
  /** A staging site (shared/licensing/operations/staging.ts) on a license that holds its product's limit of them. */
  stagingLimit: 'Staging activation limit reached',
  wrongProduct: 'License does not belong to this product',
  /** A bundle's license named with a product the bundle does not include (DECISIONS §23). */
  notCovered: 'License does not cover this product',
  activationNotFound: 'Activation not found',
  /** DECISIONS §18 leaves it open: a floating license's seats are taken by leases, not activations (docs/api.md). */
  floating: 'License is floating: take a lease instead',
  notFloating: 'License is not floating',
  seatsInUse: 'All seats are in use',
  leaseNotFound: 'Lease not found',
  /** Validate of a floating license naming a machine that holds no live lease (docs/api.md). */
  noLease: 'Machine holds no live lease',
} as const;
