import { z } from 'zod';
import { AppError, BadRequestError } from '../../shared/errors.js';
import { jsonBody, sourceIp } from '../../shared/http/request.js';
import { json, ok } from '../../shared/http/responses.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { activateLicense } from '../../shared/licensing/activate.js';
import { checkActivation } from '../../shared/licensing/check.js';
import { deactivateLicense } from '../../shared/licensing/deactivate.js';
import { MAX_DOMAIN_INPUT_LENGTH, normalizeDomain } from '../../shared/licensing/domain.js';
import { validateLicense, type LicenseContext } from '../../shared/licensing/validate.js';
import type { Deps } from '../../shared/runtime.js';
import { optionalText, parseEdgeInput, requiredText } from './input.js';

export type Route = { method: 'GET' | 'POST'; path: string; handler: (event: HttpEvent) => Promise<HttpResult> };

/** `/v1` (no identification) or `/public/v1` (the product's `public_key` in every body). */
export type LicenseSurface = { prefix: string; publicKey: boolean };

const licenseFields = {
  license_key: requiredText('license_key', 256),
  product_slug: optionalText('product_slug', 128),
  domain: optionalText('domain', MAX_DOMAIN_INPUT_LENGTH),
  /** Alias of `domain` (a public example sends it); `domain` wins when both are given. */
  site: optionalText('site', MAX_DOMAIN_INPUT_LENGTH),
};
const publicKeyField = { public_key: requiredText('public_key', 128) };
const deactivateFields = { ...licenseFields, activation_id: optionalText('activation_id', 64) };

function schemaFor<F extends z.ZodRawShape>(surface: LicenseSurface, fields: F) {
  // The public key comes first, so a body missing everything names it first.
  return surface.publicKey ? z.object({ ...publicKeyField, ...fields }) : z.object({ ...fields, public_key: optionalText('public_key', 128) });
}

type LicenseBody = { license_key: string; product_slug?: string; domain?: string; site?: string; public_key?: string };

function claimOf(surface: LicenseSurface, body: LicenseBody) {
  return {
    licenseKey: body.license_key,
    productSlug: body.product_slug,
    // On the edge a public key is not expected, and is ignored when a plugin sends one.
    publicKey: surface.publicKey ? body.public_key : undefined,
  };
}

const givenDomain = (body: LicenseBody) => {
  const raw = body.domain ?? body.site;
  return raw === undefined ? undefined : normalizeDomain(raw, body.domain !== undefined ? 'domain' : 'site');
};

function requiredDomain(body: LicenseBody): string {
  const domain = givenDomain(body);
  if (domain === undefined) throw new BadRequestError('domain is required');
  return domain;
}

/** validate, activate and deactivate on both prefixes; check on the public one. */
export function licenseRoutes(deps: Deps, context: LicenseContext, surface: LicenseSurface): Route[] {
  const validateSchema = schemaFor(surface, licenseFields);
  const deactivateSchema = schemaFor(surface, deactivateFields);
  const routes: Route[] = [
    {
      method: 'POST',
      path: `${surface.prefix}/licenses/validate`,
      handler: async (event) => {
        try {
          const body = parseEdgeInput(validateSchema, jsonBody(event));
          const result = await validateLicense(deps, context, {
            ...claimOf(surface, body),
            domain: givenDomain(body),
            ipAddress: sourceIp(event),
          });
          return ok({ valid: true, ...result });
        } catch (error) {
          // Every refusal of a validate, bad input included, is `{valid: false, error}` with its status.
          if (error instanceof AppError && error.statusCode < 500) return json(error.statusCode, { valid: false, error: error.message });
          throw error;
        }
      },
    },
    {
      method: 'POST',
      path: `${surface.prefix}/licenses/activate`,
      handler: async (event) => {
        const body = parseEdgeInput(validateSchema, jsonBody(event));
        const activation = await activateLicense(deps, context, {
          ...claimOf(surface, body),
          domain: requiredDomain(body),
          ipAddress: sourceIp(event),
        });
        return ok({
          success: true,
          activation_id: activation.activationId,
          ...(surface.publicKey ? { activated_at: activation.activatedAt } : {}),
        });
      },
    },
    {
      method: 'POST',
      path: `${surface.prefix}/licenses/deactivate`,
      handler: async (event) => {
        const body = parseEdgeInput(deactivateSchema, jsonBody(event));
        const domain = givenDomain(body);
        if (domain === undefined && body.activation_id === undefined) throw new BadRequestError('domain or activation_id is required');
        await deactivateLicense(deps, context, {
          ...claimOf(surface, body),
          domain,
          activationId: body.activation_id,
          ipAddress: sourceIp(event),
        });
        return ok({ success: true });
      },
    },
  ];
  if (surface.publicKey) {
    routes.push({
      method: 'POST',
      path: `${surface.prefix}/licenses/check`,
      handler: async (event) => {
        const body = parseEdgeInput(validateSchema, jsonBody(event));
        const { activationId } = await checkActivation(deps, context, {
          ...claimOf(surface, body),
          domain: requiredDomain(body),
          ipAddress: sourceIp(event),
        });
        return ok({ activated: activationId !== null, activation_id: activationId });
      },
    });
  }
  return routes;
}
