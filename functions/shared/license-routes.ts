import * as z from 'zod/mini';
import { AppError, BadRequestError, type Deps, hasIdShape, hasPublicKeyShape, lazily, NotFoundError } from '../../shared/platform/index.js';
import { addressNetwork, checkIdShape, clientAddress, type HttpEvent, type HttpResult, type IdempotencyScope, idempotentRoute, type IdKind, json, jsonBody, lazyInput, noContent, ok, optionalText, parseInput, query, requiredText, type Route } from '../../shared/platform/http/index.js';
import { activateLicense, type AnswerScope, checkActivation, checkMachine, couldBeLicenseKey, createLease, deactivateLicense, givenHolder, heartbeatLease, issueOfflineLicense, LICENSE_MESSAGES, type LicenseContext, MAX_DOMAIN_INPUT_LENGTH, MAX_MACHINE_LENGTH, MAX_MACHINE_NAME_LENGTH, MAX_PLATFORM_LENGTH, observedCatalog, refusalReason, releaseLease, requiredHolder, resolveLicense, type ResponseSigner, signedAnswers, validateLicense } from '../../shared/licensing/index.js';
import { type LicenseOperation, metrics } from '../../shared/platform/observability/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';

/** A lease id of another shape names no lease: answered as an unknown one. */
export const LEASE_ID: IdKind = { prefix: 'lse', unknown: () => new NotFoundError(LICENSE_MESSAGES.leaseNotFound) };

/** `/v1` (no identification) or `/public/v1` (the product's `public_key` in every body). */
export type LicenseSurface = { prefix: string; publicKey: boolean };

/** The fields the routes read, built with the first request that reads one (shared/platform/http/route.ts: `lazyInput`). */
const fields = lazily(() => {
  const licenseFields = {
    license_key: requiredText('license_key', 256),
    product_slug: optionalText('product_slug', 128),
    domain: optionalText('domain', MAX_DOMAIN_INPUT_LENGTH),
    /** Alias of `domain` (a public example sends it); `domain` wins when both are given. */
    site: optionalText('site', MAX_DOMAIN_INPUT_LENGTH),
    /** A device in place of a domain (DECISIONS §18): its fingerprint, and the name and platform it reports. */
    machine: optionalText('machine', MAX_MACHINE_LENGTH),
    name: optionalText('name', MAX_MACHINE_NAME_LENGTH),
    platform: optionalText('platform', MAX_PLATFORM_LENGTH),
    /** The product's version on the site: counted in the product's analytics (installs by version). */
    version: optionalText('version', 64),
  };
  const publicKeyField = { public_key: requiredText('public_key', 128) };
  const deactivateFields = { ...licenseFields, activation_id: optionalText('activation_id', 64) };
  const offlineFields = {
    license_key: licenseFields.license_key,
    domain: licenseFields.domain,
    site: licenseFields.site,
    machine: licenseFields.machine,
  };
  const leaseFields = { license_key: licenseFields.license_key, machine: requiredText('machine', MAX_MACHINE_LENGTH) };
  const heartbeatFields = { license_key: licenseFields.license_key };
  return { licenseFields, publicKeyField, deactivateFields, offlineFields, leaseFields, heartbeatFields };
});

function schemaFor<F extends z.core.$ZodShape>(surface: LicenseSurface, shape: F) {
  // The public key comes first, so a body missing everything names it first.
  return surface.publicKey ? z.object({ ...fields().publicKeyField, ...shape }) : z.object({ ...shape, public_key: optionalText('public_key', 128) });
}

type LicenseBody = { license_key: string; product_slug?: string; public_key?: string };

/**
 * The key and product a caller names. Keys that cannot be keys are answered as unknown ones before
 * anything is read, in the order of DECISIONS §4: the public key, then the license key.
 */
function claimOf(surface: LicenseSurface, body: LicenseBody) {
  // On the edge a public key is not expected, and is ignored when a plugin sends one.
  const publicKey = surface.publicKey ? body.public_key : undefined;
  if (publicKey !== undefined && !hasPublicKeyShape(publicKey)) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  if (!couldBeLicenseKey(body.license_key)) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  return { licenseKey: body.license_key, productSlug: body.product_slug, publicKey };
}

/** A text field as the schema reads it: trimmed, blank as absent. */
const textOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * What a signed answer of validate, activate, deactivate and check names (DECISIONS §13): the license key exactly
 * as sent and, when the request named a domain, that domain normalized, so that a client can refuse the answer to
 * another request. Only answers that found their product are signed, so the body passed the schema by then.
 */
function answerBinding(event: HttpEvent): Record<string, string> {
  const body = jsonBody(event) as { license_key: string; domain?: unknown; site?: unknown; machine?: unknown };
  const holder = givenHolder({ domain: textOf(body.domain), site: textOf(body.site), machine: textOf(body.machine) });
  if (holder === undefined) return { license_key: body.license_key };
  return holder.kind === 'domain' ? { license_key: body.license_key, domain: holder.domain } : { license_key: body.license_key, machine: holder.machine };
}

