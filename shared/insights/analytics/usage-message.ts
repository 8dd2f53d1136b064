import * as z from 'zod/mini';

/**
 * A usage event as accepted (`POST /public/v1/events`): all the writer needs, so it never asks the request again.
 * `eventId` and `receivedAt` are fixed at ingest: they are the event item's key, so writing it again is harmless.
 * `licenseKey` is the caller's claim, checked by the writer against the product.
 */
const usageEventMessage = z.object({
  kind: z.literal('event'),
  eventId: z.string(),
  productId: z.string(),
  event: z.string(),
  properties: z.optional(z.record(z.string(), z.unknown())),
  licenseKey: z.optional(z.string()),
  domain: z.optional(z.string()),
  receivedAt: z.iso.datetime(),
});

/**
 * An active install seen on its first check of a UTC day (shared/licensing/operations/activity.ts): counted, not stored. The
 * tenant and site (its domain) feed the overview's counts and distinct-sites sketch; PHP and WordPress versions come
 * with an update check. Messages queued before the overview carry neither tenant nor site: counted for the product only.
 */
const installSeenMessage = z.object({
  kind: z.literal('install'),
  productId: z.string(),
  day: z.string(),
  version: z.optional(z.string()),
  tenantId: z.optional(z.string()),
  site: z.optional(z.string()),
  php: z.optional(z.string()),
  wp: z.optional(z.string()),
});

/**
 * What the writer takes from the queue; anything else is dropped there (only a bug or a hand-sent message is). A module
 * of its own: the senders (edge, public) need only the types, so their cold starts do not build these schemas.
 */
export const usageMessageSchema = z.discriminatedUnion('kind', [usageEventMessage, installSeenMessage]);
export type UsageEventMessage = z.infer<typeof usageEventMessage>;
export type InstallSeenMessage = z.infer<typeof installSeenMessage>;
export type UsageMessage = z.infer<typeof usageMessageSchema>;
