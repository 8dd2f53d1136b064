/** The public surface of shared/platform/data: what the contexts and the functions use of it. */
export { ACTIVATION_ENVIRONMENTS, ACTIVATION_STATUSES, ALL_PRODUCTS, BILLING_CYCLES, CHANNELS, COUPON_DURATIONS, DELIVERY_STATUSES, EXPORT_FORMATS, EXPORT_STATUSES, FEEDBACK_TYPES, GAUGE_DAY, IMPORT_FORMATS, IMPORT_STATUSES, LICENSE_STATUSES, OUTBOX_ITEM_KINDS, PAYMENT_PROVIDERS, PLATFORMS, PLAN_CHANGE_PRORATIONS, PRODUCT_STATUSES, PRODUCT_TYPES, README_SECTIONS, RELEASE_STATUSES, UPDATES_AFTER_EXPIRY } from './attribute-values.js';
export type { ExportFormat, OverviewMetric } from './attribute-values.js';
export type { ConditionOperations } from './conditions.js';
export { counterNames, counterUpdates, licenseFilterCounter, readCounter } from './counters.js';
export type { MAIL_KINDS } from './entities/mail.js';
export type { DailyMetric } from './entities/product-daily.js';
export type { ProductMilestoneName } from './entities/product-milestone.js';
export { CUSTOMER_TEXT_FIELDS, PERSONAL_FIELDS } from './personal-fields.js';
export { createDataService } from './service.js';
export type { DataService, Entities, EntityItem, TransactionEntities } from './service.js';
export { SERVICE_NAME } from './table-schema.js';
export { entityOf } from './transact-item.js';
export type { TransactItem } from './transact-item.js';
export { provideTransactionCompanion } from './transaction-companion.js';
export type { TransactionCompanion } from './transaction-companion.js';
export { MAX_STORAGE_ATTEMPTS, deleteItems, jitteredBackoffMs, prepareTransaction, readAll, transact, untilProcessed, writeItem } from './writes.js';
export type { PreparedTransaction, Slot } from './writes.js';
