import * as z from 'zod/mini';
import { BOUND_ANSWER_HEADERS, BOUND_ANSWER_NOTE, BOUND_FIELDS, type Lease as LeaseView, LICENSE_MESSAGES as M, NONCE_HEADER_PARAMETER } from '../../shared/licensing/index.js';
import { assertDescribes, described, EX, exampleId, idOf, named, type OperationDoc, timestamp } from '../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import type { LicenseSurface } from './license-routes.js';

export const exampleLeaseId = exampleId('lse', 'lease');
export const exampleMachine = '9f2c4e1ab07d6c3e5f8a9b0c1d2e3f4a';

/** A lease as events and the management API show it. */
export const Lease = named(
  'Lease',
  z.object({
    id: idOf('lse'),
    licenseId: idOf('lic'),
    productId: idOf('prd'),
    machine: described(z.string(), 'The fingerprint of the machine holding the seat.'),
    createdAt: timestamp,
    expiresAt: described(timestamp, 'The seat is free at this time unless a heartbeat moves it.'),
  }),
  'A floating seat lent to one machine until `expiresAt`.',
);
assertDescribes<typeof Lease, LeaseView>(true);
export const exampleLease = { id: exampleLeaseId, licenseId: EX.licenseId, productId: EX.productId, machine: exampleMachine, createdAt: EX.updated, expiresAt: '2026-01-16T08:15:00.000Z' };

const LeaseTaken = named(
  'LeaseTaken',
  z.object({ lease_id: idOf('lse'), expires_at: timestamp, ...BOUND_FIELDS }),
  'The machine\'s lease: a new one, or the live one it already held, renewed.',
);
const LeaseExtended = named('LeaseExtended', z.object({ expires_at: timestamp, ...BOUND_FIELDS }), 'The lease\'s new end.');

const licenseStates = [M.revoked, M.suspended, M.expired];

/** Lease, heartbeat and release of floating licenses (DECISIONS §18), as `licenseRoutes` builds them for a surface. */
export function leaseOperations(surface: LicenseSurface): Record<string, OperationDoc> {
  const { prefix, publicKey } = surface;
  const key: Record<string, string> = publicKey ? { public_key: EX.publicKey, license_key: EX.licenseKey } : { license_key: EX.licenseKey };
  const keyErrors = publicKey ? [M.invalidPublicKey, M.notFound] : [M.notFound];
  const required = publicKey ? ['public_key is required', 'license_key is required'] : ['license_key is required'];
  const limits = [RATE_LIMITS.leaseKey, RATE_LIMITS.activationAddress];
  return {
    [`POST ${prefix}/licenses/leases`]: {
      summary: 'Take a floating seat (lease)',
      description:
        'Lends one of a floating license\'s `seats` to `machine` for the license\'s `leaseSeconds` (default 900). The same machine ' +
        'asking again while its lease is live gets that lease renewed (same `lease_id`). When `seats` leases are live: 409 `All seats ' +
        'are in use` (and `license.seats_exhausted`, once per time the pool fills). An expired lease\'s seat is free at its expiry ' +
        `time. Emits \`lease.created\` for a new lease.${BOUND_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { lease: { ...key, machine: exampleMachine } } },
      responses: {
        201: { description: 'Leased', body: LeaseTaken, headers: BOUND_ANSWER_HEADERS, examples: { leased: { lease_id: exampleLeaseId, expires_at: exampleLease.expiresAt, license_key: EX.licenseKey, machine: exampleMachine } } },
      },
      errors: { 400: [...required, 'machine is required', M.notFloating, M.wrongProduct, ...licenseStates], 404: keyErrors, 409: [M.seatsInUse] },
      rateLimits: limits,
      boundAnswers: true,
    },
    [`POST ${prefix}/licenses/leases/{leaseId}/heartbeat`]: {
      summary: 'Extend a lease',
      description: `Moves the lease's end to a full lease time from now. An expired or released lease is 404: take a new one.${BOUND_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { heartbeat: key } },
      responses: { 200: { description: 'Extended', body: LeaseExtended, headers: BOUND_ANSWER_HEADERS, examples: { extended: { expires_at: exampleLease.expiresAt, license_key: EX.licenseKey } } } },
      errors: { 400: [...required, ...licenseStates], 404: [...keyErrors, M.leaseNotFound] },
      rateLimits: limits,
      boundAnswers: true,
    },
    [`DELETE ${prefix}/licenses/leases/{leaseId}`]: {
      summary: 'Release a lease',
      description: 'Returns the seat at once (`license_key` in the query). Emits `lease.released`. An expired lease is 404.',
      // On the public API, `public_key` in the query is its security scheme's.
      queryExamples: { license_key: EX.licenseKey },
      responses: { 204: { description: 'Released' } },
      errors: { 400: required, 404: [...keyErrors, M.leaseNotFound] },
      rateLimits: limits,
    },
  };
}
