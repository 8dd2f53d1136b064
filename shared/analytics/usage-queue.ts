import * as z from 'zod/mini';
import { queueSender } from '../aws/queue-sender.js';
import type { CoreConfig } from '../config.js';

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
 * An active install seen on its first check of a UTC day (shared/licensing/activity.ts): counted, not stored. The
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

/** What the writer takes from the queue; anything else is dropped there (only a bug or a hand-sent message is). */
export const usageMessageSchema = z.discriminatedUnion('kind', [usageEventMessage, installSeenMessage]);
export type UsageEventMessage = z.infer<typeof usageEventMessage>;
export type InstallSeenMessage = z.infer<typeof installSeenMessage>;
export type UsageMessage = z.infer<typeof usageMessageSchema>;

/** The usage queue (SQS in AWS, the local stack's queue locally): one message per accepted event or install seen. */
export type UsageQueue = { send(message: UsageMessage): Promise<void> };

export function createUsageQueue(config: CoreConfig): UsageQueue {
  return { send: queueSender<UsageMessage>(config, config.analytics.queueUrl, 'USAGE_QUEUE_URL') };
}

/**
 * How the usage queue feeds the writer, in AWS and locally alike. Up to 100 messages a batch, gathered for up to
 * 5 seconds: each batch's events go out 25 to a BatchWriteItem, and its counts once per (product, day, name),
 * so the busier the queue, the fewer writes per event. A batch that keeps failing (the table refusing writes
 * for about 15 minutes) moves to the dead-letter queue, which raises an alarm and can be redriven.
 */
export const USAGE_QUEUE_SETTINGS = {
  batchSize: 100,
  maxBatchingWindowSeconds: 5,
  writerTimeoutSeconds: 30,
  /** Six times the writer's timeout, as AWS advises for an SQS event source with a batching window. */
  visibilityTimeoutSeconds: 180,
  maxReceiveCount: 5,
  /** Concurrent writers at most: larger batches are cheaper per event, and the edge must keep its concurrency. */
  maxConcurrency: 2,
};
