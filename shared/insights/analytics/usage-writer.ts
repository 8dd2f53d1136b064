import { reachMilestone } from '../../catalog/index.js';
import { type DailyMetric, readAll, untilProcessed } from '../../platform/data/index.js';
import { logger } from '../../platform/observability/index.js';
import type { Deps } from '../../platform/index.js';
import { bumpDailyCount } from './daily-counts.js';
import { dayOf } from './days.js';
import { expiry, ownLicense } from './license-origin.js';
import { writeSightings } from '../overview/sightings.js';
import { usageMessageSchema, type InstallSeenMessage, type UsageEventMessage, type UsageMessage } from './usage-message.js';

export type UsageWriterDeps = Pick<Deps, 'data' | 'config' | 'clock'>;

/** A message as the writer receives it: its queue id (to report it failed), its body, and how often it was received. */
export type ReceivedMessage = { messageId: string; body: string; receiveCount: number };

type Parsed<M extends UsageMessage = UsageMessage> = { messageId: string; receiveCount: number; message: M };
type CountKey = { productId: string; day: string; metric: DailyMetric; name: string };
type Count = CountKey & { by: number; messageIds: string[] };

/** Batch writes of one writer run at once: 100 events are 4 BatchWriteItem requests of 25. */
const PUT_CONCURRENCY = 4;

const isEvent = (parsed: Parsed): parsed is Parsed<UsageEventMessage> => parsed.message.kind === 'event';

/** Messages that parse; one that does not would fail on every receive, so it is logged and dropped. */
function parseAll(received: ReceivedMessage[]): Parsed[] {
  return received.flatMap(({ messageId, body, receiveCount }) => {
    const result = (() => {
      try {
        return usageMessageSchema.safeParse(JSON.parse(body));
      } catch {
        return undefined;
      }
    })();
    if (result?.success) return [{ messageId, receiveCount, message: result.data }];
    logger.error('Usage message dropped: not a usage event or install', { messageId });
    return [];
  });
}

const eventKey = ({ productId, receivedAt, eventId }: UsageEventMessage) => ({ productId, day: dayOf(new Date(receivedAt)), createdAt: receivedAt, eventId });

/**
 * The events of messages received before (SQS delivers at least once) that are already stored: done, counts
 * included, since an event is stored only after its count (below). A rare read: only for redelivered messages.
 */
async function alreadyStored(deps: UsageWriterDeps, messages: Parsed[]): Promise<Set<string>> {
  const again = messages.filter(isEvent).filter((m) => m.receiveCount > 1);
  if (again.length === 0) return new Set();
  const stored = await readAll(again.map((m) => eventKey(m.message)), (keys) => deps.data.entities.usageEvent.get(keys).go({ consistent: true }));
  const storedIds = new Set(stored.map((item) => item.eventId));
  return new Set(again.filter((m) => storedIds.has(m.message.eventId)).map((m) => m.messageId));
}

/** The licenses the events name, each read once for the batch (BatchGetItem, 100 keys a request). */
async function licensesNamed(deps: UsageWriterDeps, events: Parsed<UsageEventMessage>[]) {
  const keys = [...new Set(events.flatMap((e) => e.message.licenseKey ?? []))];
  const licenses = keys.length === 0 ? [] : await readAll(keys.map((licenseKey) => ({ licenseKey })), (batch) => deps.data.entities.license.get(batch).go());
  return new Map(licenses.map((license) => [license.licenseKey, license]));
}

/** One count per (product, day, metric, name) of the batch, with the messages it counts. */
function countsOf(messages: Parsed[]): Count[] {
  const counts = new Map<string, Count>();
  const add = (messageId: string, key: CountKey) => {
    const id = JSON.stringify([key.productId, key.day, key.metric, key.name]);
    const count = counts.get(id) ?? { ...key, by: 0, messageIds: [] };
    count.by += 1;
    count.messageIds.push(messageId);
    counts.set(id, count);
  };
  for (const { messageId, message } of messages) {
    if (message.kind === 'event') {
      add(messageId, { productId: message.productId, day: dayOf(new Date(message.receivedAt)), metric: 'event', name: message.event });
      continue;
    }
    add(messageId, { productId: message.productId, day: message.day, metric: 'installs', name: 'all' });
    if (message.version) add(messageId, { productId: message.productId, day: message.day, metric: 'version', name: message.version });
  }
  return [...counts.values()];
}

