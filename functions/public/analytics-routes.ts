import * as z from 'zod/mini';
import { MAX_DOMAIN_INPUT_LENGTH, normalizeDomain, type ProductCatalog, recordDeactivationReason, submitFeedback, trackEvent } from '../../shared/licensing/index.js';
import type { UsageQueue } from '../../shared/insights/index.js';
import { metadataSchema } from '../../shared/customers/index.js';
import { FEEDBACK_TYPES } from '../../shared/platform/data/index.js';
import { clientNetwork, created, email, json, jsonBody, lazyInput, optionalText, parseInput, requiredText, type Route } from '../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../shared/platform/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';

/** Far above what the fields allow (5,000 characters of message and 8 KB of metadata), far below the default. */
const ANALYTICS_BODY_LIMIT_BYTES = 32 * 1024;

/** The routes' schemas, built with the first request that reads one (shared/platform/http/route.ts: `lazyInput`). */
const schemas = lazily(() => {
  const originFields = {
    public_key: requiredText('public_key', 128),
    license_key: optionalText('license_key', 256),
    domain: optionalText('domain', MAX_DOMAIN_INPUT_LENGTH),
  };
  /** A free-form object of DECISIONS §10: never another type, at most 8 levels and 8 KB. */
  const freeForm = (field: string) =>
    z.optional(z.nullable(z.pipe(z.unknown().check(z.refine((v) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v)), `${field} must be an object`)), metadataSchema)));
  const boundedText = (field: string, max: number) =>
    z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${field} is required` : `${field} must be a string`) }).check(
      z.trim(),
      z.minLength(1, `${field} is required`),
      z.maxLength(max, `${field} must be at most ${max} characters`),
    );

  const feedbackBody = z.object({
    ...originFields,
    type: z.enum(FEEDBACK_TYPES, { error: (issue) => (issue.input === undefined ? 'type is required' : `type must be one of ${FEEDBACK_TYPES.join(', ')}`) }),
    message: boundedText('message', 5000),
    email: z.optional(z.nullable(z.string({ error: 'email must be a string' }).check(z.trim(), z.refine((v) => z.safeParse(email, v).success, 'email must be a valid e-mail address')))),
    metadata: freeForm('metadata'),
  });
  const eventBody = z.object({ ...originFields, event: boundedText('event', 100), properties: freeForm('properties') });
  const reasonBody = z.object({ ...originFields, reason: boundedText('reason', 100), details: optionalText('details', 5000) });
  return { feedbackBody, eventBody, reasonBody };
});


type OriginFields = { public_key: string; license_key?: string; domain?: string };

/** What every record takes from the request: the product's key, the license and site named, if any. */
function originOf(body: OriginFields) {
  return { publicKey: body.public_key, licenseKey: body.license_key, domain: body.domain === undefined ? undefined : normalizeDomain(body.domain) };
}

/**
 * Feedback, usage events and deactivation reasons from installed products (DECISIONS §8), identified by the
 * product's `public_key`. Feedback and reasons are stored before the 201; an event is queued (202) and written
 * by the usage event writer within seconds. Each caller (public key and address) has a bucket in the container, so a looping plugin
 * or a script is refused (429) before it costs a write.
 */
export function analyticsRoutes(deps: Deps, context: { catalog: ProductCatalog; limits: RateLimiter; usage: UsageQueue }): Route[] {
  const ingest = { ...deps, catalog: context.catalog };
  const read = async <S extends z.core.$ZodType<OriginFields>>(schema: S, event: Parameters<Route['handler']>[0]) => {
    const body = parseInput(schema, jsonBody(event, ANALYTICS_BODY_LIMIT_BYTES));
    await context.limits.take(RATE_LIMITS.analytics, `${body.public_key}#${clientNetwork(event, deps.config)}`);
    return body;
  };
  return [
    {
      method: 'POST',
      path: '/public/v1/feedback',
      input: lazyInput({ body: () => schemas().feedbackBody }),
      handler: async (event) => {
        const body = await read(schemas().feedbackBody, event);
        const { type, message } = body;
        return created(await submitFeedback(ingest, { ...originOf(body), type, message, email: body.email?.toLowerCase() || undefined, metadata: body.metadata ?? undefined }));
      },
    },
    {
      method: 'POST',
      path: '/public/v1/events',
      input: lazyInput({ body: () => schemas().eventBody }),
      handler: async (event) => {
        const body = await read(schemas().eventBody, event);
        await trackEvent({ ...ingest, usage: context.usage }, { ...originOf(body), event: body.event, properties: body.properties ?? undefined });
        return json(202, { accepted: true });
      },
    },
    {
      method: 'POST',
      path: '/public/v1/deactivation-reasons',
      input: lazyInput({ body: () => schemas().reasonBody }),
      handler: async (event) => {
        const body = await read(schemas().reasonBody, event);
        return created(await recordDeactivationReason(ingest, { ...originOf(body), reason: body.reason, details: body.details }));
      },
    },
  ];
}
