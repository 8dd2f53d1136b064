/**
 * Invocations of the import worker, and of the export worker, that run at once in a deployment (DECISIONS §20): each
 * function's reserved concurrency and its queue's event source's maximum concurrency in AWS, the local queues'
 * consumers here. However many accounts import or export at once, they share these, and leave the rest of the
 * account's Lambda concurrency to the license operations.
 */
export const PORTABILITY_WORKER_CONCURRENCY = 2;
