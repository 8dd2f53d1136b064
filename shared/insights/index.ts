/** The public surface of the insights context: what other contexts and the functions use of it (docs/architecture.md). */
export { dailyCountItem } from './analytics/daily-counts.js';
export { dayOf, isDay } from './analytics/days.js';
export { expiry, ownLicense } from './analytics/license-origin.js';
export { listDeactivationReasons, listFeedback, listUsageEvents, productAnalytics, toFeedback } from './analytics/reads.js';
export { createUsageQueue } from './analytics/usage-queue.js';
export type { UsageQueue } from './analytics/usage-queue.js';
export { writeUsage } from './analytics/usage-writer.js';
export type { UsageWriterDeps } from './analytics/usage-writer.js';
export { licenseCreatedChanges, overviewCountItems, paymentChanges, refundChanges, subscriptionChanges } from './overview/counts.js';
export { firstActivation, gettingStarted, GETTING_STARTED_STEPS } from './overview/getting-started.js';
export type { FirstActivation, GettingStarted } from './overview/getting-started.js';
export { readOverview } from './overview/overview.js';