/** An activation id of another shape names no activation: answered as an unknown one (400 on these surfaces). */
function activationIdOf(body: { activation_id?: string }): string | undefined {
  const id = body.activation_id;
  if (id !== undefined && !hasIdShape('act', id)) throw new BadRequestError(LICENSE_MESSAGES.activationNotFound);
  return id;
}

/** What the license routes share in a container: the product cache, bookkeeping, rate limits and the signer. */
export type LicenseRouteContext = LicenseContext & { limits: RateLimiter; signer: ResponseSigner };
/**
 * The caller of an activate or deactivate, for `Idempotency-Key`: the license key it names (trimmed, as the schema
 * reads it). A body without one has no scope: the route answers its 400 as without the header.
 */
export const licenseKeyScope: IdempotencyScope = (event) => {
  try {
    const key = (jsonBody(event) as { license_key?: unknown }).license_key;
    return typeof key === 'string' && key.trim() ? `license#${key.trim()}` : undefined;
  } catch {
    return undefined;
  }
};

/** validate, activate and deactivate on both prefixes; check and offline license files on the public one. */
export function licenseRoutes(deps: Deps, context: LicenseRouteContext, surface: LicenseSurface): Route[] {
  const validateSchema = lazily(() => schemaFor(surface, fields().licenseFields));
  const deactivateSchema = lazily(() => schemaFor(surface, fields().deactivateFields));
  const offlineSchema = lazily(() => schemaFor(surface, fields().offlineFields));
  const { limits, signer } = context;
  /**
   * Every answer is signed with the key of the product it is about, once the request has found that product
   * (through this request's view of the catalog); refusals are counted by reason.
   */
  const signed = (operation: LicenseOperation, handler: (event: HttpEvent, context: LicenseContext) => Promise<HttpResult>, refusal?: (error: AppError) => HttpResult) =>
    signedAnswers(
      context.signer,
      deps.clock,
      (event, scope: AnswerScope) => handler(event, { ...context, catalog: observedCatalog(context.catalog, (product) => (scope.product = product)) }),
      {
        refusal,
        // An offline license file is bound by its own content (the key and domain are in the signed file).
        bind: operation === 'offline' ? undefined : answerBinding,
        onRefusal: (error) => {
          if (operation === 'validate') metrics.validation('invalid');
          metrics.refusal(operation, refusalReason(error));
        },
      },
    );
  /** On the public API a caller is an address (IPv6: its /64) using one product's public key; on the edge, the address. */
  const callerOf = (claim: { publicKey?: string }, address: string) => {
    const network = addressNetwork(address);
    return claim.publicKey ? `${claim.publicKey}#${network}` : network;
  };
  /** Reads are limited in the container, so a validate under its limit costs no I/O: per public key and address, or per address on the edge. */
  const limitRead = (claim: { publicKey?: string }, address: string) =>
    limits.take(claim.publicKey ? RATE_LIMITS.publicReads : RATE_LIMITS.edgeReads, callerOf(claim, address));
  /** Activate and deactivate write: the key's bucket and the caller's, both in the table. */
  const limitWrite = (claim: { licenseKey: string; publicKey?: string }, address: string) =>
    Promise.all([limits.take(RATE_LIMITS.activationKey, claim.licenseKey), limits.take(RATE_LIMITS.activationAddress, callerOf(claim, address))]);
  /** Lease operations: the key's lease bucket and the caller's, both in the table. */
  const limitLease = (claim: { licenseKey: string; publicKey?: string }, address: string) =>
    Promise.all([limits.take(RATE_LIMITS.leaseKey, claim.licenseKey), limits.take(RATE_LIMITS.activationAddress, callerOf(claim, address))]);
  const leaseSchema = lazily(() => schemaFor(surface, fields().leaseFields));
  const heartbeatSchema = lazily(() => schemaFor(surface, fields().heartbeatFields));
  const releaseSchema = lazily(() => {
    const { publicKeyField, heartbeatFields } = fields();
    return surface.publicKey ? z.object({ ...publicKeyField, ...heartbeatFields }) : z.object(heartbeatFields);
  });
  const leaseIdOf = (event: HttpEvent) => {
    const id = event.pathParameters?.leaseId ?? '';
    checkIdShape(LEASE_ID, id);
    return id;
  };
  const leasePath = { leaseId: LEASE_ID };
  const routes: Route[] = [
    {
      method: 'POST',
      path: `${surface.prefix}/licenses/leases`,
      input: lazyInput({ body: leaseSchema }),
      handler: signed('lease', async (event, context) => {
        const body = parseInput(leaseSchema(), jsonBody(event));
        const machine = checkMachine(body.machine);
        const claim = claimOf(surface, body);
        await limitLease(claim, clientAddress(event, deps.config));
        const lease = await createLease(deps, context.catalog, { ...claim, machine });
        return json(201, { lease_id: lease.leaseId, expires_at: lease.expiresAt });
      }),
    },
    {
      method: 'POST',
      path: `${surface.prefix}/licenses/leases/{leaseId}/heartbeat`,
      input: lazyInput({ pathIds: leasePath, body: heartbeatSchema }),
      handler: signed('heartbeat', async (event, context) => {
        const body = parseInput(heartbeatSchema(), jsonBody(event));
        const claim = claimOf(surface, body);
        const leaseId = leaseIdOf(event);
        await limitLease(claim, clientAddress(event, deps.config));
        const { expiresAt } = await heartbeatLease(deps, context.catalog, { ...claim, leaseId });
        return ok({ expires_at: expiresAt });
      }),
    },
    {
      method: 'DELETE',
      path: `${surface.prefix}/licenses/leases/{leaseId}`,
      input: lazyInput({ pathIds: leasePath, query: releaseSchema }),
      handler: async (event) => {
        const params = parseInput(releaseSchema(), query(event));
        const claim = claimOf(surface, params);
        const leaseId = leaseIdOf(event);
        await limitLease(claim, clientAddress(event, deps.config));
        await releaseLease(deps, context.catalog, { ...claim, leaseId });
        return noContent();
      },
    },
    {
      method: 'POST',
      path: `${surface.prefix}/licenses/validate`,
      input: lazyInput({ body: validateSchema }),
      // Direct requests only (the license, its product, the domain's last check): a cold container loads no data model.
      data: 'direct',
      handler: signed(
        'validate',
        async (event, context) => {
          const body = parseInput(validateSchema(), jsonBody(event));
          const holder = givenHolder(body);
          const claim = claimOf(surface, body);
          const address = clientAddress(event, deps.config);
          await limitRead(claim, address);
          const result = await validateLicense(deps, context, { ...claim, holder, ipAddress: address, version: body.version });
          metrics.validation('valid');
          return ok({ valid: true, ...result });
        },
        // Every refusal of a validate, bad input included, is `{valid: false, error}` with its status (and Retry-After on 429).
        (error) => json(error.statusCode, { valid: false, error: error.message }, { headers: error.headers }),
      ),
    },
    // A retry with the same `Idempotency-Key` gets the first answer; no key, no extra cost.
    idempotentRoute(deps, licenseKeyScope, {
      method: 'POST',
      path: `${surface.prefix}/licenses/activate`,
      input: lazyInput({ body: validateSchema }),
      handler: signed('activate', async (event, context) => {
        const body = parseInput(validateSchema(), jsonBody(event));
        const holder = requiredHolder(body);
        const claim = claimOf(surface, body);
        const address = clientAddress(event, deps.config);
        // The license is read while the rate-limit buckets are written, not after: one round trip less.
        // A refused limit still answers first (429), whatever the read finds.
        const resolved = resolveLicense(deps, context.catalog, claim);
        resolved.catch(() => undefined);
        await limitWrite(claim, address);
        const activation = await activateLicense(deps, context, { ...claim, holder, ipAddress: address, version: body.version }, resolved);
        metrics.activation();
        return ok({
          success: true,
          activation_id: activation.activationId,
          ...(surface.publicKey ? { activated_at: activation.activatedAt } : {}),
          // `staging`: a staging or local site, which took no seat.
          environment: activation.environment,
          license: { features: activation.features },
        });
      }),
    }),
    idempotentRoute(deps, licenseKeyScope, {
      method: 'POST',
      path: `${surface.prefix}/licenses/deactivate`,
      input: lazyInput({ body: deactivateSchema }),
      handler: signed('deactivate', async (event, context) => {
        const body = parseInput(deactivateSchema(), jsonBody(event));
        const holder = givenHolder(body);
        if (holder === undefined && body.activation_id === undefined) throw new BadRequestError('domain, machine or activation_id is required');
        const claim = claimOf(surface, body);
        const activationId = activationIdOf(body);
        const address = clientAddress(event, deps.config);
        await limitWrite(claim, address);
        await deactivateLicense(deps, context, { ...claim, holder, activationId, ipAddress: address });
        return ok({ success: true });
      }),
    }),
  ];
  if (surface.publicKey) {
    routes.push({
      method: 'POST',
      path: `${surface.prefix}/licenses/check`,
      input: lazyInput({ body: validateSchema }),
      data: 'direct',
      handler: signed('check', async (event, context) => {
        const body = parseInput(validateSchema(), jsonBody(event));
        const holder = requiredHolder(body);
        const claim = claimOf(surface, body);
        const address = clientAddress(event, deps.config);
        await limitRead(claim, address);
        const { activationId, features } = await checkActivation(deps, context, { ...claim, holder, ipAddress: address, version: body.version });
        return ok({ activated: activationId !== null, activation_id: activationId, license: { features } });
      }),
    });
    routes.push({
      method: 'POST',
      path: `${surface.prefix}/licenses/offline`,
      input: lazyInput({ body: offlineSchema }),
      data: 'direct',
      handler: signed('offline', async (event, context) => {
        const body = parseInput(offlineSchema(), jsonBody(event));
        const holder = requiredHolder(body);
        const claim = claimOf(surface, body);
        await limitRead(claim, clientAddress(event, deps.config));
        const file = await issueOfflineLicense(deps, { catalog: context.catalog, keyring: signer.keyring }, { ...claim, holder });
        return ok({ license_file: file.licenseFile, key_id: file.keyId, issued_at: file.issuedAt, valid_until: file.validUntil });
      }),
    });
  }
  return routes;
}