/** Bumps each count once (`ADD n`); answers the messages of the counts that could not be bumped. */
async function bumpCounts(deps: UsageWriterDeps, counts: Count[]): Promise<string[]> {
  const outcomes = await Promise.allSettled(counts.map(({ productId, day, metric, name, by }) => bumpDailyCount(deps, { productId, day, metric, name }, by)));
  return outcomes.flatMap((outcome, i) => {
    if (outcome.status === 'fulfilled') return [];
    logger.error('Daily count not bumped; its messages return to the queue', { count: { ...counts[i], messageIds: undefined }, error: outcome.reason });
    return counts[i]!.messageIds;
  });
}

/** Stores the events, 25 to a BatchWriteItem; answers the messages whose events stayed unwritten. */
async function putEvents(deps: UsageWriterDeps, events: Parsed<UsageEventMessage>[], licenses: Awaited<ReturnType<typeof licensesNamed>>): Promise<string[]> {
  if (events.length === 0) return [];
  const items = events.map(({ message }) => {
    const license = message.licenseKey === undefined ? undefined : licenses.get(message.licenseKey);
    return {
      ...eventKey(message), event: message.event, properties: message.properties, domain: message.domain,
      ...(license && ownLicense(license, message.productId)), ttl: expiry(deps, new Date(message.receivedAt)),
    };
  });
  const byId = new Map(items.map((item) => [item.eventId, item]));
  const put = async (batch: typeof items) => {
    const { unprocessed } = await deps.data.entities.usageEvent.put(batch).go({ concurrency: PUT_CONCURRENCY });
    return { unprocessed: unprocessed.map((key) => byId.get(key.eventId)!) };
  };
  try {
    const left = await untilProcessed(items, put);
    const unwritten = new Set(left.map((item) => item.eventId));
    if (unwritten.size > 0) logger.error('Usage events left unprocessed; they return to the queue', { events: unwritten.size });
    return events.filter((e) => unwritten.has(e.message.eventId)).map((e) => e.messageId);
  } catch (error) {
    logger.error('Usage events not written; they return to the queue', { events: events.length, error });
    return events.map((e) => e.messageId);
  }
}

/**
 * A product's first site, from the sites seen checking in: those that activated before first activations were recorded,
 * or came with an import, never activate again, yet their product's first steps should tick (DECISIONS §22). Each
 * product once per container (shared/catalog/products/milestones.ts); a machine's hold key names it by its fingerprint.
 */
async function recordSitesSeen(deps: UsageWriterDeps, installs: Parsed<InstallSeenMessage>[]): Promise<void> {
  const firstSeen = new Map<string, { tenantId: string; site: string }>();
  for (const { message } of installs) {
    if (message.tenantId && message.site && !firstSeen.has(message.productId)) firstSeen.set(message.productId, { tenantId: message.tenantId, site: message.site });
  }
  const at = deps.clock.now().toISOString();
  await Promise.all(
    [...firstSeen].map(([productId, { tenantId, site }]) =>
      reachMilestone(deps, { productId, tenantId, milestone: 'firstActivation', at, site: site.replace(/^machine:/, '') }),
    ),
  );
}

/**
 * Writes a batch of the usage queue: the events (1 write unit each, under 1 KB) and each daily count once, with
 * `ADD n` for the n events or installs of the batch it counts; the installs' sites and counts in their tenant's
 * overview (shared/insights/overview/sightings.ts), and a product's first site when it has none on record; a
 * `license_key` is kept only when it is the
 * product's (one batch read of the distinct keys). Answers the messages to receive again.
 * Counts go first and an event is stored after its count, so on a later receive a stored event is skipped
 * whole. A count is bumped twice only when its events were not all stored (the table refused them through
 * every retry) or the run was cut between the two: the at-least-once caveat of docs/data-model.md.
 */
export async function writeUsage(deps: UsageWriterDeps, received: ReceivedMessage[]): Promise<string[]> {
  const messages = parseAll(received);
  const stored = await alreadyStored(deps, messages);
  const fresh = messages.filter((m) => !stored.has(m.messageId));
  const licenses = await licensesNamed(deps, fresh.filter(isEvent));
  const installs = fresh.filter((m): m is Parsed<InstallSeenMessage> => m.message.kind === 'install');
  const [countsFailed, sightingsFailed] = await Promise.all([bumpCounts(deps, countsOf(fresh)), writeSightings(deps, installs)]);
  await recordSitesSeen(deps, installs);
  const failed = new Set([...countsFailed, ...sightingsFailed]);
  for (const messageId of await putEvents(deps, fresh.filter(isEvent).filter((m) => !failed.has(m.messageId)), licenses)) failed.add(messageId);
  return [...failed];
}
