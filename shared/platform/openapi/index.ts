/** The public surface of shared/platform/openapi: what the contexts and the functions use of it. */
export { idOf, jsonObject, nullableTimestamp, pageOf, timestamp } from './common.js';
export { EX, exampleActivation, exampleActivationListItem, exampleCustomer, exampleId, exampleLicense, examplePage, examplePayment, examplePlan, exampleProduct, exampleProductSummary, examplePlatformFile, exampleRelease, exampleSigningKey, exampleSubscription, exampleUser, exampleWebhook } from './examples.js';
export { assertDescribes, defineOperations, described, named } from './operation.js';
export type { OperationDoc, OperationDocs, ResponseDoc, Security } from './operation.js';
